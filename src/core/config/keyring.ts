/**
 * The OS keyring: the macOS Keychain, the Windows Credential Manager, the Secret Service (GNOME
 * Keyring, KWallet) on Linux, through @napi-rs/keyring. That package is an optional dependency with
 * a prebuilt binary per platform, so an install never fails for it; it is loaded only by the commands
 * that store, remove or read a token kept there (login, logout, and the token lookup when the
 * credentials file says "in the keyring"), never at start-up.
 *
 * Every way of not answering (package absent, no session bus, no Secret Service, a locked or
 * unresponsive keyring) is a KeyringUnavailable whose message says why, so the caller can fall back
 * to the 0600 file or tell the user what to do. The token is never in a message.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SINGLE_EXECUTABLE } from '../util/built-script.js';

type Env = Record<string, string | undefined>;

/** The keyring entry's service name; the account is the profile's store key (`default` without one). */
export const KEYRING_SERVICE = 'jobs-cli';

/** A keyring that waits for an unlock dialog nobody answers must not hang a command for ever. */
const TIMEOUT_MS = 10_000;

export class KeyringUnavailable extends Error {
  override name = 'KeyringUnavailable';
}

interface KeyringEntry {
  setPassword(password: string): Promise<void>;
  getPassword(): Promise<string | null>;
  deleteCredential(): Promise<boolean>;
}

/** Where the token of `account` lives in the keyring, in the words a user's keychain tool shows. */
export function keyringLabel(account: string): string {
  return `OS keyring (service "${KEYRING_SERVICE}", account "${account}")`;
}

export async function keyringSet(env: Env, account: string, token: string): Promise<void> {
  const entry = await openEntry(env, account);
  await answer(entry.setPassword(token));
}

/** The token kept for `account`, or undefined when the keyring has none. */
export async function keyringGet(env: Env, account: string): Promise<string | undefined> {
  const entry = await openEntry(env, account);
  return (await answer(entry.getPassword())) ?? undefined;
}

/** Removes the token of `account`; false when there was none. */
export async function keyringDelete(env: Env, account: string): Promise<boolean> {
  const entry = await openEntry(env, account);
  return answer(entry.deleteCredential());
}

async function openEntry(env: Env, account: string): Promise<KeyringEntry> {
  if (SINGLE_EXECUTABLE) throw new KeyringUnavailable('the single executable carries no keyring support (the npm package does)');
  // On Linux the Secret Service is reached over the user's D-Bus session bus: without one (a CI
  // runner, a container, ssh into a server) there is nothing to ask, so the native module is not
  // even loaded. This also keeps in-process tests, whose env has no bus, away from a real keyring.
  if (process.platform === 'linux' && !sessionBus(env)) {
    throw new KeyringUnavailable('no D-Bus session bus for the Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)');
  }
  let module: typeof import('@napi-rs/keyring');
  try {
    module = await import('@napi-rs/keyring');
  } catch {
    throw new KeyringUnavailable(`the keyring support (@napi-rs/keyring) is not installed for ${process.platform}-${process.arch}`);
  }
  try {
    // Linux: the Secret Service only, never the kernel keyring (keyutils), which is lost at logout/reboot.
    return new module.AsyncEntry(KEYRING_SERVICE, account, { linux: { store: 'secret-service' } });
  } catch (error) {
    throw unavailable(error);
  }
}

function sessionBus(env: Env): boolean {
  if (env.DBUS_SESSION_BUS_ADDRESS) return true;
  // The bus systemd starts for a login session, which D-Bus clients find without the variable.
  return Boolean(env.XDG_RUNTIME_DIR) && existsSync(join(env.XDG_RUNTIME_DIR as string, 'bus'));
}

async function answer<T>(operation: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new KeyringUnavailable(`the keyring did not answer within ${TIMEOUT_MS / 1000}s (is it locked?)`)), TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([operation.catch((error: unknown) => Promise.reject(unavailable(error))), late]);
  } finally {
    clearTimeout(timer);
  }
}

function unavailable(error: unknown): KeyringUnavailable {
  if (error instanceof KeyringUnavailable) return error;
  // e.g. "Couldn't access platform storage: ..."; one line, no control characters.
  const text = (error instanceof Error ? error.message : String(error)).replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return new KeyringUnavailable(text === '' ? 'the keyring refused the request' : text);
}
