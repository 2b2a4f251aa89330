/**
 * The state file's last line sums it up: per service, a hash of the set of its records' places and
 * text hashes, and a hash of every byte before that line. A sync whose folder sums to the same set
 * knows that nothing changed (every advert is where the state has it, with the text it had) without
 * reading 100,000 records: reading them was the largest part of a sync that finds nothing to do.
 * A file edited by hand, or written by anything else, no longer matches its byte hash, and is read
 * in full as before.
 */
import { createHash, hash } from 'node:crypto';
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

/** What a state's last line claims, before the bytes before it are checked against it. */
export interface StateCheck {
  /** Service key -> the sum of its adverts (AdvertSetHash), for services whose records all have text hashes. */
  sums: Map<string, string>;
  /** Whether the bytes before the line still hash to what it says (false after an edit by hand). */
  holds: () => boolean;
}

/** Only the end of the file is read to find the line; the bytes before it are hashed in pieces. */
const TAIL = 64 * 1024;
const PIECE = 1024 * 1024;

/**
 * The check line of a state file, or undefined when there is none: a file from an earlier release,
 * another version, or laid out otherwise.
 */
export function readStateCheck(path: string): StateCheck | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return undefined;
    const size = info.size;
    const readAt = (position: number, length: number): Buffer => {
      const buffer = Buffer.allocUnsafe(length);
      let read = 0;
      for (let n = -1; n !== 0 && read < length; read += n) n = readSync(fd, buffer, read, length - read, position + read);
      return buffer.subarray(0, read);
    };
    // A state this release writes: version 2 (a newer one is refused when read in full), ending with the check line and `}`.
    const head = `{\n  "version": ${STATE_VERSION},\n`;
    if (readAt(0, head.length).toString('latin1') !== head) return undefined;
    const tailStart = Math.max(0, size - TAIL);
    const tail = readAt(tailStart, size - tailStart);
    const end = tail.length - '\n}\n'.length;
    if (end < 0 || tail.toString('latin1', end) !== '\n}\n') return undefined;
    const at = tail.lastIndexOf(`\n${PREFIX}`, end - 1) + 1;
    if (at <= 0) return undefined;
    let check: unknown;
    try {
      check = JSON.parse(tail.toString('utf8', at + PREFIX.length, end));
    } catch {
      return undefined;
    }
    if (check === null || typeof check !== 'object') return undefined;
    const { bytes: expected, services } = check as { bytes?: unknown; services?: unknown };
    if (typeof expected !== 'string' || services === null || typeof services !== 'object') return undefined;
    const sums = new Map<string, string>();
    for (const [key, sum] of Object.entries(services)) if (typeof sum === 'string') sums.set(key, sum);
    const before = tailStart + at;
    const holds = () => {
      // Opened again: the caller may ask after this function returned.
      const digest = createHash(bytesHashAlgorithm);
      const again = openSync(path, 'r');
      try {
        const piece = Buffer.allocUnsafe(PIECE);
        for (let done = 0; done < before;) {
          const n = readSync(again, piece, 0, Math.min(PIECE, before - done), done);
          if (n === 0) return false;
          digest.update(piece.subarray(0, n));
          done += n;
        }
        return fstatSync(again).size === size && digest.digest('hex') === expected;
      } finally {
        closeSync(again);
      }
    };
    return { sums, holds };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
