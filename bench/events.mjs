// Benchmark of `jobs events <file>`: N events posted against bench/server.mjs, against a plain
// fetch loop posting the same events at the same concurrency to the same server (no validation,
// no journal), as ratios of medians of alternating runs: wall time, and CPU time (user + sys of the
// child, all its threads), with the peak memory of each and the load average while it ran.
// Usage: node bench/events.mjs [--scale] [--size N]...   (default 20,000 events, 3 alternating
// pairs; --scale: 100,000 (2 pairs) and 1,000,000 (one run each); --size: just those sizes)
// Called by bench/run.mjs as `events`. Loopback only; every loop is bounded.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { once } from 'node:events';
import { median } from './lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, 'bench/.work');
const bin = join(root, 'bin/jobs.js');
const node = process.execPath;
const CONCURRENCY = 8;
const TARGET = 1.3;

/** An NDJSON file of n events (deterministic): a view, like or reject of n distinct applications, some with data. */
export async function eventsFile(n) {
  const path = join(work, `events-${n}.ndjson`);
  if (existsSync(path)) return path;
  const kinds = ['recruiter_view', 'recruiter_like', 'recruiter_reject'];
  const out = createWriteStream(`${path}.tmp`);
  for (let i = 0; i < n; i++) {
    const event = {
      application_id: `app-${String(i).padStart(7, '0')}`,
      kind: kinds[i % 3],
      ...(i % 3 === 2 ? { data: { reason: 'position filled', step: i % 5 } } : {}),
    };
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

export function startServer(scale) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, JOBS_BENCH_SERVER_MINUTES: scale ? '120' : '10' };
    const child = spawn(node, [join(root, 'bench/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'], env });
    child.stdout.setEncoding('utf8').once('data', (port) => {
      const url = `http://127.0.0.1:${port.trim()}`;
      // A second try: the kept-alive connection may have been closed by the server during a long run.
      const count = async () => (await fetch(`${url}/_count`)).json();
      resolve({ url, count: () => count().catch(count), stop: () => child.kill('SIGTERM') });
    });
    child.once('error', reject);
  });
}

/** Runs `command` under GNU time; its wall and CPU seconds and peak memory (MiB). */
function timed(command, opts, out) {
  const r = spawnSync('bash', ['-c', `exec /usr/bin/time -f '%e %U %S %M' -o ${out} ${command}`], { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${command} exited ${r.status}: ${r.stderr}`);
  const [wall, user, sys, kib] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, mib: kib / 1024 };
}

export async function benchEvents({ scale = false, sizes = scale ? [100_000, 1_000_000] : [20_000] } = {}) {
  mkdirSync(join(work, 'home'), { recursive: true });
  const loop = join(work, 'fetch-loop.mjs');
  writeFileSync(loop, FETCH_LOOP);
  const server = await startServer(scale || sizes.some((n) => n >= 100_000));
  const env = { PATH: process.env.PATH, HOME: join(work, 'home'), NO_COLOR: '1', JOBS_BASE_URL: server.url, JOBS_TOKEN: 'bench-token' };
  // Big sizes run for minutes on a busy machine.
  const opts = { env, cwd: work, timeout: 120 * 60_000 };
  try {
    for (const n of sizes) {
      const file = await eventsFile(n);
      const journal = join(work, `events-${n}.journal`);
      const out = join(work, `events-${n}.time`);
      // A fresh journal for every run, so every run posts all n.
      const jobs = () =>
        timed(`bash -c 'rm -f ${journal} && exec ${node} ${bin} events ${file} --journal ${journal} --concurrency ${CONCURRENCY} > /dev/null'`, opts, out);
      const fetchLoop = () => timed(`${node} ${loop} ${file} ${server.url} ${CONCURRENCY}`, opts, out);
      const before = (await server.count()).requests;
      // Alternating pairs (jobs, loop, jobs, loop, ...), after a warm-up pair for the default size.
      const pairs = n >= 1_000_000 ? 1 : n >= 100_000 ? 2 : 3;
      const warmUp = n < 100_000 ? 1 : 0;
      const a = [];
      const b = [];
      const loads = [loadavg()[0]];
      for (let i = 0; i < warmUp + pairs; i++) {
        const x = jobs();
        const y = fetchLoop();
        if (i >= warmUp) {
          a.push(x);
          b.push(y);
        }
        loads.push(loadavg()[0]);
      }
      rmSync(journal, { force: true });
      const ratio = (key) => median(a.map((r) => r[key])) / median(b.map((r) => r[key]));
      const wall = ratio('wall');
      const verdict = wall <= TARGET ? `target <= ${TARGET}x: met` : `target <= ${TARGET}x: MISSED`;
      const list = (rs, key) => rs.map((r) => r[key].toFixed(1)).join(', ');
      console.log(
        `jobs events ${n.toLocaleString('en')} / a fetch loop, both ${CONCURRENCY} at once`.padEnd(58),
        `${wall.toFixed(2)}x wall, ${ratio('cpu').toFixed(2)}x CPU  (${verdict})`,
      );
      console.log(`  wall s: jobs ${list(a, 'wall')} / loop ${list(b, 'wall')}; CPU s: jobs ${list(a, 'cpu')} / loop ${list(b, 'cpu')}`);
      console.log(`  peak memory MiB: jobs ${list(a, 'mib')} / loop ${list(b, 'mib')}; load average ${loads.map((l) => l.toFixed(1)).join(' -> ')}`);
      const sent = (await server.count()).requests - before;
      console.log(`  requests the server received: ${sent} (${2 * (warmUp + pairs) * n} expected)`);
    }
  } finally {
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const sizes = args.flatMap((a, i) => (a === '--size' ? [Number(args[i + 1])] : []));
  const scale = args.includes('--scale') || process.env.JOBS_BENCH_SCALE === '1';
  await benchEvents(sizes.length > 0 ? { sizes } : { scale });
}
