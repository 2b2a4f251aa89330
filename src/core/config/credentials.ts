/**
 * The credentials store written by `jobs login`: `$XDG_CONFIG_HOME/jobs/credentials.json`, one entry
 * per profile (`default` when no profile is selected), mode 0600 in a 0700 directory, replaced
 * atomically so a crash never leaves half a file. An entry holds the token, or `"keyring": true`
 * when the token is in the OS keyring (./token-store.ts decides which).
 */
import { isMissing, readFile, stat } from '../util/quick-fs.js';
import { dirname } from 'node:path';
import { ConfigError } from '../errors/failures.js';
import { credentialsFile, tildePath } from './paths.js';
import { isPlainObject } from './plain.js';

type Env = Record<string, string | undefined>;

export interface StoredCredential {
  /** Absent when the token is in the OS keyring (see ./keyring.ts); then `keyring` is true. */
  token?: string;
  keyring?: true;
  /** The base URL in use when the token was stored; the token is not sent anywhere else. */
  base_url?: string;
}

export interface CredentialsFile {
  version: 1;
  profiles: Record<string, StoredCredential>;
}

/** The store's key for a profile: its name, or `default` without one. */
export function storeKey(profile: string | undefined): string {
  return profile ?? 'default';
}

/** Reads the store; a missing file is an empty store, a damaged one a ConfigError. */
export async function readCredentials(env: Env): Promise<{ path: string; store: CredentialsFile; warnings: string[] }> {
  const path = credentialsFile(env);
  const warnings: string[] = [];
  let text: string;
  // Most runs have no store (a token from the environment, or none needed): no exception, and so no
  // stack trace, for that. Any other failure is the read's to report.
  if (isMissing(path)) return { path, store: emptyStore(), warnings };
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, store: emptyStore(), warnings };
    throw new ConfigError(`${show(path, env)}: cannot be read: ${(error as Error).message}`);
  }
  const store = parseStore(text, path, env);
  if (process.platform !== 'win32' && ((await stat(path)).mode & 0o077) !== 0) {
    warnings.push(`${show(path, env)}: holds tokens and is readable by others; chmod 600 it`);
  }
  return { path, store, warnings };
}

/** Stores (or replaces) the token of one profile; returns the store's path. */
export async function storeCredential(env: Env, profile: string | undefined, credential: StoredCredential): Promise<string> {
  const { path, store } = await readCredentials(env);
  store.profiles[storeKey(profile)] = entryOf(credential);
  await writeStore(path, store, env, false);
  return path;
}

/** Removes the token of one profile; `removed` is false when there was none. */
export async function removeCredential(env: Env, profile: string | undefined): Promise<{ path: string; removed: boolean }> {
  const { path, store } = await readCredentials(env);
  const key = storeKey(profile);
  if (!Object.prototype.hasOwnProperty.call(store.profiles, key)) return { path, removed: false };
  delete store.profiles[key];
  await writeStore(path, store, env, true);
  return { path, removed: true };
}

/** The token, or the mark that it is in the OS keyring, and the base URL; nothing else is kept. */
function entryOf(credential: StoredCredential): StoredCredential {
  const where: StoredCredential = typeof credential.token === 'string' ? { token: credential.token } : { keyring: true };
  return typeof credential.base_url === 'string' ? { ...where, base_url: credential.base_url } : where;
}

function emptyStore(): CredentialsFile {
  return { version: 1, profiles: Object.create(null) as Record<string, StoredCredential> };
}

function parseStore(text: string, path: string, env: Env): CredentialsFile {
  const damaged = (why: string) => new ConfigError(`${show(path, env)}: ${why}`, { details: ['Delete the file and run `jobs login` again.'] });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw damaged('is not valid JSON');
  }
  if (!isPlainObject(data) || !isPlainObject(data.profiles)) throw damaged('is not a credentials store ({"version": 1, "profiles": {...}})');
  if (data.version !== 1) throw damaged(`has version ${JSON.stringify(data.version)}, which this jobs does not know (expected 1)`);
  const store = emptyStore();
  for (const [name, entry] of Object.entries(data.profiles)) {
    if (!isPlainObject(entry) || (typeof entry.token !== 'string' && entry.keyring !== true)) throw damaged(`profiles.${name}: has no token`);
    store.profiles[name] = entryOf(entry as StoredCredential);
  }
  return store;
}

/**
 * Through the storage layer's atomic replace (temp file 0600, fsync, rename; never through a link):
 * readers see the old or the new store, never half. When the disk is full, a removal still happens:
 * the last token goes with the file, and a smaller store is written over the old one in place (no
 * new space needed); `logout` must not keep a token while saying it could not.
 */
async function writeStore(path: string, store: CredentialsFile, env: Env, removal: boolean): Promise<void> {
  // Loaded here: reading the store is on every command's path, writing it only on login/logout.
  const [{ replaceFile, removeOwnFile, shrinkInPlace }, { cannotWrite, codeOf }, { ensureFolder }] = await Promise.all([
    import('../storage/replace.js'),
    import('../storage/errors.js'),
    import('../storage/open.js'),
  ]);
  const text = `${JSON.stringify({ version: 1, profiles: { ...store.profiles } }, null, 2)}\n`;
  try {
    // Our own directory: tightened even if something else created it first.
    ensureFolder(dirname(path), 0o700, { tighten: true });
    replaceFile(path, text, { durable: true, mode: 0o600 });
  } catch (error) {
    const full = codeOf(error) === 'ENOSPC' || codeOf(error) === 'EDQUOT';
    if (full && removal) {
      try {
        if (Object.keys(store.profiles).length === 0) removeOwnFile(path);
        else shrinkInPlace(path, text);
        return;
      } catch {
        // Said below, with the first cause.
      }
    }
    const unchanged = removal ? 'the token is still stored there: delete the file, or its entry, by hand' : 'nothing was stored';
    throw cannotWrite(show(path, env), path, error, { what: 'the credentials store', after: `; ${unchanged}` });
  }
}

function show(path: string, env: Env): string {
  return tildePath(path, env);
}
