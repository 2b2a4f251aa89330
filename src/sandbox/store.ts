/**
 * The sandbox's state and its persistence. A data file is written synchronously and atomically
 * (temporary file + rename) after each change, so a crash or an abrupt exit of the process that
 * embeds the sandbox never leaves a half-written file, and nothing is left to flush at exit.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../errors/failures.js';
import { MAX_JSON_DEPTH, nestingExceeds } from './http-io.js';
import type { SandboxState, StoredAdvert } from './types.js';

export function emptyState(): SandboxState {
  return { version: 1, nextSerial: 1, adverts: [], events: [] };
}

/** A client's identity in the state and in listings: a short hash of its token, never the token. */
export function ownerOf(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 12);
}

export function shortHash(...parts: (string | number)[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);
}

export function loadState(file: string): SandboxState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw new ConfigError(`cannot read the sandbox data file ${file}: ${(error as Error).message}`);
  }
  if (text.trim() === '') return emptyState();
  try {
    // What the sandbox writes nests a few levels above the bodies it accepts; deeper was not written by it.
    if (nestingExceeds(text, MAX_JSON_DEPTH + 8)) throw new Error('nested too deeply');
    const parsed = JSON.parse(text) as Partial<SandboxState>;
    if (parsed.version !== 1 || !Array.isArray(parsed.adverts) || !Array.isArray(parsed.events)) throw new Error('unexpected shape');
    return { version: 1, nextSerial: Number(parsed.nextSerial) || 1, adverts: parsed.adverts, events: parsed.events };
  } catch (error) {
    throw new ConfigError(`the sandbox data file ${file} is not valid sandbox state (${(error as Error).message})`, {
      details: ['Delete it, or start the sandbox with --reset to clear it.'],
    });
  }
}

export function saveState(file: string, state: SandboxState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * Identifies the file's current version (a rename gives a new inode), so a sandbox notices that
 * another process sharing the data file wrote it, and reloads before answering.
 */
export function fileStamp(file: string): string | undefined {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** Removes a data file; true when there was one. */
export function removeState(file: string): boolean {
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}

export function findAdvert(state: SandboxState, owner: string, reference: string): StoredAdvert | undefined {
  return state.adverts.find((a) => a.owner === owner && a.reference === reference);
}
