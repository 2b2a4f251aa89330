// Benchmark of `jobs events <file>`: N events posted against bench/server.mjs, against a plain
// fetch loop posting the same events at the same concurrency to the same server (no validation,
// no journal), as a ratio of medians, with the peak memory of each.
// Usage: node bench/events.mjs [--scale]   (default 20,000 events; --scale: 100,000 and 1,000,000)
// Called by bench/run.mjs as `events`. Loopback only; every loop is bounded.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
  renameSync(`${path}.tmp`, path);
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

function startServer(scale) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, JOBS_BENCH_SERVER_MINUTES: scale ? '120' : '10' };
    const child = spawn(node, [join(root, 'bench/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'], env });
    child.stdout.setEncoding('utf8').once('data', (port) => {
      const url = `http://127.0.0.1:${port.trim()}`;
      resolve({ url, count: async () => (await fetch(`${url}/_count`)).json(), stop: () => child.kill('SIGTERM') });
    });
    child.once('error', reject);
  });
}

/** The peak resident memory GNU time wrote to `file` (the last run's), in MiB. */
const peakMiB = (file) => Number(readFileSync(file, 'utf8').trim().split('\n').pop()) / 1024;

export async function benchEvents({ scale = false, sizes = scale ? [100_000, 1_000_000] : [20_000] } = {}) {
  mkdirSync(join(work, 'home'), { recursive: true });
  const loop = join(work, 'fetch-loop.mjs');
  writeFileSync(loop, FETCH_LOOP);
  const server = await startServer(scale);
  const env = { PATH: process.env.PATH, HOME: join(work, 'home'), NO_COLOR: '1', JOBS_BASE_URL: server.url, JOBS_TOKEN: 'bench-token' };
  // Big sizes run for minutes on a busy machine.
  const opts = { env, cwd: work, timeout: 120 * 60_000 };
  try {
    for (const n of sizes) {
      const file = await eventsFile(n);
      const journal = join(work, `events-${n}.journal`);
      const peak = { jobs: join(work, `events-${n}.peak-jobs`), loop: join(work, `events-${n}.peak-loop`) };
      const time = (out) => `/usr/bin/time -f %M -o ${out}`;
      // A fresh journal for every run, so every run posts all n (bash and GNU time on both sides).
      const jobs = ['bash', ['-c', `rm -f ${journal} && exec ${time(peak.jobs)} ${node} ${bin} events ${file} --journal ${journal} --concurrency ${CONCURRENCY} > /dev/null`], opts];
      const fetchLoop = ['bash', ['-c', `rm -f ${journal} && exec ${time(peak.loop)} ${node} ${loop} ${file} ${server.url} ${CONCURRENCY}`], opts];
      const before = (await server.count()).requests;
      // Big sizes are timed once each; the default size as the median of 2 alternating runs after a warm-up.
      const runs = n >= 100_000 ? 0 : 2;
      const name = `jobs events ${n.toLocaleString('en')} / a fetch loop, both ${CONCURRENCY} at once`;
      report(name, runs === 0 ? timedOnce(jobs, fetchLoop) : compare(jobs, fetchLoop, runs), TARGET);
      const sent = (await server.count()).requests - before;
      const expected = 2 * (runs + 1) * n;
      console.log(`  peak memory: jobs ${peakMiB(peak.jobs).toFixed(0)} MiB, fetch loop ${peakMiB(peak.loop).toFixed(0)} MiB; requests the server received: ${sent} (${expected} expected)`);
    }
  } finally {
    server.stop();
  }
}

/** One timed run of each, for sizes too big to repeat. */
function timedOnce(subject, baseline) {
  const ms = timeOnce(...subject);
  const base = timeOnce(...baseline);
  return { ms, base, ratio: ms / base };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchEvents({ scale: process.argv.includes('--scale') || process.env.JOBS_BENCH_SCALE === '1' });
}
