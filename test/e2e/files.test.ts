/**
 * How files and folders are read, with the built binary on a real file system: symlinks are
 * followed (each real folder once), what cannot be read is reported by path, and a FIFO or device
 * named as a file is refused by name instead of hanging the run (each run bounded by a timeout).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advertYaml } from '../commands/harness.js';
import { isolatedEnv, jobs } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

function tree(files: Record<string, string>): string {
  const dir = tempDir('jobs-files-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);
const quick = { timeoutMs: 10_000 };

describe('symlinks in advert folders (built binary)', () => {
  it('follows links to files and folders; a link to an ancestor or to a folder already read adds nothing', async () => {
    const dir = tree({ 'adverts/a.yaml': advertYaml('L-1'), 'shared/b.yaml': advertYaml('L-2'), 'elsewhere/c.yaml': advertYaml('L-3') });
    symlinkSync('../shared', join(dir, 'adverts/linked'));
    symlinkSync('../shared', join(dir, 'adverts/same-again'));
    symlinkSync('../elsewhere/c.yaml', join(dir, 'adverts/c-link.yaml'));
    mkdirSync(join(dir, 'adverts/sub'));
    symlinkSync('..', join(dir, 'adverts/sub/up'));
    symlinkSync('a.yaml', join(dir, 'adverts/a-again.yaml'));

    const r = await jobs(['validate', 'adverts'], { cwd: dir, ...quick });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('✔ 3 adverts in 3 files: all valid\n');
    expect(r.code).toBe(0);
    const listed = await jobs(['validate', 'adverts', '--json'], { cwd: dir, ...quick });
    // A file reached twice is read once, under the name that comes first.
    expect(JSON.parse(listed.stdout).adverts.map((a: { file: string }) => a.file)).toEqual([
      'adverts/a-again.yaml',
      'adverts/c-link.yaml',
      'adverts/linked/b.yaml',
    ]);
  });

  it('reports a dangling link, a link loop and a FIFO named like an advert, each with its path', async () => {
    const dir = tree({ 'adverts/a.yaml': advertYaml('L-1') });
    symlinkSync('../gone.yaml', join(dir, 'adverts/dangling.yaml'));
    symlinkSync('moved-away', join(dir, 'adverts/team'));
    symlinkSync('loop', join(dir, 'adverts/loop'));
    mkfifo(join(dir, 'adverts/pipe.yaml'));

    const r = await jobs(['validate', 'adverts'], { cwd: dir, ...quick });
    expect(r.stdout).toBe(
      [
        '✖ adverts/dangling.yaml: cannot read it: a symlink to ../gone.yaml, which does not exist',
        '✖ adverts/loop: cannot read it: a symlink loop (too many levels of symbolic links)',
        '✖ adverts/pipe.yaml: skipped: it is a FIFO (named pipe), not a regular file',
        '✖ adverts/team: cannot read it: a symlink to moved-away, which does not exist',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('✖ 4 errors: 1 advert in 1 file checked, 4 files could not be read\n');
    expect(r.code).toBe(3);
  });
});

describe('a FIFO or a device named as a file (built binary)', () => {
  it('is refused by name with exit 2 by every command that reads (or init, that writes) a named file, without hanging', async () => {
    const dir = tree({
      'ok.yaml': advertYaml('F-1'),
      'adverts/ok.yaml': advertYaml('F-1'),
      'views.ndjson': '{"application_id":"7","kind":"recruiter_view"}\n',
    });
    for (const name of ['pipe.yaml', 'pipe.ndjson', 'state.fifo', 'journal.fifo', 'init.yaml']) mkfifo(join(dir, name));
    const env = isolatedEnv({ JOBS_BASE_URL: 'http://127.0.0.1:9', JOBS_TOKEN: 'tok_unused' });
    const run = (args: string[]) => jobs(args, { cwd: dir, env, ...quick });
    const { JOBS_TOKEN: _token, ...noToken } = env;
    const [validate, publish, events, dataFile, tokenFile, state, journal, configSet, init, zero, zeroEvents, zeroData] = await Promise.all([
      run(['validate', 'pipe.yaml']),
      run(['publish', 'pipe.yaml', '--dry-run']),
      run(['events', 'pipe.ndjson', '--dry-run']),
      run(['event', '7', 'recruiter_view', '--data-file', 'pipe.yaml']),
      jobs(['--token-file', 'pipe.yaml', 'stats', 'F-1'], { cwd: dir, env: noToken, ...quick }),
      run(['sync', 'adverts', '--state', 'state.fifo']),
      run(['events', 'views.ndjson', '--journal', 'journal.fifo']),
      run(['--config', 'pipe.yaml', 'config', 'set', 'timeout', '5s']),
      run(['init', 'init.yaml', '--force']),
      run(['validate', '/dev/zero']),
      run(['events', '/dev/zero', '--format', 'ndjson', '--dry-run']),
      run(['event', '7', 'recruiter_view', '--data-file', '/dev/zero']),
    ]);
    const expectRefused = (r: { code: number | null; stderr: string }, message: string) => {
      expect(r.stderr).toBe(`jobs-cli: ${message}\n`);
      expect(r.code).toBe(2);
    };
    expectRefused(validate, 'pipe.yaml is a FIFO (named pipe), not a file: give advert files, folders, or - for stdin');
    expectRefused(publish, 'pipe.yaml is a FIFO (named pipe), not a file: give advert files, folders, or - for stdin');
    expectRefused(events, 'pipe.ndjson: cannot read it: it is a FIFO (named pipe), not a regular file');
    expectRefused(dataFile, '--data-file pipe.yaml: cannot read it: it is a FIFO (named pipe), not a regular file');
    expectRefused(tokenFile, 'token file pipe.yaml (from --token-file) cannot be read: it is a FIFO (named pipe), not a regular file');
    expectRefused(state, 'cannot read the sync state state.fifo: it is a FIFO (named pipe), not a regular file');
    expectRefused(
      journal,
      'cannot read the journal journal.fifo: it is a FIFO (named pipe), not a regular file; nothing was sent\n  choose a file for it with --journal <file>',
    );
    expectRefused(configSet, 'pipe.yaml: cannot be read: it is a FIFO (named pipe), not a regular file');
    expectRefused(init, 'init.yaml is a FIFO (named pipe), not a regular file; nothing was written');
    expectRefused(zero, '/dev/zero is a character device, not a file: give advert files, folders, or - for stdin');
    expectRefused(zeroEvents, '/dev/zero: cannot read it: it is a character device, not a regular file');
    expectRefused(zeroData, '--data-file /dev/zero: cannot read it: it is a character device, not a regular file');
  });

  it('still reads - (stdin), and a symlink to a regular file', async () => {
    const dir = tree({ 'ok.yaml': advertYaml('F-1') });
    symlinkSync('ok.yaml', join(dir, 'link.yaml'));
    const stdin = await jobs(['validate', '-'], { cwd: dir, input: advertYaml('F-2'), ...quick });
    expect(stdin.stderr).toBe('✔ 1 advert in 1 file: all valid\n');
    expect(stdin.code).toBe(0);
    const link = await jobs(['validate', 'link.yaml'], { cwd: dir, ...quick });
    expect(link.code).toBe(0);
  });
});

describe('sync --prune and files it cannot see (built binary, sandbox on 127.0.0.1)', () => {
  it('keeps an advert moved behind a symlink, and deletes nothing while a file cannot be read', async () => {
    const s = await liveSandbox();
    const dir = tree({ 'adverts/a.yaml': advertYaml('P-1'), 'adverts/team/b.yaml': advertYaml('P-2') });
    const adverts = join(dir, 'adverts');
    expect((await jobs(['sync', '.'], { cwd: adverts, env: s.env })).code).toBe(0);
    const stateAfterCreate = readFileSync(join(adverts, '.jobs-state'), 'utf8');

    // The team's folder moves out and a symlink takes its place: its advert is still in the folder.
    renameSync(join(adverts, 'team'), join(dir, 'team'));
    symlinkSync('../team', join(adverts, 'team'));
    const moved = await jobs(['sync', '.', '--prune'], { cwd: adverts, env: s.env });
    expect(moved.stderr).toContain('Plan: 0 to create, 0 to update, 0 to delete, 2 unchanged.');
    expect(moved.code).toBe(0);

    // Now the link points nowhere: the advert behind it is unknown, not gone.
    renameSync(join(dir, 'team'), join(dir, 'team-elsewhere'));
    const dangling = await jobs(['sync', '.', '--prune'], { cwd: adverts, env: s.env });
    expect(dangling.stdout).toBe('✖ team: cannot read it: a symlink to ../team, which does not exist\n');
    expect(dangling.stderr).toContain('nothing was sent');
    expect(dangling.code).toBe(3);
    expect(s.count(/^DELETE/)).toBe(0);
    expect(
      s.sandbox
        .state()
        .adverts.map((a) => a.reference)
        .sort(),
    ).toEqual(['P-1', 'P-2']);
    expect(readFileSync(join(adverts, '.jobs-state'), 'utf8')).toBe(stateAfterCreate);
  });
});
