/**
 * `jobs login` without an OS keyring: the token goes to the 0600 file, said once. The built binary
 * runs each command. With a real keyring: keyring.real.test.ts.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const credentials = (env: Record<string, string>) => join(env.XDG_CONFIG_HOME as string, 'jobs', 'credentials.json');

describe('jobs login without an OS keyring', () => {
  it('falls back to the 0600 file and says so once, at login', async () => {
    const env = isolatedEnv();
    const login = await jobs(['login', '--with-token'], { env, input: 'tok-nokeyring' });
    expect(login).toEqual({
      code: 0,
      stdout: 'Stored the token for profile "default" in ~/config/jobs/credentials.json.\n',
      stderr:
        'Note: no OS keyring answered, so the token is in a file only you can read (mode 0600): no D-Bus session bus for the Secret Service (DBUS_SESSION_BUS_ADDRESS is not set). Pass --insecure-storage to choose the file without trying the keyring.\n' +
        "Run 'jobs-cli doctor' to check that the service accepts it.\n",
    });
    expect(JSON.parse(readFileSync(credentials(env), 'utf8')).profiles).toEqual({ default: { token: 'tok-nokeyring' } });
    expect(statSync(credentials(env)).mode & 0o777).toBe(0o600);
    expect(await jobs(['config', 'get', 'token'], { env })).toEqual({
      code: 0,
      stdout: '(set, from credentials store ~/config/jobs/credentials.json)\n',
      stderr: '',
    });
  });
});
