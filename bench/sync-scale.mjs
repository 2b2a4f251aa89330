// Sync at scale: a no-op sync of N adverts against `validate` of the same folder (time and peak
// memory; no request, the state file untouched), and a first sync of N against bench/server.mjs
// (peak memory, against validate's), on realistic adverts. N = 10,000; --scale (or JOBS_BENCH_SCALE=1) runs 100,000.
// Times are wall and CPU (user + sys of the child), medians of alternating runs, with the load average.
// Usage: npm run build && node bench/sync-scale.mjs [--scale]   (or node bench/run.mjs sync-scale)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generateAdverts } from './generate.mjs';
import { median } from './lib.mjs';

/** Starts bench/server.mjs (127.0.0.1); resolves with its URL, a request counter and a stop function. */
function startServer(node, root) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [join(root, 'bench/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8').once('data', (port) => {
      const url = `http://127.0.0.1:${port.trim()}`;
      resolve({ url, requests: async () => (await (await fetch(`${url}/_count`)).json()).requests, stop: () => child.kill('SIGTERM') });
    });
    child.once('error', reject);
  });
}

/** Wall and CPU (user + sys) seconds and peak resident memory (MiB) of one run (GNU time); throws on a non-zero exit. */
function measure(cmd, args, options) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', cmd, ...args], {
    ...options,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: 60 * 60 * 1000,
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const [wall, user, sys, kib] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, peak: kib / 1024 };
}

const peakMiB = (cmd, args, options) => measure(cmd, args, options).peak;

/** Subject and baseline run alternately `runs` times after one warm-up each: medians of wall and CPU time. */
function compareTimes(subject, baseline, runs) {
  measure(...subject);
  measure(...baseline);
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(measure(...subject));
    b.push(measure(...baseline));
  }
  const med = (xs, key) => median(xs.map((x) => x[key]));
  return { wall: [med(a, 'wall'), med(b, 'wall')], cpu: [med(a, 'cpu'), med(b, 'cpu')] };
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

const line = (name, value, target, met, detail) => console.log(`${name.padEnd(58)} ${value}  (target ${target}: ${met ? 'met' : 'MISSED'})   [${detail}]`);

export async function syncScale({ root, work, env, node, bin, scale }) {
  const n = scale ? 100_000 : 10_000;
  const N = n.toLocaleString('en');
  // Realistic adverts (1–3 KB: comments, unicode, block scalars), as issue 11 measured them.
  const dir = generateAdverts(join(work, `sync-scale-${n}`), n, { realistic: true });
  // One server for both phases: the state is kept per service URL. It exits after 10 minutes (a
  // --scale run may outlast it): a no-op sync that tried to send would then fail, and exit non-zero.
  const server = await startServer(node, root);
  const opts = { env: { ...env, JOBS_BASE_URL: server.url, JOBS_TOKEN: 'bench-token' }, cwd: work };
  const state = join(work, `sync-scale-state-${n}.json`);
  const requests = () => server.requests().catch(() => undefined);
  try {
    // First sync: every advert created. Its peak memory against validate's on the same folder.
    rmSync(state, { force: true });
    rmSync(`${state}.log`, { force: true });
    const started = Date.now();
    const firstPeak = peakMiB(node, [bin, 'sync', dir, '--concurrency', '8', '--state', state, '-q'], opts);
    const seconds = (Date.now() - started) / 1000;
    const created = await requests();
    const validatePeak = peakMiB(node, [bin, 'validate', dir], opts);
    const limit = 300;
    const name = `jobs sync of ${N} new adverts: peak memory / validate's`;
    const detail = `${firstPeak.toFixed(0)} MiB vs ${validatePeak.toFixed(0)} MiB; ${seconds.toFixed(0)} s; ${created} requests; state ${(statSync(state).size / 1e6).toFixed(1)} MB`;
    const ratio = `${(firstPeak / validatePeak).toFixed(2)}x`;
    if (scale) line(name, ratio, `<= ${limit} MiB`, firstPeak <= limit, detail);
    else console.log(`${name.padEnd(58)} ${ratio}  (target <= ${limit} MiB at 100,000: run with --scale)   [${detail}]`);

    // No-op sync: no request, the state file not written, against validate of the same folder.
    const before = statSync(state);
    const runs = 5;
    const loadBefore = load();
    const noop = compareTimes([node, [bin, 'sync', dir, '--state', state, '-q'], opts], [node, [bin, 'validate', dir], opts], runs);
    const [wall, wallBase] = noop.wall;
    const [cpu, cpuBase] = noop.cpu;
    line(
      `jobs sync of ${N} unchanged adverts / jobs validate`,
      `${(wall / wallBase).toFixed(2)}x wall, ${(cpu / cpuBase).toFixed(2)}x CPU`,
      '<= 1.3x',
      wall / wallBase <= 1.3,
      `${wall.toFixed(2)} s vs ${wallBase.toFixed(2)} s wall, ${cpu.toFixed(2)} s vs ${cpuBase.toFixed(2)} s CPU; medians of ${runs} alternating runs; load ${loadBefore} before, ${load()} after`,
    );
    const peak = peakMiB(node, [bin, 'sync', dir, '--state', state, '-q'], opts);
    const after = statSync(state);
    const sent = created === undefined ? undefined : ((await requests()) ?? created) - created;
    const untouched = after.mtimeMs === before.mtimeMs && after.size === before.size && after.ino === before.ino;
    console.log(
      `  ${runs + 2} unchanged syncs: ${sent ?? 'no'} requests (0 expected); state file ${untouched ? 'untouched' : 'WRITTEN'}; peak memory of one: ${peak.toFixed(0)} MiB`,
    );
    if (sent || !untouched) process.exitCode = 1;
  } finally {
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const work = join(root, 'bench/.work');
  const env = { PATH: process.env.PATH, HOME: join(work, 'home'), NO_COLOR: '1' };
  mkdirSync(join(work, 'home'), { recursive: true });
  const scale = process.argv.includes('--scale') || process.env.JOBS_BENCH_SCALE === '1';
  await syncScale({ root, work, env, node: process.execPath, bin: join(root, 'bin/jobs.js'), scale });
}
