/**
 * `jobs login` with an OS keyring: a real Secret Service (GNOME Keyring on a private D-Bus session
 * bus), checked from outside with secret-tool.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { startSecretService, type SecretService } from '../support/secret-service.js';
import { outputErrors } from '../adopt/output-schemas.js';

let keyring: SecretService;
let server: Server;
let baseUrl: string;
const seen: Array<string | undefined> = [];

beforeAll(async () => {
  keyring = await startSecretService();
  // Answers the doctor's probe; records the Authorization header that reached it.
  server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":{"base":["not_found"]}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 30_000);

afterAll(async () => {
  keyring?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

const credentials = (env: Record<string, string>) => join(env.XDG_CONFIG_HOME as string, 'jobs', 'credentials.json');
const inKeyring = (account: string) => keyring.secretTool(['lookup', 'service', 'jobs-cli', 'username', account]);

describe('jobs login with an OS keyring (Secret Service)', () => {
  it('stores the token in the keyring, only a mark in the file; doctor sends it and says where it came from', async () => {
    const env = isolatedEnv(keyring.env);
    const login = await jobs(['--profile', 'kr1', '--base-url', baseUrl, 'login', '--with-token'], { env, input: 'tok-keyring-1\n' });
    expect(login.stderr).toBe("Run 'jobs-cli doctor' to check that the service accepts it.\n");
    expect(login).toMatchObject({
      code: 0,
      stdout: `Stored the token for profile "kr1" in the OS keyring (service "jobs-cli", account "kr1") (for ${baseUrl}).\n`,
    });
    expect(inKeyring('kr1')).toMatchObject({ code: 0, stdout: 'tok-keyring-1' });
    const file = readFileSync(credentials(env), 'utf8');
    expect(file).not.toContain('tok-keyring-1');
    expect(JSON.parse(file)).toEqual({ version: 1, profiles: { kr1: { keyring: true, base_url: baseUrl } } });
    expect(statSync(credentials(env)).mode & 0o777).toBe(0o600);

    const get = await jobs(['--profile', 'kr1', 'config', 'get', 'token'], { env });
    expect(get).toEqual({ code: 0, stdout: '(set, from OS keyring (service "jobs-cli", account "kr1"))\n', stderr: '' });

    seen.length = 0;
    const doctor = await jobs(['--profile', 'kr1', 'doctor', '--json'], { env });
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stdout).not.toContain('tok-keyring-1');
    const report = JSON.parse(doctor.stdout) as { checks: Array<{ name: string; detail: string }> };
    expect(report.checks.find((c) => c.name === 'token')?.detail).toBe('found (from OS keyring (service "jobs-cli", account "kr1"))');
    expect(seen).toEqual(['Bearer tok-keyring-1']);
    // The token's source, { kind: 'keyring', account }, is one the output schema knows.
    expect((report as unknown as { settings: Array<{ key: string; source: unknown }> }).settings.find((s) => s.key === 'token')?.source).toEqual({
      kind: 'keyring',
      account: 'kr1',
    });
    expect(await outputErrors('doctor', report)).toEqual([]);
  });

  it('moves a token an older login left in the file into the keyring, keeping the file readable before', async () => {
    const env = isolatedEnv(keyring.env);
    mkdirSync(join(env.XDG_CONFIG_HOME as string, 'jobs'), { recursive: true, mode: 0o700 });
    writeFileSync(credentials(env), JSON.stringify({ version: 1, profiles: { kr2: { token: 'tok-old-file', base_url: baseUrl } } }), { mode: 0o600 });
    // The old format still reads, from the file, without asking the keyring.
    expect(await jobs(['--profile', 'kr2', 'config', 'get', 'token'], { env })).toMatchObject({
      code: 0,
      stdout: '(set, from credentials store ~/config/jobs/credentials.json)\n',
    });

    const login = await jobs(['--profile', 'kr2', 'login', '--with-token'], { env, input: 'tok-new-2' });
    expect(login.code, login.stderr).toBe(0);
    expect(inKeyring('kr2').stdout).toBe('tok-new-2');
    const file = readFileSync(credentials(env), 'utf8');
    expect(file).not.toContain('tok-');
    expect(JSON.parse(file).profiles).toEqual({ kr2: { keyring: true, base_url: baseUrl } });
  });

  it('logout removes the token from the keyring and the mark from the file', async () => {
    const env = isolatedEnv(keyring.env);
    await jobs(['--profile', 'kr3', 'login', '--with-token'], { env, input: 'tok-3' });
    expect(inKeyring('kr3').stdout).toBe('tok-3');
    expect(await jobs(['--profile', 'kr3', 'logout'], { env })).toEqual({
      code: 0,
      stdout: 'Removed the stored token for profile "kr3" from the OS keyring.\n',
      stderr: '',
    });
    expect(inKeyring('kr3')).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(readFileSync(credentials(env), 'utf8'))).toEqual({ version: 1, profiles: {} });
    expect(await jobs(['--profile', 'kr3', 'logout', '--json'], { env })).toMatchObject({ code: 0 });
  });

  it('--insecure-storage keeps the token in the 0600 file and out of the keyring, and replaces a keyring copy', async () => {
    const env = isolatedEnv(keyring.env);
    await jobs(['--profile', 'kr4', 'login', '--with-token'], { env, input: 'tok-4-keyring' });
    expect(inKeyring('kr4').stdout).toBe('tok-4-keyring');
    const login = await jobs(['--profile', 'kr4', 'login', '--with-token', '--insecure-storage'], { env, input: 'tok-4-file' });
    expect(login).toMatchObject({ code: 0, stdout: `Stored the token for profile "kr4" in ~/config/jobs/credentials.json.\n` });
    expect(login.stderr).not.toContain('keyring');
    expect(JSON.parse(readFileSync(credentials(env), 'utf8')).profiles).toEqual({ kr4: { token: 'tok-4-file' } });
    expect(statSync(credentials(env)).mode & 0o777).toBe(0o600);
    expect(inKeyring('kr4')).toMatchObject({ code: 1, stdout: '' });
  });

  it('a token in the keyring that no keyring can be asked for is a warning that says so, not a crash', async () => {
    const env = isolatedEnv(keyring.env);
    await jobs(['--profile', 'kr5', 'login', '--with-token'], { env, input: 'tok-5' });
    const { DBUS_SESSION_BUS_ADDRESS: _bus, ...noBus } = env;
    const get = await jobs(['--profile', 'kr5', 'config', 'get', 'token'], { env: noBus });
    expect(get.code).toBe(1);
    expect(get.stderr).toContain(
      'the token of profile "kr5" is in the OS keyring (service "jobs-cli", account "kr5"), which did not answer: no D-Bus session bus for the Secret Service (DBUS_SESSION_BUS_ADDRESS is not set); unlock it, or run \'jobs login\' again',
    );
    // validate sends nothing, so it does not ask the keyring (nor load its module, nor warn).
    expect(await jobs(['--profile', 'kr5', 'validate', 'examples/adverts/'], { env: noBus })).toEqual({
      code: 0,
      stdout: '',
      stderr: '✔ 3 adverts in 2 files: all valid\n',
    });
    // logout cannot remove it either: it says so, exits 1, and keeps the mark for a later try.
    const logout = await jobs(['--profile', 'kr5', 'logout'], { env: noBus });
    expect(logout.code).toBe(1);
    expect(logout.stderr).toContain('could not remove the token of profile "kr5" from the OS keyring');
    expect(JSON.parse(readFileSync(credentials(env), 'utf8')).profiles.kr5).toEqual({ keyring: true });
    expect(inKeyring('kr5').stdout).toBe('tok-5');
    expect((await jobs(['--profile', 'kr5', 'logout'], { env })).code).toBe(0);
    expect(inKeyring('kr5').code).toBe(1);
  });
});
