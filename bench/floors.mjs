// The physical floors: what `jobs` costs beyond the least any program doing the same must do.
// - `jobs validate` of 10,000 advert files / a script that only reads the same files (one process:
//   a readdir walk and readFileSync of each);
// - `jobs events` of 20,000 events / a bare node:http loop posting the same events to the same local
//   server at the same concurrency over kept-alive connections (no validation, no journal).
// Each as ratios of medians of alternating runs (after a warm-up pair): wall time, and CPU time
// (user + sys of all threads, from GNU time). Loopback only; every loop is bounded in count, every
// run in time. Usage: node bench/floors.mjs [validate] [events] [--runs N]   (both when none is named)
// JOBS_BENCH_BIN=<path to bin/jobs.js> measures another build.
// Called by bench/run.mjs as `floors`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { median } from './lib.mjs';
import { generateAdverts } from './generate.mjs';
import { eventsFile, startServer } from './events.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, 'bench/.work');
// JOBS_BENCH_BIN: another build's bin/jobs.js (the figures before a change, measured in the same way).
const bin = process.env.JOBS_BENCH_BIN ?? join(root, 'bin/jobs.js');
const node = process.execPath;
const CONCURRENCY = 8;

/** The validate floor's baseline: every file of the folder (and its subfolders) read, nothing else. */
const READ_FILES = `
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
let files = 0;
let bytes = 0;
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.isFile() && !entry.name.startsWith('.')) {
      bytes += readFileSync(path).length;
      files++;
    }
  }
};
walk(process.argv[2]);
if (files === 0) throw new Error('no files in ' + process.argv[2]);
process.stdout.write(files + ' files, ' + bytes + ' bytes\\n');
`;

/** The events floor's baseline: each line's event posted through node:http, CONCURRENCY at a time, kept-alive connections. */
const HTTP_LOOP = `
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
const [file, base, concurrency] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split('\\n').filter(Boolean);
const { hostname, port } = new URL(base);
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrency) });
let next = 0;
const post = (path, body) =>
  new Promise((resolve, reject) => {
    const req = request(
      { agent, hostname, port, path, method: 'POST', timeout: 30000, headers: { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer bench-token', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error('status ' + res.statusCode))));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
async function lane() {
  while (next < lines.length) {
    const { application_id, kind, data } = JSON.parse(lines[next++]);
    const body = JSON.stringify(data === undefined ? { kind } : { kind, data });
    await post('/job_applications/' + encodeURIComponent(application_id) + '/events', body);
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, lane));
agent.destroy();
`;

/** One run under GNU time: wall and CPU seconds, peak memory (MiB). Throws when the command fails or overruns. */
function timed(argv, opts) {
  const out = join(work, 'floor.time');
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', out, ...argv], { ...opts, stdio: ['ignore', 'ignore', 'pipe'], timeout: 10 * 60_000 });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr}`);
  const [wall, user, sys, kib] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, mib: kib / 1024 };
}

/** subject and baseline alternately, `runs` pairs after a warm-up pair; prints the ratios of medians. */
function floor(name, target, subject, baseline, runs) {
  subject();
  baseline();
  const a = [];
  const b = [];
  const loads = [loadavg()[0]];
  for (let i = 0; i < runs; i++) {
    a.push(subject());
    b.push(baseline());
    loads.push(loadavg()[0]);
  }
  const ratio = (key) => median(a.map((r) => r[key])) / median(b.map((r) => r[key]));
  const wall = ratio('wall');
  const list = (rs, key) => rs.map((r) => r[key].toFixed(2)).join(', ');
  console.log(
    `${name.padEnd(58)} ${wall.toFixed(2)}x wall, ${ratio('cpu').toFixed(2)}x CPU  (target <= ${target}x wall: ${wall <= target ? 'met' : 'MISSED'})`,
  );
  console.log(`  wall s: jobs ${list(a, 'wall')} / floor ${list(b, 'wall')}; CPU s: jobs ${list(a, 'cpu')} / floor ${list(b, 'cpu')}`);
  console.log(`  peak memory MiB: jobs ${list(a, 'mib')} / floor ${list(b, 'mib')}; load average ${loads.map((l) => l.toFixed(1)).join(' -> ')}`);
  return wall;
}

export function validateFloor({ runs = 5 } = {}) {
  mkdirSync(join(work, 'home'), { recursive: true });
  const dir = generateAdverts(join(work, 'adverts-10k'), 10_000);
  const script = join(work, 'read-files.mjs');
  writeFileSync(script, READ_FILES);
  const opts = { cwd: work, env: { PATH: process.env.PATH, HOME: join(work, 'home'), NO_COLOR: '1' } };
  return floor(
    'jobs validate 10,000 files / reading the same files',
    2,
    () => timed([node, bin, 'validate', dir], opts),
    () => timed([node, script, dir], opts),
    runs,
  );
}

export async function eventsFloor({ runs = 3, n = 20_000 } = {}) {
  mkdirSync(join(work, 'home'), { recursive: true });
  const file = await eventsFile(n);
  const script = join(work, 'http-loop.mjs');
  writeFileSync(script, HTTP_LOOP);
  const server = await startServer(false);
  const journal = join(work, `events-floor-${n}.journal`);
  const env = { PATH: process.env.PATH, HOME: join(work, 'home'), NO_COLOR: '1', JOBS_BASE_URL: server.url, JOBS_TOKEN: 'bench-token' };
  const opts = { cwd: work, env };
  try {
    const before = (await server.count()).requests;
    const jobs = () => {
      // A fresh journal for every run, so every run posts all n.
      rmSync(journal, { force: true });
      return timed([node, bin, 'events', file, '--journal', journal, '--concurrency', String(CONCURRENCY)], opts);
    };
    const wall = floor(
      `jobs events ${n.toLocaleString('en')} / a bare node:http keep-alive loop, ${CONCURRENCY} at once`,
      1.5,
      jobs,
      () => timed([node, script, file, server.url, String(CONCURRENCY)], opts),
      runs,
    );
    const sent = (await server.count()).requests - before;
    console.log(`  requests the server received: ${sent} (${2 * (runs + 1) * n} expected)`);
    return wall;
  } finally {
    rmSync(journal, { force: true });
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : undefined;
  const named = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs');
  if (named.length === 0 || named.includes('validate')) validateFloor(runs ? { runs } : {});
  if (named.length === 0 || named.includes('events')) await eventsFloor(runs ? { runs } : {});
}
