/**
 * A real Secret Service for the keyring tests: a private D-Bus session bus (dbus-daemon) and an
 * unlocked GNOME Keyring on it (gnome-keyring-daemon --unlock, password on stdin), both children of
 * the test, with their own HOME so nothing touches the machine's keyrings. `secretTool` looks from
 * outside (libsecret's secret-tool). No skip when a tool is missing: CI installs them (.ci/run).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

export interface SecretService {
  /** The environment a client needs to reach it: DBUS_SESSION_BUS_ADDRESS. */
  env: Record<string, string>;
  /** Runs secret-tool against it (e.g. ['search', '--all', 'service', 'jobs-cli']). */
  secretTool(args: string[]): { code: number | null; stdout: string; stderr: string };
  stop(): void;
}

export async function startSecretService(): Promise<SecretService> {
  const home = tempDir('jobs-keyring-');
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(bus);
    const address = await firstLine(bus, 'dbus-daemon --session');
    const env = { HOME: home, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: join(home, 'data'), DBUS_SESSION_BUS_ADDRESS: address, PATH: process.env.PATH ?? '' };
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    children.push(keyring);
    keyring.on('error', () => undefined);
    keyring.stdin.end('test-password');
    await waitForName(env, 'org.freedesktop.secrets', keyring);
    return {
      env: { DBUS_SESSION_BUS_ADDRESS: address },
      secretTool: (args) => {
        const r = spawnSync('secret-tool', args, { env, encoding: 'utf8', timeout: 15_000 });
        if (r.error) throw new Error(`cannot run secret-tool (install libsecret-tools): ${r.error.message}`);
        return { code: r.status, stdout: r.stdout, stderr: r.stderr };
      },
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${what} printed no address in 10 s: ${err}`)), 10_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${what} (install dbus): ${error.message}`));
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
  });
}

/** Polls the bus (at most 100 times, 10 s) until `name` has an owner. */
async function waitForName(env: Record<string, string>, name: string, owner: ChildProcess): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (owner.exitCode !== null) throw new Error(`gnome-keyring-daemon exited with ${owner.exitCode} (install gnome-keyring)`);
    const r = spawnSync(
      'dbus-send',
      ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${name}`],
      { env, encoding: 'utf8', timeout: 5_000 },
    );
    if (r.stdout?.includes('boolean true')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not appear on the session bus in 10 s`);
}
