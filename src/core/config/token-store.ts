/**
 * Where `jobs login` keeps a token: in the OS keyring by default, as gh does, with only a mark
 * (`"keyring": true`) and the base URL in the credentials file; in the 0600 file itself when asked
 * (`--insecure-storage`) or when no keyring answers. Storing replaces the profile's entry, so a token
 * an older login left in the file moves to the keyring on the next login.
 */
import { readCredentials, removeCredential, storeCredential, storeKey } from './credentials.js';
import { credentialsFile, tildePath } from './paths.js';
import { keyringDelete, keyringLabel, keyringSet, KeyringUnavailable } from './keyring.js';

type Env = Record<string, string | undefined>;

export interface SavedToken {
  /** Where the token is now. */
  storage: 'keyring' | 'file';
  /** The credentials file (it holds the token, or the mark and the base URL). */
  path: string;
  /** Where the token is, in words: the keyring entry or the file. */
  label: string;
  /** Why the keyring was not used although it was wanted. */
  fallback?: string;
}

/** Where saveToken will put a token, said before it is asked for: the keyring, else (or with insecureStorage) the 0600 file. */
export function tokenDestination(env: Env, profile: string | undefined, options: { insecureStorage?: boolean } = {}): string {
  const file = `${tildePath(credentialsFile(env), env)} (a file only you can read, mode 0600)`;
  if (options.insecureStorage) return file;
  return `the ${keyringLabel(storeKey(profile))}, or where no keyring answers in ${file}`;
}

export async function saveToken(
  env: Env,
  profile: string | undefined,
  token: string,
  options: { baseUrl?: string | undefined; insecureStorage?: boolean },
): Promise<SavedToken> {
  const account = storeKey(profile);
  const base = options.baseUrl ? { base_url: options.baseUrl } : {};
  let fallback: string | undefined;
  if (!options.insecureStorage) {
    try {
      await keyringSet(env, account, token);
      const path = await storeCredential(env, profile, { keyring: true, ...base });
      return { storage: 'keyring', path, label: keyringLabel(account) };
    } catch (error) {
      if (!(error instanceof KeyringUnavailable)) throw error;
      fallback = error.message;
    }
  }
  const previous = (await readCredentials(env)).store.profiles[account];
  const path = await storeCredential(env, profile, { token, ...base });
  // The file now wins; a copy an earlier login put in the keyring must not linger there.
  if (previous?.keyring) await keyringDelete(env, account).catch(() => undefined);
  return { storage: 'file', path, label: path, ...(fallback === undefined ? {} : { fallback }) };
}

export interface ForgottenToken {
  removed: boolean;
  path: string;
  /** Where a token was removed from. */
  from: Array<'keyring' | 'file'>;
  /** The file said the token was in the keyring, but the keyring could not be asked to remove it. */
  keyringError?: string;
}

/** Removes the profile's token from the keyring and from the file, wherever it is. */
export async function forgetToken(env: Env, profile: string | undefined): Promise<ForgottenToken> {
  const account = storeKey(profile);
  const entry = (await readCredentials(env)).store.profiles[account];
  const from: ForgottenToken['from'] = [];
  try {
    // Asked even without the mark: a keyring entry whose file entry was deleted is still a token.
    if (await keyringDelete(env, account)) from.push('keyring');
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    // The mark stays in the file then, so that the next logout tries again.
    if (entry?.keyring) return { removed: false, path: credentialsFile(env), from, keyringError: error.message };
  }
  const { path, removed } = await removeCredential(env, profile);
  if (removed && entry?.token !== undefined) from.push('file');
  return { removed: from.length > 0, path, from };
}
