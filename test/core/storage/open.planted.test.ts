/**
 * Nothing is written through a link, FIFO or device planted where the tool writes a file of its
 * own (a pull request can commit them into an adverts folder that CI syncs): each is refused with
 * a message naming the file, and what a link points at is left as it was.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalWriter, readJournal } from '../../../src/core/events/journal.js';
import { History, HistoryWriteError } from '../../../src/core/history/store.js';
import { DataFile } from '../../../src/core/sandbox/data-file.js';
import { SandboxStore } from '../../../src/core/sandbox/store.js';
import { acquireLock } from '../../../src/core/storage/lock.js';
import { AppendLog } from '../../../src/core/storage/append-log.js';
import { replaceFile } from '../../../src/core/storage/replace.js';
import { runJobs } from '../../commands/harness.js';
import { tempDir } from '../../support/temp-dirs.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const d = tempDir('jobs-planted-');
  dirs.push(d);
  return d;
}
/** A file someone wants overwritten (think ~/.bashrc), and a link to it at `at`. */
function plantLink(at: string): string {
  const victim = join(folder(), 'victim');
  writeFileSync(victim, 'precious\n');
  symlinkSync(victim, at);
  return victim;
}
function mkfifo(path: string): void {
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
}

describe('links planted where the tool writes', () => {
  it('the lock: temp files under the names an older jobs used are never written through', () => {
    const dir = folder();
    const state = join(dir, '.jobs-state');
    const victim = plantLink(`${state}.lock.${process.pid}.tmp`);
    const lock = acquireLock(state, { notice: () => undefined });
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(JSON.parse(readFileSync(`${state}.lock`, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(readdirSync(dir)).toEqual([`.jobs-state.lock.${process.pid}.tmp`]);
  });

  it('the lock itself: a link in its place is refused by name, not replaced or followed', () => {
    const dir = folder();
    const state = join(dir, '.jobs-state');
    const victim = plantLink(`${state}.lock`);
    expect(() => acquireLock(state, { notice: () => undefined })).toThrow(
      `cannot create the lock ${state}.lock: it is a symbolic link; jobs does not write through it; nothing was sent`,
    );
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(`${state}.lock`).isSymbolicLink()).toBe(true);
  });

  it('a history month file linked elsewhere: refused, named, nothing recorded through it', () => {
    const history = new History(folder(), 'https://jobs.example.com');
    mkdirSync(history.folder, { recursive: true });
    const victim = plantLink(join(history.folder, '2026-03.log'));
    let error: unknown;
    try {
      history.append([{ reference: 'R1', at: Date.parse('2026-03-02T00:00:00Z'), views: 1, likes: 0, applications: 0, applications_unviewed: 0 }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HistoryWriteError);
    expect((error as Error).message).toBe(
      `cannot write the history ${join(history.folder, '2026-03.log')}: it is a symbolic link; jobs does not write through it`,
    );
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('the events journal linked elsewhere: refused before anything is sent', () => {
    const dir = folder();
    const path = join(dir, 'e.ndjson.journal');
    const victim = plantLink(path);
    writeFileSync(victim, '');
    expect(() => JournalWriter.open(path, 'e.ndjson.journal', readJournal(path, 'e.ndjson.journal'))).toThrow(
      'cannot write the journal e.ndjson.journal (it is a symbolic link; jobs does not write through it); nothing was sent',
    );
    expect(readFileSync(victim, 'utf8')).toBe('');
  });

  it("the sandbox's journal linked elsewhere: the change is refused, the target untouched", () => {
    const dir = folder();
    const file = join(dir, 'state.json');
    const victim = plantLink(`${file}.journal`);
    const data = new DataFile(file);
    // The link reads as a journal of nothing that extends no snapshot: the append is where it counts.
    const store = SandboxStore.from({ version: 1, nextSerial: 1, adverts: [], events: [] });
    expect(() => data.append(store, [{ event: { id: 1 } } as never])).toThrow(`${file}.journal is a symbolic link`);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('credentials, a config file and a report page linked elsewhere: each refused by name, exit 2, the link left as it is', async () => {
    const config = folder();
    mkdirSync(join(config, 'jobs'));
    const env = { XDG_CONFIG_HOME: config };
    const store = join(config, 'jobs', 'credentials.json');
    const v1 = plantLink(store);
    // A store it can read (anything else is refused as damaged before a write is tried).
    writeFileSync(v1, '{"version": 1, "profiles": {}}\n');
    const login = await runJobs(['login', '--with-token'], { env, stdin: 'tok-planted-1\n' });
    expect(login.stderr).toBe(`jobs: cannot write the credentials store ${store}: it is a symbolic link; jobs does not write through it; nothing was stored\n`);
    expect(login.code).toBe(2);
    expect(readFileSync(v1, 'utf8')).toBe('{"version": 1, "profiles": {}}\n');
    expect(lstatSync(store).isSymbolicLink()).toBe(true);

    const file = join(config, 'jobs', 'config.yaml');
    const v2 = plantLink(file);
    writeFileSync(v2, 'concurrency: 2\n');
    const set = await runJobs(['config', 'set', 'concurrency', '8'], { env });
    expect(set.stderr).toContain(`jobs: cannot write ${file}: it is a symbolic link; jobs does not write through it\n`);
    expect(set.code).toBe(2);
    expect(readFileSync(v2, 'utf8')).toBe('concurrency: 2\n');

    const historyDir = folder();
    new History(historyDir, 'sandbox').append([{ reference: 'R1', at: Date.now() - 60_000, views: 1, likes: 0, applications: 0, applications_unviewed: 0 }]);
    const page = join(config, 'report.html');
    const v3 = plantLink(page);
    const report = await runJobs(['--sandbox', 'report', '--file', page, '--history-dir', historyDir], { env, cwd: config });
    expect(report.stderr).toContain('cannot write the report report.html: it is a symbolic link; jobs does not write through it');
    expect(report.code).toBe(2);
    expect(readFileSync(v3, 'utf8')).toBe('precious\n');
  });

  it('a .jobs folder planted as a link: the default report and the resolved schema refuse it, and write nothing where it points', async () => {
    const project = folder();
    const elsewhere = folder();
    writeFileSync(join(elsewhere, 'report.html'), 'precious\n');
    symlinkSync(elsewhere, join(project, '.jobs'));
    const historyDir = folder();
    new History(historyDir, 'sandbox').append([{ reference: 'R1', at: Date.now() - 60_000, views: 1, likes: 0, applications: 0, applications_unviewed: 0 }]);
    const env = { XDG_CONFIG_HOME: folder(), XDG_STATE_HOME: folder() };
    const report = await runJobs(['--sandbox', 'report', '--history-dir', historyDir], { env, cwd: project });
    expect(report.stderr).toBe(
      'jobs: cannot write the folder of the report .jobs: it is a symbolic link; jobs does not write through it; no report was written\n',
    );
    expect(report.code).toBe(2);
    writeFileSync(join(project, '.jobsrc.yaml'), 'concurrency: 2\n');
    const schema = await runJobs(['schema', 'create', '--resolved', '--write'], { env, cwd: project });
    expect(schema.stderr).toContain('.jobs is a symbolic link');
    expect(schema.code).toBe(2);
    expect(readdirSync(elsewhere)).toEqual(['report.html']);
    expect(readFileSync(join(elsewhere, 'report.html'), 'utf8')).toBe('precious\n');
  });

  it("the resolved schema's .jobs folder ignores itself in git, as the report's does", async () => {
    const project = folder();
    writeFileSync(join(project, '.jobsrc.yaml'), 'concurrency: 2\n');
    const env = { XDG_CONFIG_HOME: folder(), XDG_STATE_HOME: folder() };
    const schema = await runJobs(['schema', 'create', '--resolved', '--write'], { env, cwd: project });
    expect(schema.code, schema.stderr).toBe(0);
    expect(readFileSync(join(project, '.jobs', '.gitignore'), 'utf8')).toContain('*\n');
  });
});

describe('FIFOs and folders planted where the tool writes', () => {
  it('a FIFO as a history month file is refused at once (it would hang the append)', () => {
    const history = new History(folder(), 'sandbox');
    mkdirSync(history.folder, { recursive: true });
    mkfifo(join(history.folder, '2026-04.log'));
    const t = performance.now();
    expect(() =>
      history.append([{ reference: 'R1', at: Date.parse('2026-04-02T00:00:00Z'), views: 1, likes: 0, applications: 0, applications_unviewed: 0 }]),
    ).toThrow(`cannot write the history ${join(history.folder, '2026-04.log')}: it is a FIFO (named pipe); jobs does not write through it`);
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it('the append log and the atomic replace refuse a FIFO with a reader, and a folder, by name', () => {
    const dir = folder();
    const fifo = join(dir, 'log');
    mkfifo(fifo);
    // A reader on the other end: an open for writing would succeed, and is refused after it.
    const reader = spawnSync('sh', ['-c', `exec 3<>${fifo}; true`]);
    expect(reader.status).toBe(0);
    expect(() => AppendLog.open(fifo)).toThrow(`${fifo} is a FIFO (named pipe)`);
    mkdirSync(join(dir, 'page.html'));
    expect(() => replaceFile(join(dir, 'page.html'), 'x', { durable: false })).toThrow(`${join(dir, 'page.html')} is a folder`);
    expect(readdirSync(dir).sort()).toEqual(['log', 'page.html']);
    expect(existsSync(join(dir, 'page.html'))).toBe(true);
  });
});
