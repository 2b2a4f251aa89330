/**
 * A sub-folder that cannot be listed is a finding with its path, not an unexpected error. Tests run
 * as root, where `chmod 000` does not stop a read, so the refusal is simulated: readdirSync fails
 * with EACCES for folders named `locked`, as it does for a user without the permission. (The real
 * failures root does meet, a symlink loop and a dangling link, are in test/e2e/files.test.ts.)
 */
import nock from 'nock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { advertBody, advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const locks = vi.hoisted(() => ({ on: true }));
beforeEach(() => {
  locks.on = true;
});

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((path: string, ...rest: unknown[]) => {
    if (locks.on && String(path).endsWith('/locked'))
      throw Object.assign(new Error(`EACCES: permission denied, scandir '${String(path)}'`), { code: 'EACCES' });
    return (fs.readdirSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readdirSync;
  // The folder walk lists a folder with opendirSync; refuse that the same way.
  const opendirSync = ((path: string, ...rest: unknown[]) => {
    if (locks.on && String(path).endsWith('/locked'))
      throw Object.assign(new Error(`EACCES: permission denied, opendir '${String(path)}'`), { code: 'EACCES' });
    return (fs.opendirSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.opendirSync;
  return { ...fs, readdirSync, opendirSync, default: { ...fs, readdirSync, opendirSync } };
});

describe('a folder that cannot be read', () => {
  it('validate reports it with its path and exits 3', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('U-1'), 'locked/b.yaml': advertYaml('U-2') });
    const r = await runJobs(['validate', '.'], { cwd: dir });
    expect(r.stdout).toBe('✖ locked: cannot read the folder: permission denied; its adverts are unknown\n');
    expect(r.stderr).toBe('✖ 1 error: 1 advert in 1 file checked, 1 file could not be read\n');
    expect(r.code).toBe(3);
  });

  it('sync --prune deletes nothing and sends nothing (exit 3)', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('U-1'), 'locked/b.yaml': advertYaml('U-2') });
    locks.on = false;
    const created = nock(SERVICE).post('/jobs', advertBody('U-1')).reply(201).post('/jobs', advertBody('U-2')).reply(201);
    expect((await runJobs(['sync', '.'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    created.done();

    // U-2 is in the state and its folder cannot be read: no DELETE (there is no interceptor for one).
    locks.on = true;
    const r = await runJobs(['sync', '.', '--prune'], { cwd: dir, env: serviceEnv });
    expect(r.stdout).toBe('✖ locked: cannot read the folder: permission denied; its adverts are unknown\n');
    expect(r.stderr).toContain('nothing was sent');
    expect(r.code).toBe(3);
  });
});
