/**
 * `--sandbox` with a state folder it cannot write says so at once (exit 2), naming the data file
 * and the cause, instead of answering every request 500 and giving up after seconds of retries.
 * The built binary runs against a read-only file system (a tmpfs mounted read-only, when the tests
 * run as root, as in CI), a folder without write permission (otherwise), and a file where the
 * folder should be.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const ADVERT = join(ROOT, 'examples/adverts/backend-engineer.yaml');
const root = process.getuid?.() === 0;
let readOnly: string;

beforeAll(() => {
  readOnly = tempDir('jobs-ro-state-');
  if (root) execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', readOnly]);
  else chmodSync(readOnly, 0o555);
});

afterAll(() => {
  if (root) execFileSync('umount', [readOnly]);
  else chmodSync(readOnly, 0o755);
  rmSync(readOnly, { recursive: true, force: true });
});

describe('--sandbox with a state folder it cannot write', () => {
  it(`${root ? 'a read-only file system' : 'no write permission'}: exit 2 at once, the data file and the cause named`, async () => {
    const started = Date.now();
    const r = await jobs(['--sandbox', 'publish', ADVERT], { env: isolatedEnv({ XDG_STATE_HOME: readOnly }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `jobs-cli: the sandbox cannot write its data file ${join(readOnly, 'jobs', 'sandbox.json')}: ${root ? 'the file system is read-only (EROFS)' : 'permission denied (EACCES)'}\n` +
        '  Set XDG_STATE_HOME to a folder you can write (the data file is $XDG_STATE_HOME/jobs/sandbox.json), or make that folder writable.\n',
    );
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('a file where its folder should be: the same', async () => {
    const dir = tempDir('jobs-state-file-');
    writeFileSync(join(dir, 'jobs'), 'not a folder');
    const r = await jobs(['--sandbox', 'stats', 'ACME-0042'], { env: isolatedEnv({ XDG_STATE_HOME: dir }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `jobs-cli: the sandbox cannot write its data file ${join(dir, 'jobs', 'sandbox.json')}: a part of the path is not a folder (ENOTDIR)\n`,
    );
  });

  it('a state folder not created yet is fine: it is made on the first change', async () => {
    const dir = tempDir('jobs-state-new-');
    mkdirSync(join(dir, 'parent'));
    const r = await jobs(['--sandbox', 'publish', ADVERT], { env: isolatedEnv({ XDG_STATE_HOME: join(dir, 'parent', 'not-yet') }) });
    expect(r.code).toBe(0);
  });

  it('jobs sandbox --data in a folder it cannot write: the same, before listening', async () => {
    const r = await jobs(['sandbox', '--data', join(readOnly, 'data.json'), '--port', '0'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `jobs-cli: the sandbox cannot write its data file ${join(readOnly, 'data.json')}: ${root ? 'the file system is read-only (EROFS)' : 'permission denied (EACCES)'}\n` +
        '  Name a file in a folder you can write with --data, or make that folder writable.\n',
    );
  });

  it('a link planted at its journal: the file and the reason, once, at once, no retries of a 500 "internal"', async () => {
    const dir = tempDir('jobs-state-link-');
    try {
      mkdirSync(join(dir, 'jobs'));
      const journal = join(dir, 'jobs', 'sandbox.json.journal');
      symlinkSync(join(dir, 'elsewhere'), journal);
      const started = Date.now();
      const env = isolatedEnv({ XDG_STATE_HOME: dir });
      const r = await jobs(['--sandbox', 'publish', ADVERT], { env }).finally(() => rmSync(env.HOME!, { recursive: true, force: true }));
      expect(r.code).toBe(2);
      const said = `cannot write the embedded sandbox's file ${journal}: it is a symbolic link; jobs does not write through it`;
      expect(r.stdout + r.stderr).toContain(said);
      expect((r.stdout + r.stderr).split(said)).toHaveLength(2);
      expect(r.stderr).not.toMatch(/retrying|internal|service error/);
      // Five retries with backoff took about 6 s.
      expect(Date.now() - started).toBeLessThan(4000);
      expect(existsSync(join(dir, 'elsewhere'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
