/**
 * The edges of the process, with the built binary against the sandbox on 127.0.0.1: SIGTERM and
 * SIGHUP mid-run, a reader that closes the pipe early, many requests at once. Whatever happens, what
 * the service accepted is recorded, no lock is left, and a rerun neither posts nor creates twice.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAdverts } from '../../bench/generate.mjs';
import { BIN, isolatedEnv, jobs, jobsDriven } from './helpers.js';
import { liveSandbox, type LiveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

const STACK_TRACE = /^\s+at .+\(.*:\d+:\d+\)$|node:internal|Error: write/m;

function folder(count: number): string {
  return generateAdverts(join(tempDir('jobs-edges-'), 'adverts'), count);
}

/** References recorded in a sync state, whatever the service key. */
function recorded(dir: string): string[] {
  const state = JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8')) as { services: Record<string, { adverts: Record<string, unknown> }> };
  return Object.values(state.services).flatMap((s) => Object.keys(s.adverts));
}

/** An events file of `count` likes, one per fresh application of a published advert. */
async function eventsFile(s: LiveSandbox, count: number): Promise<{ dir: string; ids: string[] }> {
  const dir = folder(1);
  expect((await jobs(['publish', '.'], { cwd: dir, env: s.env })).code).toBe(0);
  const reference = 'BENCH-000000'; // the one advert generateAdverts wrote
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await fetch(`${s.baseUrl}/_sandbox/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference }),
    });
    ids.push(((await r.json()) as { id: string }).id);
  }
  writeFileSync(join(dir, 'e.ndjson'), ids.map((id) => JSON.stringify({ application_id: id, kind: 'recruiter_like' })).join('\n'));
  return { dir, ids };
}

/** How many times each application received an event. */
function postsPerApplication(s: LiveSandbox): number[] {
  const counts = new Map<string, number>();
  for (const e of s.sandbox.state().events) counts.set(e.applicationId, (counts.get(e.applicationId) ?? 0) + 1);
  return [...counts.values()];
}

const lines = (text: string, mark: string) => text.split('\n').filter((l) => l.startsWith(mark)).length;

describe('SIGTERM and SIGHUP stop a run as Ctrl-C does', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('sync on %s: in-flight requests finish and are recorded, no lock, exit %i; a rerun creates nothing twice', async (signal, code) => {
    const s = await liveSandbox({ latencyMs: 40 });
    const dir = folder(60);
    let sent = false;
    const stopped = await jobsDriven(['sync', '.', '--concurrency', '4'], {
      cwd: dir,
      env: s.env,
      drive: (child, stdout) => {
        if (!sent && lines(stdout, '✔') >= 8) {
          sent = true;
          child.kill(signal);
        }
      },
    });
    expect(stopped.signal).toBeNull();
    expect(stopped.code).toBe(code);
    expect(stopped.stderr).toContain(`(${signal}); stopping`);
    expect(stopped.stderr).not.toMatch(STACK_TRACE);
    expect(existsSync(join(dir, '.jobs-state.lock'))).toBe(false);
    const created = s.count(/^POST \/jobs 201/);
    expect(created).toBeLessThan(60);
    // Every advert the service created is in the state, those in flight at the signal included.
    expect(recorded(dir)).toHaveLength(created);

    const rerun = await jobs(['sync', '.'], { cwd: dir, env: s.env, timeoutMs: 30_000 });
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain(`${60 - created} created, ${created} unchanged`);
    expect(s.count(/^POST \/jobs /)).toBe(60);
    expect(s.log.filter((l) => !/^POST \/jobs 201/.test(l) && !l.includes('/_sandbox/'))).toEqual([]);
    expect(recorded(dir)).toHaveLength(60);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('events on %s: posts in flight are journaled as accepted, not uncertain; no lock, exit %i; a rerun posts each once', async (signal, code) => {
    const s = await liveSandbox({ latencyMs: 40 });
    const { dir, ids } = await eventsFile(s, 40);
    let sent = false;
    const stopped = await jobsDriven(['events', 'e.ndjson', '--concurrency', '4'], {
      cwd: dir,
      env: s.env,
      drive: (child, stdout) => {
        if (!sent && lines(stdout, '✔') >= 6) {
          sent = true;
          child.kill(signal);
        }
      },
    });
    expect(stopped.signal).toBeNull();
    expect(stopped.code).toBe(code);
    expect(stopped.stderr).toContain('interrupted: rerun the same command to post the rest');
    expect(existsSync(join(dir, 'e.ndjson.journal.lock'))).toBe(false);
    const journal = readFileSync(join(dir, 'e.ndjson.journal'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { application_id: string; status: string });
    const posted = s.sandbox.state().events.length;
    expect(posted).toBeLessThan(40);
    expect(journal.filter((l) => l.status === 'accepted')).toHaveLength(posted);
    // Each post that began (`sending`) was answered and journaled; events journaled ahead and never
    // posted (`planned`) say `failed` (not sent): none is left uncertain.
    const failed = journal.filter((l) => l.status === 'failed').length;
    expect(journal.filter((l) => l.status === 'sending')).toHaveLength(posted);
    expect(journal.filter((l) => l.status === 'planned')).toHaveLength(failed);
    expect(journal.filter((l) => !['accepted', 'sending', 'planned', 'failed'].includes(l.status))).toEqual([]);

    const rerun = await jobs(['events', 'e.ndjson'], { cwd: dir, env: s.env, timeoutMs: 30_000 });
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).not.toContain('held');
    expect(postsPerApplication(s)).toEqual(ids.map(() => 1));
  });
});

describe('a reader that closes the pipe early', () => {
  // --verbose writes to stderr all through the run (the HTTP trace).
  it.each([
    ['stdout', []],
    ['stderr', ['--verbose']],
  ] as const)('sync with %s closed after its first output: no stack trace, the run finishes and is recorded', async (stream, flags) => {
    const s = await liveSandbox({ latencyMs: 20 });
    const dir = folder(40);
    const run = await jobsDriven([...flags, 'sync', '.'], {
      cwd: dir,
      env: s.env,
      drive: (child, stdout, stderr) => {
        if ((stream === 'stdout' ? stdout : stderr) !== '') child[stream].destroy();
      },
    });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    expect(existsSync(join(dir, '.jobs-state.lock'))).toBe(false);
    expect(s.count(/^POST \/jobs 201/)).toBe(40);
    expect(recorded(dir)).toHaveLength(40);

    const requests = s.log.length;
    const rerun = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain('in sync: 40 unchanged');
    expect(s.log).toHaveLength(requests);
  });

  it('events with stdout closed after the first line: every post journaled, a rerun posts nothing', async () => {
    const s = await liveSandbox({ latencyMs: 20 });
    const { dir, ids } = await eventsFile(s, 20);
    const run = await jobsDriven(['events', 'e.ndjson', '--concurrency', '2'], {
      cwd: dir,
      env: s.env,
      drive: (child, stdout) => stdout !== '' && child.stdout.destroy(),
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    expect(run.stderr).toContain('20 posted');
    expect(existsSync(join(dir, 'e.ndjson.journal.lock'))).toBe(false);
    const journal = readFileSync(join(dir, 'e.ndjson.journal'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(journal.filter((l) => l.status === 'accepted')).toHaveLength(20);

    const rerun = await jobs(['events', 'e.ndjson'], { cwd: dir, env: s.env });
    expect(rerun.code).toBe(0);
    expect(postsPerApplication(s)).toEqual(ids.map(() => 1));
  });
});

describe('a full disk under stdout', () => {
  // /dev/full fails every write with ENOSPC, as `jobs schema > out.json` on a full disk would.
  it.each([['schema'], ['--help']])('jobs %s > /dev/full warns, under the name it was invoked by, that the output is lost', (command) => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, command], {
        stdio: ['ignore', full, 'pipe'],
        env: isolatedEnv({ JOBS_CLI_NAME: 'myjobs' }),
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(r.stderr).toBe('myjobs: warning: cannot write to stdout (ENOSPC); the run goes on, its output there is lost\n');
      expect(r.status).toBe(0);
    } finally {
      closeSync(full);
    }
  });
});

describe('many requests at once', () => {
  it('sync --concurrency 32 prints no MaxListenersExceededWarning', async () => {
    const s = await liveSandbox({ latencyMs: 50 });
    const dir = folder(48);
    const r = await jobs(['sync', '.', '--concurrency', '32'], { cwd: dir, env: s.env });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Warning');
    expect(r.stderr).toContain('48 created');
  });
});
