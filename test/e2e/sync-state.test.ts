/**
 * The sync state and the events journal at their edges, with the built binary against a sandbox on
 * 127.0.0.1: one service under many spellings of its URL, user-chosen references that are also
 * names of object properties, state files that are not what they should be, a state file inside the
 * synced folder, a log that cannot be written, and a lock left empty by a crash.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

function spawnSyncChecked(command: string, args: string[]): void {
  const r = spawnSync(command, args);
  if (r.status !== 0) throw new Error(`${command} failed`);
}

function copyExamples(): string {
  const dir = tempDir('jobs-state-');
  cpSync(join(ROOT, 'examples/adverts'), dir, { recursive: true });
  return dir;
}

type StoredRecord = { file: string; document: number; hash: string; fields: string; published_at: string };
const readState = (path: string) =>
  JSON.parse(readFileSync(path, 'utf8')) as { version: number; services: Record<string, { fields: string[]; adverts: Record<string, StoredRecord> }> };

/** A service's records as version 1 (an earlier release) wrote them: a field hash per name. */
const version1Records = (service: { fields: string[]; adverts: Record<string, StoredRecord> }) =>
  Object.fromEntries(
    Object.entries(service.adverts).map(([reference, r]) => [
      reference,
      { ...r, fields: Object.fromEntries(r.fields.split(' ').flatMap((hash, i) => (hash === '-' ? [] : [[service.fields[i], hash]]))) },
    ]),
  );

/** The same service, spelt as users and scripts spell it. */
const spellings = (baseUrl: string) => {
  const port = new URL(baseUrl).port;
  return [`HTTP://127.0.0.1:${port}`, `http://127.0.0.1:${port}/./`, `http://127.0.0.1:${port}/`, `http://127.0.0.1:${port}/a/../`];
};

const advert = (reference: string) =>
  `reference: "${reference}"\ntitle: T\norganization_name: O\ncompany_description: C\njob_description: J\ncontract_id: 1\nsalary_id: 1\nsalary_text: S\nindustry_id: 1\ndepartment_id: 1\nseniority: 0\neducation: 0\nlocation:\n  country: FR\n  city: Lyon\nrecruiter:\n  email: r@example.com\n`;

/**
 * Runs the built binary with files limited to `bytes` (RLIMIT_FSIZE, as `ulimit -f` sets it): a
 * write past the limit fails with EFBIG after a short write, as on a full disk. Node ignores the
 * SIGXFSZ that comes with it. A POSIX sh counts `ulimit -f` in 512-byte blocks.
 */
function jobsWithFileLimit(
  bytes: number,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('/bin/sh', ['-c', `ulimit -f ${bytes / 512} && exec "$0" "$@"`, process.execPath, BIN, ...args], {
      cwd: options.cwd,
      env: options.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`jobs ${args.join(' ')} did not finish in time\n${stderr}`));
    }, 15_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** Files in a folder that a run should not leave behind. */
const leftovers = (dir: string) => readdirSync(dir).filter((name) => /\.(tmp|lock|log)$/.test(name));

describe('one service, many spellings of its URL', () => {
  it('a sync under another spelling finds the state: nothing adopted, no request', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    const before = s.log.length;
    for (const url of spellings(s.baseUrl)) {
      const r = await jobs(['sync', '.', '--detailed-exitcode', '--dry-run'], { cwd: dir, env: { ...s.env, JOBS_BASE_URL: url } });
      expect(r.code, url).toBe(0);
      const run = await jobs(['sync', '.'], { cwd: dir, env: { ...s.env, JOBS_BASE_URL: url } });
      expect(run.stderr, url).toContain('✔ in sync: 3 unchanged');
    }
    expect(s.log.length).toBe(before);
    expect(Object.keys(readState(join(dir, '.jobs-state')).services)).toEqual([s.baseUrl]);
  });

  it('reads a state written under old, un-normalised keys without losing a record, and prunes each advert once', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    // What earlier versions wrote when the URL was spelt differently on different runs.
    const path = join(dir, '.jobs-state');
    const state = readState(path);
    const { 'ACME-0042': a, ...others } = version1Records(state.services[s.baseUrl]!);
    const upper = s.baseUrl.replace('http://', 'HTTP://');
    writeFileSync(
      path,
      JSON.stringify({ version: 1, services: { [`${upper}/.`]: { adverts: { 'ACME-0042': a } }, [s.baseUrl]: { adverts: others } } }, null, 2),
    );
    const before = s.log.length;
    const r = await jobs(['sync', '.'], { cwd: dir, env: { ...s.env, JOBS_BASE_URL: `${s.baseUrl}/` } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('✔ in sync: 3 unchanged');
    expect(s.log.length).toBe(before);

    rmSync(join(dir, 'support-specialists.yaml'));
    rmSync(join(dir, 'backend-engineer.yaml'));
    writeFileSync(join(dir, 'other.yaml'), advert('OTHER-1'));
    const pruned = await jobs(['sync', '.', '--prune', '--yes'], { cwd: dir, env: { ...s.env, JOBS_BASE_URL: upper } });
    expect(pruned.code).toBe(0);
    expect(
      s.log
        .slice(before)
        .filter((l) => l.startsWith('DELETE'))
        .sort(),
    ).toEqual(['DELETE /jobs/ACME-0042 200', 'DELETE /jobs/ACME-0043 200', 'DELETE /jobs/ACME-0044 200'].map((l) => expect.stringContaining(l)));
    const after = readState(path);
    expect(Object.keys(after.services)).toEqual([s.baseUrl]);
    expect(Object.keys(after.services[s.baseUrl]!.adverts)).toEqual(['OTHER-1']);
  });

  it('an events journal written under one spelling is honoured under another: nothing posted again', async () => {
    const s = await liveSandbox();
    expect((await jobs(['publish', '-'], { env: s.env, input: advert('EV-1') })).code).toBe(0);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${s.baseUrl}/_sandbox/applications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"reference":"EV-1"}',
      });
      ids.push(((await r.json()) as { id: string }).id);
    }
    const dir = tempDir('jobs-events-url-');
    writeFileSync(join(dir, 'e.csv'), `application_id,kind\n${ids[0]},recruiter_like\n${ids[1]},recruiter_view\n`);
    expect((await jobs(['events', 'e.csv'], { cwd: dir, env: s.env })).code).toBe(0);
    expect(s.sandbox.state().events).toHaveLength(2);
    const before = s.log.length;
    for (const url of spellings(s.baseUrl)) {
      const r = await jobs(['events', 'e.csv'], { cwd: dir, env: { ...s.env, JOBS_BASE_URL: url } });
      expect(r.code, url).toBe(0);
      expect(r.stdout, url).not.toContain('posted');
    }
    expect(s.log.length).toBe(before);
    expect(s.sandbox.state().events).toHaveLength(2);
  });
});

describe('references that are also property names', () => {
  it('__proto__ and constructor are recorded like any other: the next plan is empty, and they can be pruned', async () => {
    const s = await liveSandbox();
    const dir = tempDir('jobs-proto-');
    writeFileSync(join(dir, 'proto.yaml'), advert('__proto__'));
    writeFileSync(join(dir, 'ctor.yaml'), advert('constructor'));
    writeFileSync(join(dir, 'own.yaml'), advert('hasOwnProperty'));
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    expect(Object.keys(readState(join(dir, '.jobs-state')).services[s.baseUrl]!.adverts).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    const plan = await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env });
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain('3 unchanged');
    const before = s.log.length;
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).stderr).toContain('✔ in sync: 3 unchanged');
    expect(s.log.length).toBe(before);

    rmSync(join(dir, 'proto.yaml'));
    rmSync(join(dir, 'ctor.yaml'));
    const pruned = await jobs(['sync', '.', '--prune', '--yes'], { cwd: dir, env: s.env });
    expect(pruned.code).toBe(0);
    expect(
      s.log
        .slice(before)
        .filter((l) => l.startsWith('DELETE'))
        .sort(),
    ).toEqual([expect.stringMatching(/^DELETE \/jobs\/__proto__ 200/), expect.stringMatching(/^DELETE \/jobs\/constructor 200/)]);
    expect(Object.keys(readState(join(dir, '.jobs-state')).services[s.baseUrl]!.adverts)).toEqual(['hasOwnProperty']);
  });
});

describe('a state written by the previous release (version 1)', () => {
  /** test/fixtures/sync-state-v1.json: what the release before version 2 wrote after syncing examples/adverts. */
  const writeVersion1 = (path: string, baseUrl: string) =>
    writeFileSync(path, readFileSync(join(ROOT, 'test/fixtures/sync-state-v1.json'), 'utf8').replace('SERVICE_URL', baseUrl));

  it('is read as it is: nothing is sent and the file is left untouched; the next change writes version 2', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    const path = join(dir, '.jobs-state');
    writeVersion1(path, s.baseUrl);
    const bytes = readFileSync(path, 'utf8');
    const { mtimeMs, ino } = statSync(path);
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.stderr).toContain('✔ in sync: 3 unchanged');
    expect(r.code).toBe(0);
    expect(s.log).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe(bytes);
    expect(statSync(path)).toMatchObject({ mtimeMs, ino });

    writeFileSync(join(dir, 'backend-engineer.yaml'), readFileSync(join(dir, 'backend-engineer.yaml'), 'utf8').replace('seniority: 3', 'seniority: 4'));
    const plan = await jobs(['sync', '.', '--dry-run'], { cwd: dir, env: s.env });
    expect(plan.stdout).toBe('~ ACME-0042  backend-engineer.yaml  (seniority)\n');
    const sent = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    // The sandbox is new: the advert is published again.
    expect(sent.stderr).toContain('✔ in sync: 1 recreated, 2 unchanged');
    expect(s.log.map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual(['PUT /jobs/ACME-0042 404', 'POST /jobs 201']);
    const upgraded = readState(path);
    expect(upgraded.version).toBe(2);
    expect(Object.keys(upgraded.services[s.baseUrl]!.adverts)).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
    expect((await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env })).code).toBe(0);
  });
});

describe('a state file that is not a sync state', () => {
  const cases: [string, unknown, RegExp][] = [
    [
      'adverts as a list',
      (url: string) => ({ version: 1, services: { [url]: { adverts: [{ file: 'a.yaml', document: 0, hash: 'x', fields: {}, published_at: 'now' }] } } }),
      /services\["http:\/\/127\.0\.0\.1:\d+"\]\.adverts: expected an object keyed by reference, not a list/,
    ],
    ['no version', (url: string) => ({ services: { [url]: { adverts: {} } } }), /version: missing/],
    ['an unknown version', () => ({ version: 0, services: {} }), /version: 0 is not a sync state version jobs knows \(1, 2\)/],
    ['a version as text', () => ({ version: '1', services: {} }), /version: expected a number, not a string/],
    ['services as a list', () => ({ version: 1, services: [] }), /services: expected an object keyed by service URL, not a list/],
    [
      'a record of the wrong type',
      (url: string) => ({
        version: 1,
        services: { [url]: { adverts: { 'ACME-0042': { file: 'a.yaml', document: 0, hash: 7, fields: {}, published_at: 'now' } } } },
      }),
      /services\["http:\/\/127\.0\.0\.1:\d+"\]\.adverts\["ACME-0042"\]\.hash: expected a string, not a number/,
    ],
  ];
  for (const [name, content, message] of cases) {
    it(`is refused when loaded (${name}): the file and what is wrong are named, exit 2, nothing sent`, async () => {
      const s = await liveSandbox();
      const dir = copyExamples();
      rmSync(join(dir, 'support-specialists.yaml'));
      const path = join(dir, '.jobs-state');
      writeFileSync(path, JSON.stringify((content as (url: string) => unknown)(s.baseUrl)));
      const r = await jobs(['sync', '.', '--prune'], { cwd: dir, env: s.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${path}: not a valid sync state:`);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(s.log).toEqual([]);
      expect(leftovers(dir)).toEqual([]);
    });
  }
});

describe('writing the state', () => {
  it('a sync with nothing to do leaves the state file untouched and nothing beside it', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    const path = join(dir, '.jobs-state');
    const bytes = readFileSync(path, 'utf8');
    const { mtimeMs, ino } = statSync(path);
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.stderr).toContain('✔ in sync: 3 unchanged');
    expect(readFileSync(path, 'utf8')).toBe(bytes);
    expect(statSync(path)).toMatchObject({ mtimeMs, ino });
    expect(leftovers(dir)).toEqual([]);
  });

  for (const name of ['state.json', 'state.yaml']) {
    it(`--state ${name} inside the synced folder is not read as an advert`, async () => {
      const s = await liveSandbox();
      const cwd = tempDir('jobs-state-parent-');
      cpSync(join(ROOT, 'examples/adverts'), join(cwd, 'adverts'), { recursive: true });
      const first = await jobs(['sync', 'adverts', '--state', `adverts/${name}`], { cwd, env: s.env });
      expect(first.code).toBe(0);
      expect(existsSync(join(cwd, 'adverts', name))).toBe(true);
      const again = await jobs(['sync', 'adverts', '--state', `adverts/${name}`, '--dry-run', '--detailed-exitcode'], { cwd, env: s.env });
      expect(again.stderr).toContain('3 unchanged');
      expect(again.code).toBe(0);
      // Other commands are not told it is a state: to them it is a file in the folder.
      expect((await jobs(['validate', 'adverts'], { cwd, env: s.env })).code).toBe(3);
    });
  }

  it('a state inside the folder that is a link to a file reached again through a linked folder is not read as an advert', async () => {
    const s = await liveSandbox();
    const cwd = tempDir('jobs-state-link-');
    cpSync(join(ROOT, 'examples/adverts'), join(cwd, 'adverts'), { recursive: true });
    mkdirSync(join(cwd, 'store'));
    symlinkSync('../store/s.yaml', join(cwd, 'adverts', 'state.yaml'));
    symlinkSync('../store', join(cwd, 'adverts', 'lnk'));
    const first = await jobs(['sync', 'adverts', '--state', 'adverts/state.yaml'], { cwd, env: s.env });
    expect(first.code, first.stderr).toBe(0);
    const again = await jobs(['sync', 'adverts', '--state', 'adverts/state.yaml', '--dry-run', '--detailed-exitcode'], { cwd, env: s.env });
    expect(again.stderr).toContain('3 unchanged');
    expect(again.code, again.stderr).toBe(0);
  });

  it('a FIFO named as the state inside the folder is refused as the state (exit 2), before the folder is read', async () => {
    const s = await liveSandbox();
    const cwd = tempDir('jobs-state-fifo-');
    cpSync(join(ROOT, 'examples/adverts'), join(cwd, 'adverts'), { recursive: true });
    spawnSyncChecked('mkfifo', [join(cwd, 'adverts', 'fifo-state.yaml')]);
    const r = await jobs(['sync', 'adverts', '--state', 'adverts/fifo-state.yaml'], { cwd, env: s.env, timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('jobs-cli: cannot read the sync state adverts/fifo-state.yaml: it is a FIFO (named pipe), not a regular file\n');
    expect(s.log).toEqual([]);
  });

  it('refuses to start when the log beside the state is a planted link: exit 2, nothing sent, the target untouched', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    // A pull request can commit `.jobs-state.log -> ~/.bashrc`: the log must not be appended through it.
    const victim = join(tempDir('jobs-victim-'), '.bashrc');
    writeFileSync(victim, 'echo hello\n');
    symlinkSync(victim, join(dir, '.jobs-state.log'));
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `cannot write the sync log ${join(dir, '.jobs-state.log')} (it is a symbolic link; jobs does not write through it); nothing was sent`,
    );
    expect(readFileSync(victim, 'utf8')).toBe('echo hello\n');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(s.log).toEqual([]);
    expect(existsSync(join(dir, '.jobs-state.lock'))).toBe(false);
  });

  it('a log that stops growing: the run stops, what was sent is in the state, nothing left behind; a rerun sends nothing twice', async () => {
    const s = await liveSandbox();
    const dir = tempDir('jobs-full-');
    writeFileSync(join(dir, 'a.yaml'), advert('A-1'));
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    // A log left by runs killed before folding it in (each republished A-1), as long as a file may
    // grow: B-2's line does not fit.
    const path = join(dir, '.jobs-state');
    const record = version1Records(readState(path).services[s.baseUrl]!)['A-1'];
    const line = `${JSON.stringify({ op: 'put', service: s.baseUrl, reference: 'A-1', record })}\n`;
    writeFileSync(`${path}.log`, line.repeat(Math.floor(4096 / line.length)));
    writeFileSync(join(dir, 'b.yaml'), advert('B-2'));
    writeFileSync(join(dir, 'c.yaml'), advert('C-3'));
    const r = await jobsWithFileLimit(4096, ['sync', '.', '--concurrency', '1'], { cwd: dir, env: s.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `cannot write the sync log ${path}.log (the file is larger than this process may write: EFBIG); the run was stopped: everything this run did is recorded in the state ${path}`,
    );
    expect(r.stderr).toContain('✖ sync incomplete: 1 created, 1 unchanged, 1 not started');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(s.count(/^POST \/jobs 201/)).toBe(2);
    expect(Object.keys(readState(path).services[s.baseUrl]!.adverts)).toEqual(['A-1', 'B-2']);
    expect(leftovers(dir)).toEqual([]);
    const rerun = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(rerun.stderr).toContain('1 created, 2 unchanged');
    expect(s.count(/^POST \/jobs 201/)).toBe(3);
    expect(s.count(/^POST \/jobs 422/)).toBe(0);
  });

  it('a state that cannot be written: the log keeps what was done, no temp file is left, and the next run folds it in', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    const path = join(dir, '.jobs-state');
    const before = readFileSync(path, 'utf8');
    writeFileSync(join(dir, 'backend-engineer.yaml'), readFileSync(join(dir, 'backend-engineer.yaml'), 'utf8').replace('seniority: 3', 'seniority: 4'));
    // The state (three records) is larger than a file may grow; the log (one line) is not.
    const r = await jobsWithFileLimit(1024, ['sync', '.'], { cwd: dir, env: s.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `cannot write the sync state ${path} (the file is larger than this process may write: EFBIG); what this run did is kept in the log ${path}.log, which the next run folds in`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(s.count(/^PUT \/jobs\/ACME-0042 200/)).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(leftovers(dir)).toEqual(['.jobs-state.log']);
    const rerun = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(rerun.stderr).toContain('✔ in sync: 3 unchanged');
    expect(s.count(/^PUT /)).toBe(1);
    expect(leftovers(dir)).toEqual([]);
    expect((await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env })).code).toBe(0);
  });

  it('neither log nor state can be written (disk full): says what is not recorded; a rerun adopts it, nothing is created twice', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    // The last advert sent lives deep in the folder: its record, which names its file, is long.
    const deep = join('z'.repeat(200), 'z'.repeat(200), 'z'.repeat(200));
    mkdirSync(join(dir, deep), { recursive: true });
    writeFileSync(join(dir, deep, 'zz.yaml'), advert('ZZ-1'));
    // Three log lines fit; the fourth is cut short, and the state (four records) does not fit at all.
    const r = await jobsWithFileLimit(2048, ['sync', '.', '--concurrency', '1'], { cwd: dir, env: s.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `cannot record this run: neither the sync log ${join(dir, '.jobs-state.log')} (the file is larger than this process may write: EFBIG) nor the state ${join(dir, '.jobs-state')} (the file is larger than this process may write: EFBIG) can be written`,
    );
    expect(r.stderr).toContain(`created ZZ-1 (${join(deep, 'zz.yaml')}) is not recorded`);
    expect(r.stderr).toContain(': 4 created, 0 unchanged');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(s.count(/^POST \/jobs 201/)).toBe(4);
    expect(existsSync(join(dir, '.jobs-state'))).toBe(false);
    expect(leftovers(dir)).toEqual(['.jobs-state.log']);
    const rerun = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain('1 adopted, 3 unchanged');
    expect(s.count(/^POST \/jobs 201/)).toBe(4);
    expect(s.sandbox.state().adverts).toHaveLength(4);
    expect(Object.keys(readState(join(dir, '.jobs-state')).services[s.baseUrl]!.adverts).sort()).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044', 'ZZ-1']);
    expect(leftovers(dir)).toEqual([]);
  });
});

describe('locks', () => {
  it('an empty sync lock (a crash between creating and writing it) is taken over', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    writeFileSync(join(dir, '.jobs-state.lock'), '');
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('removing a lock that names no process');
    expect(existsSync(join(dir, '.jobs-state.lock'))).toBe(false);
  });

  it('events --unlock removes a lock held in the name of a running process', async () => {
    const s = await liveSandbox();
    const dir = tempDir('jobs-events-lock-');
    writeFileSync(join(dir, 'e.ndjson'), '{"application_id":"nope","kind":"recruiter_view"}\n');
    writeFileSync(join(dir, 'e.ndjson.journal.lock'), JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), started_at: 'now' }));
    const locked = await jobs(['events', 'e.ndjson'], { cwd: dir, env: s.env });
    expect(locked.code).toBe(2);
    expect(locked.stderr).toContain('run again with --unlock');
    expect(s.log).toEqual([]);
    const r = await jobs(['events', 'e.ndjson', '--unlock'], { cwd: dir, env: s.env });
    expect(r.stderr).toContain('removing the lock (--unlock)');
    expect(r.code).toBe(5);
    expect(s.count(/^POST \/job_applications\/nope\/events 404/)).toBe(1);
    expect(lstatSync(join(dir, 'e.ndjson.journal')).isFile()).toBe(true);
    expect(existsSync(join(dir, 'e.ndjson.journal.lock'))).toBe(false);
  });
});
