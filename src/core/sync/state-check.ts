/**
 * The state file's last line sums it up: per service, a hash of the set of its records' places and
 * text hashes, and a hash of every byte before that line. A sync whose folder sums to the same set
 * knows that nothing changed (every advert is where the state has it, with the text it had) without
 * reading 100,000 records: reading them was the largest part of a sync that finds nothing to do.
 * A file edited by hand, or written by anything else, no longer matches its byte hash, and is read
 * in full as before.
 */
import { hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The version written (state.ts re-exports it): a check line holds only in a file of this version. */
export const STATE_VERSION = 2;

/** The line's key; the line is `  "check": {"bytes":"<hex>","services":{"<key>":"<set hash>",...}}`. */
const PREFIX = '  "check": ';

/** A hash of a set of adverts' (reference, file, document, text hash), the same in any order. */
export class AdvertSetHash {
  private readonly sum = new Uint8Array(16);
  private count = 0;

  add(reference: string, file: string, document: number, textHash: string): void {
    // Lengths first: no two different tuples give one string.
    const digest = hash('sha256', `${reference.length}:${reference}${file.length}:${file}${document}:${textHash}`, 'buffer') as unknown as Buffer;
    for (let i = 0; i < 16; i++) this.sum[i]! ^= digest[i]!;
    this.count++;
  }

  toString(): string {
    return `${Buffer.from(this.sum).toString('hex')}:${this.count}`;
  }
}

/** The check line for a file whose bytes before it hash to `bytes`. */
export function checkLine(bytes: string, services: Record<string, string>): string {
  return `${PREFIX}${JSON.stringify({ bytes, services })}`;
}

export const bytesHashAlgorithm = 'sha256';

/**
 * The set hash the state records for each service, when its check line holds for the file's bytes;
 * undefined when there is no such line or it does not hold (the file was edited since).
 */
export function readStateCheck(path: string): Map<string, string> | undefined {
  let bytes: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) return undefined;
      bytes = Buffer.allocUnsafe(info.size);
      let read = 0;
      for (let n = -1; n !== 0 && read < info.size; read += n) n = readSync(fd, bytes, read, info.size - read, null);
      if (read !== info.size) return undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  // A state this release writes: version 2 (a newer one is refused when read in full), ending with the check line and `}`.
  const head = `{\n  "version": ${STATE_VERSION},\n`;
  if (bytes.toString('latin1', 0, head.length) !== head) return undefined;
  const end = bytes.length - '\n}\n'.length;
  if (end < 0 || bytes.toString('latin1', end) !== '\n}\n') return undefined;
  const start = bytes.lastIndexOf(`\n${PREFIX}`, end - 1) + 1;
  if (start <= 0) return undefined;
  let check: unknown;
  try {
    check = JSON.parse(bytes.toString('utf8', start + PREFIX.length, end));
  } catch {
    return undefined;
  }
  if (check === null || typeof check !== 'object') return undefined;
  const { bytes: expected, services } = check as { bytes?: unknown; services?: unknown };
  if (typeof expected !== 'string' || services === null || typeof services !== 'object') return undefined;
  if (hash(bytesHashAlgorithm, bytes.subarray(0, start), 'hex') !== expected) return undefined;
  const sums = new Map<string, string>();
  for (const [key, sum] of Object.entries(services)) if (typeof sum === 'string') sums.set(key, sum);
  return sums;
}
