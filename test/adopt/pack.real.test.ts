/**
 * The packed package's man pages, read with man (Debian's man-db) from the prefix it was installed
 * into: `man jobs`, `man jobs-sync` and `man jobs-cli` work as a user types them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, exec, LIMIT_MS, packAndInstall, ROOT } from './packed.js';

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string };
let prefix: string;
let packedFiles: string[];

beforeAll(async () => {
  ({ prefix, packedFiles } = await packAndInstall(PKG.name));
}, LIMIT_MS);

describe('npm pack, installed globally into a temporary prefix', () => {
  it('installs the man pages: man jobs, man jobs-sync and man jobs-cli work from the prefix', async () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['dist/man/man1/jobs.1', 'dist/man/man1/jobs-sync.1']));
    const env = cleanEnv({ MANPATH: join(prefix, 'share', 'man'), MANWIDTH: '100', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' });
    const jobs = await exec('man', ['jobs'], { env });
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(jobs.stdout).toMatch(/^NAME\n +jobs - publish, update and delete job adverts/m);
    expect(jobs.stdout).toMatch(/^EXIT STATUS\n/m);
    const sync = await exec('man', ['jobs-sync'], { env });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/^SYNOPSIS\n +jobs sync \[options\] <dir>/m);
    expect(sync.stdout).toContain('--detailed-exitcode');
    const alias = await exec('man', ['jobs-cli'], { env });
    expect(alias.code, alias.stderr).toBe(0);
    expect(alias.stdout).toMatch(/^NAME\n +jobs - /m);
  });
});
