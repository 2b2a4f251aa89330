// Benchmark of `jobs events <file>`: N events posted against bench/server.mjs, against a plain
// fetch loop posting the same events at the same concurrency to the same server (no validation,
// no journal), as a ratio of medians, with the peak memory of each.
// Usage: node bench/events.mjs [--scale]   (default 20,000 events; --scale: 100,000 and 1,000,000)
// Called by bench/run.mjs as `events`. Loopback only; every loop is bounded.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { compare, report, timeOnce } from './lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, 'bench/.work');
const bin = join(root, 'bin/jobs.js');
const node = process.execPath;
const CONCURRENCY = 8;
const TARGET = 1.3;

/** An NDJSON file of n events (deterministic): a view, like or reject of n distinct applications, some with data. */
async function eventsFile(n) {
  const path = join(work, `events-${n}.ndjson`);
  if (existsSync(path)) return path;
  const kinds = ['recruiter_view', 'recruiter_like', 'recruiter_reject'];
  const out = createWriteStream(`${path}.tmp`);
  for (let i = 0; i < n; i++) {
    const event = { application_id: `app-${String(i).padStart(7, '0')}`, kind: kinds[i % 3], ...(i % 3 === 2 ? { data: { reason: 'position filled', step: i % 5 } } : {}) };
    if (!out.write(`${JSON.stringify(event)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  spawnSync('mv', [`${path}.tmp`, path]);
  return path;
}

/** The baseline: read the file, post each line's event with fetch, CONCURRENCY at a time, no journal. */
const FETCH_LOOP = `
import { readFileSync } from 'node:fs';
const [file, base, concurrency] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split('\\n').filter(Boolean);
let next = 0;
const headers = { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer bench-token' };
async function lane() {
  while (next < lines.length) {
    const { application_id, kind, data } = JSON.parse(lines[next++]);
    const body = JSON.stringify(data === undefined ? { kind } : { kind, data });
    const res = await fetch(base + '/job_applications/' + encodeURIComponent(application_id) + '/events', { method: 'POST', headers, body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error('status ' + res.status);
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, lane));
`;

function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [join(root, 'bench/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8').once('data', (port) => {
      const url = `http://127.0.0.1:${port.trim()}`;
      resolve({ url, count: async () => (await fetch(`${url}/_count`)).json(), stop: () => child.kill('SIGTERM') });
    });
    child.once('error', reject);
  });
}

/** Peak resident memory of a command, in MiB (GNU time), and its exit status. */
function peakMiB(cmd, args, options) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { ...options, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 30 * 60_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const kb = Number(r.stderr.trim().split('\n').pop());
  return Number.isFinite(kb) ? kb / 1024 : NaN;
}

export async function benchEvents({ scale = false } = {}) {
  mkdirSync(join(work, 'home'), { recursive: true });
  const loop = join(work, 'fetch-loop.mjs');
  writeFileSync(loop, FETCH_LOOP);
  const server = await startServer();
  const env = { PATH: process.env.PATH, HOME: join(work, 'home'), NO_COLOR: '1', JOBS_BASE_URL: server.url, JOBS_TOKEN: 'bench-token' };
  const opts = { env, cwd: work, timeout: 30 * 60_000 };
  try {
    for (const n of scale ? [100_000, 1_000_000] : [20_000]) {
      const file = await eventsFile(n);
      const journal = join(work, `events-${n}.journal`);
      // A fresh journal for every run, so every run posts all n (bash on both sides).
      const jobs = ['bash', ['-c', `rm -f ${journal} && exec ${node} ${bin} events ${file} --journal ${journal} --concurrency ${CONCURRENCY} > /dev/null`], opts];
      const fetchLoop = ['bash', ['-c', `rm -f ${journal} && exec ${node} ${loop} ${file} ${server.url} ${CONCURRENCY}`], opts];
      const before = (await server.count()).requests;
      const runs = n >= 1_000_000 ? 1 : 3;
      const name = `jobs events ${n.toLocaleString('en')} / a fetch loop, both at ${CONCURRENCY} at once`;
      const result = n >= 1_000_000 ? once1(jobs, fetchLoop) : compare(jobs, fetchLoop, runs);
      report(name, result, TARGET);
      const sent = (await server.count()).requests - before;
      const expected = (n >= 1_000_000 ? 2 : 2 * (runs + 1)) * n;
      const peakJobs = peakMiB(node, [bin, 'events', file, '--journal', `${journal}.peak`, '--concurrency', String(CONCURRENCY)], { ...opts, stdio: undefined });
      spawnSync('rm', ['-f', `${journal}.peak`]);
      const peakLoop = peakMiB(node, [loop, file, server.url, String(CONCURRENCY)], opts);
      console.log(`  peak memory: jobs ${peakJobs.toFixed(0)} MiB, fetch loop ${peakLoop.toFixed(0)} MiB; requests the server received in the comparison: ${sent} (${expected} expected)`);
    }
  } finally {
    server.stop();
  }
}

/** One timed run of each, for sizes too big to repeat. */
function once1(subject, baseline) {
  const ms = timeOnce(...subject);
  const base = timeOnce(...baseline);
  return { ms, base, ratio: ms / base };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchEvents({ scale: process.argv.includes('--scale') || process.env.JOBS_BENCH_SCALE === '1' });
}
