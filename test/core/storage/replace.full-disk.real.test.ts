/**
 * Full and read-only disks, on a real tmpfs: `login`, `logout`, `config set`, `report --file` and a
 * history write name the file and the cause, exit 2 (nothing was changed or sent), leave no temp
 * file, and keep the old file whole; `logout` still removes the token.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { History, HistoryWriteError } from '../../../src/core/history/store.js';
import { statsView } from '../../../src/cli/commands/stats/view.js';
import { runJobs } from '../../commands/harness.js';
import { mountTmpfs, type Tmpfs } from '../../support/tmpfs.js';
import { tempDir } from '../../support/temp-dirs.js';

let disk: Tmpfs;
beforeAll(() => {
  disk = mountTmpfs(64);
});
afterAll(() => disk.unmount());

let config: string;
let env: Record<string, string>;
let round = 0;
/** A fresh config folder on the tmpfs for each test; the disk is emptied and made writable again after. */
function fresh(): void {
  config = join(disk.dir, `config-${++round}`);
  mkdirSync(config);
  env = { XDG_CONFIG_HOME: config };
}
afterEach(() => {
  disk.readWrite();
  disk.free();
});

const store = () => join(config, 'jobs', 'credentials.json');
const leftovers = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.tmp'));

describe('login and logout', () => {
  it('login on a full disk: the file and the cause, exit 2, the old store whole, no temp file', async () => {
    fresh();
    expect((await runJobs(['login', '--with-token'], { env, stdin: 'tok-old-111111\n' })).code).toBe(0);
    const before = readFileSync(store(), 'utf8');
    disk.fill();
    const r = await runJobs(['--profile', 'ci', 'login', '--with-token'], { env, stdin: 'tok-new-222222\n' });
    expect(r.stderr).toBe(`jobs: cannot write the credentials store ${store()}: the disk is full (ENOSPC); nothing was stored\n`);
    expect(r.code).toBe(2);
    expect(readFileSync(store(), 'utf8')).toBe(before);
    expect(leftovers(join(config, 'jobs'))).toEqual([]);
  });

  it('login on a read-only disk says so (EROFS), exit 2', async () => {
    fresh();
    mkdirSync(join(config, 'jobs'));
    disk.readOnly();
    const r = await runJobs(['login', '--with-token'], { env, stdin: 'tok-333333\n' });
    expect(r.stderr).toBe(`jobs: cannot write the credentials store ${store()}: the file system is read-only (EROFS); nothing was stored\n`);
    expect(r.code).toBe(2);
  });

  it('logout on a full disk still removes the token: the last one with the file, another by a smaller store in place', async () => {
    fresh();
    await runJobs(['login', '--with-token'], { env, stdin: 'tok-default-1\n' });
    await runJobs(['--profile', 'ci', 'login', '--with-token'], { env, stdin: 'tok-ci-2\n' });
    disk.fill();
    const r = await runJobs(['--profile', 'ci', 'logout'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const left = readFileSync(store(), 'utf8');
    expect(left).not.toContain('tok-ci-2');
    expect(JSON.parse(left)).toEqual({ version: 1, profiles: { default: { token: 'tok-default-1' } } });
    expect((await runJobs(['logout'], { env })).code).toBe(0);
    expect(existsSync(store())).toBe(false);
    expect(leftovers(join(config, 'jobs'))).toEqual([]);
  });

  it('logout on a read-only disk says the token is still stored, exit 2', async () => {
    fresh();
    await runJobs(['login', '--with-token'], { env, stdin: 'tok-kept-4\n' });
    disk.readOnly();
    const r = await runJobs(['logout'], { env });
    expect(r.stderr).toBe(
      `jobs: cannot write the credentials store ${store()}: the file system is read-only (EROFS); the token is still stored there: delete the file, or its entry, by hand\n`,
    );
    expect(r.code).toBe(2);
  });
});

describe('config set', () => {
  it('on a full disk: the file and the cause, exit 2, the old file whole, no temp file', async () => {
    fresh();
    expect((await runJobs(['config', 'set', 'concurrency', '4'], { env })).code).toBe(0);
    const file = join(config, 'jobs', 'config.yaml');
    const before = readFileSync(file, 'utf8');
    disk.fill();
    const r = await runJobs(['config', 'set', 'timeout', '45s'], { env });
    expect(r.stderr).toContain(`jobs: cannot write ${file}: the disk is full (ENOSPC)\n`);
    expect(r.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(leftovers(join(config, 'jobs'))).toEqual([]);
  });
});

describe('config set and report --file on a read-only disk', () => {
  it('say so (EROFS), exit 2, the old files whole', async () => {
    fresh();
    expect((await runJobs(['config', 'set', 'concurrency', '4'], { env })).code).toBe(0);
    const file = join(config, 'jobs', 'config.yaml');
    const historyDir = tempDir('jobs-history-');
    new History(historyDir, 'sandbox').append([{ reference: 'R1', at: Date.now() - 60_000, views: 1, likes: 0, applications: 0, applications_unviewed: 0 }]);
    const page = join(config, 'report.html');
    writeFileSync(page, '<html>old</html>\n');
    disk.readOnly();
    const set = await runJobs(['config', 'set', 'timeout', '45s'], { env });
    expect(set.stderr).toContain(`jobs: cannot write ${file}: the file system is read-only (EROFS)\n`);
    expect(set.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('concurrency: 4\n');
    const report = await runJobs(['--sandbox', 'report', '--file', page, '--history-dir', historyDir], { env, cwd: config });
    expect(report.stderr).toContain('cannot write the report report.html: the file system is read-only (EROFS)');
    expect(report.code).toBe(2);
    expect(readFileSync(page, 'utf8')).toBe('<html>old</html>\n');
  });
});

describe('report --file', () => {
  it('on a full disk: the old page stays whole, exit 2, no temp file', async () => {
    fresh();
    const historyDir = tempDir('jobs-history-');
    new History(historyDir, 'sandbox').append([{ reference: 'R1', at: Date.now() - 60_000, views: 1, likes: 0, applications: 0, applications_unviewed: 0 }]);
    const page = join(config, 'report.html');
    writeFileSync(page, '<html>the good old report</html>\n');
    disk.fill();
    const r = await runJobs(['--sandbox', 'report', '--file', page, '--history-dir', historyDir], { env, cwd: config });
    expect(r.stderr).toContain(`cannot write the report report.html: the disk is full (ENOSPC); no report was written (an older one there is unchanged)`);
    expect(r.code).toBe(2);
    expect(readFileSync(page, 'utf8')).toBe('<html>the good old report</html>\n');
    expect(leftovers(config)).toEqual([]);
  });
});

describe('history', () => {
  it('a write cut short says how many snapshots were recorded, and leaves no half line', () => {
    fresh();
    const history = new History(config, 'sandbox');
    const snap = (reference: string, at: string) => ({ reference, at: Date.parse(at), views: 1, likes: 2, applications: 3, applications_unviewed: 0 });
    history.append([snap('FIRST', '2026-01-10T00:00:00Z')]);
    // Room for about a page more: January's 30 lines fit, February's 400 do not.
    disk.fill(4096);
    const january = Array.from({ length: 30 }, (_, i) => snap(`JAN-${i}`, '2026-01-20T00:00:00Z'));
    const february = Array.from({ length: 400 }, (_, i) => snap(`FEB-${String(i).padStart(40, '0')}`, '2026-02-20T00:00:00Z'));
    let error: unknown;
    try {
      history.append([...january, ...february]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HistoryWriteError);
    expect((error as HistoryWriteError).message).toBe(`cannot write the history ${join(history.folder, '2026-02.log')}: the disk is full (ENOSPC)`);
    expect((error as HistoryWriteError).recorded).toBe(30);
    // The months written are whole; the one cut short holds nothing.
    expect(history.read().map((s) => s.reference)).toEqual(['FIRST', ...january.map((s) => s.reference)]);
    const feb = join(history.folder, '2026-02.log');
    expect(existsSync(feb) ? readFileSync(feb, 'utf8') : '').toBe('');

    const warnings: string[] = [];
    history.append = () => {
      throw error;
    };
    statsView(history, [{ reference: 'FIRST', stats: { views: 2, likes: 2, applications: 3, applications_unviewed: 0 } } as never], {} as never, (w) =>
      warnings.push(w),
    );
    expect(warnings).toEqual([
      `cannot write the history ${feb}: the disk is full (ENOSPC): 30 of 430 snapshots recorded; free space or pass --history-dir <dir> or --no-record`,
    ]);
  });
});
