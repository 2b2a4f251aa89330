// Does the sandbox keep up? `jobs sync` of N new adverts against `jobs sandbox` (the built binary,
// on 127.0.0.1, a free port, state in memory) / the same sync against bench/server.mjs (a stub that
// answers at once), with the sandbox's peak memory. Also: a publish of N/10 more adverts with
// `--sandbox` (embedded, state in a data file) into a file holding N / into an empty one, which
// shows whether a request costs what it changes or what the file holds.
// Usage: node bench/sandbox.mjs [--scale | --size=N]   (or via bench/run.mjs sandbox; JOBS_BENCH_SCALE=1)
// Default N = 2,000 (a few seconds); --scale runs N = 10,000 and 100,000 (minutes).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, report, timeOnce } from './lib.mjs';
import { generateAdverts } from './generate.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, 'bench/.work');
const bin = join(root, 'bin/jobs.js');
const node = process.execPath;
const scale = process.argv.includes('--scale') || process.env.JOBS_BENCH_SCALE === '1';
const sizeArg = process.argv.find((a) => a.startsWith('--size='));
const sizes = sizeArg ? [Number(sizeArg.slice(7))] : scale ? [10_000, 100_000] : [2_000];
const TARGET = 1.5;
const home = join(work, 'home-sandbox');
mkdirSync(home, { recursive: true });
const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' };

/** Starts a server process that prints its base URL (or port) on stdout's first line. */
function startProcess(args, toUrl) {
  return new Promise((resolve, reject) => {
    // stderr ignored: `jobs sandbox` says that SIGTERM stopped it.
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'ignore'], env, cwd: work });
    child.stdout.setEncoding('utf8').once('data', (line) => {
      resolve({
        url: toUrl(line.trim().split('\n')[0]),
        /** Peak resident memory so far (VmHWM), MiB; NaN where /proc is missing. */
        peakMiB: () => {
          try {
            return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
          } catch {
            return NaN;
          }
        },
        /** CPU seconds used so far (user + system), from /proc. */
        cpuSeconds: () => {
          try {
            const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
            return (Number(fields[11]) + Number(fields[12])) / 100;
          } catch {
            return NaN;
          }
        },
        stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM')))),
      });
    });
    child.once('error', reject);
  });
}

const stub = () => startProcess([join(root, 'bench/server.mjs')], (port) => `http://127.0.0.1:${port}`);
const sandbox = () => startProcess([bin, 'sandbox', '--port', '0', '--quiet', '--token', 'bench-token'], (url) => url);

/** One `jobs sync` of `dir` with a fresh state against `url`; milliseconds. */
function syncOnce(dir, url, n) {
  const state = join(work, `sandbox-sync-state-${n}.json`);
  rmSync(state, { force: true });
  const syncEnv = { ...env, JOBS_BASE_URL: url, JOBS_TOKEN: 'bench-token' };
  return timeOnce(node, [bin, 'sync', dir, '--concurrency', '8', '--state', state], { env: syncEnv, cwd: work, timeout: 3_600_000 });
}

for (const n of sizes) {
  const dir = generateAdverts(join(work, `sandbox-adverts-${n}`), n);
  // Small sizes: median of 3 alternating runs (a fresh server each, so every run creates all N).
  const runs = n <= 10_000 ? 3 : 1;
  const withStub = [];
  const withSandbox = [];
  let peak = 0;
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const s = await stub();
    withStub.push(syncOnce(dir, s.url, n));
    await s.stop();
    const sb = await sandbox();
    withSandbox.push(syncOnce(dir, sb.url, n));
    peak = Math.max(peak, sb.peakMiB());
    cpu.push(sb.cpuSeconds());
    await sb.stop();
  }
  const ms = median(withSandbox);
  const base = median(withStub);
  report(`jobs sync ${n.toLocaleString('en')} new adverts: jobs sandbox / a bare stub`, { ms, base, ratio: ms / base }, TARGET);
  console.log(`  the sandbox holding ${n.toLocaleString('en')} adverts: ${peak.toFixed(0)} MiB peak memory, ${median(cpu).toFixed(1)} s of CPU`);
}

// The embedded sandbox's data file: `--sandbox publish` of N/10 new adverts into a data file that
// holds N already / the same publish into an empty one. A request should cost what it changes, so
// the state held should add only its load at start and its rewrite at exit.
{
  const n = sizes[0];
  const more = n / 10;
  const held = join(work, `sandbox-adverts-${n}`);
  // References the N held do not have: the next ones of the same generator.
  const src = generateAdverts(join(work, 'sandbox-adverts-extra-src'), n + more);
  const extra = join(work, `sandbox-adverts-extra-${more}`);
  rmSync(extra, { recursive: true, force: true });
  mkdirSync(extra, { recursive: true });
  for (let i = n; i < n + more; i++) {
    const name = `advert-${String(i).padStart(7, '0')}.yaml`;
    cpSync(join(src, name), join(extra, name));
  }
  const xdgFull = join(work, 'sandbox-xdg-full');
  const xdgEmpty = join(work, 'sandbox-xdg-empty');
  rmSync(xdgFull, { recursive: true, force: true });
  const started = Date.now();
  timeOnce(node, [bin, '--sandbox', 'publish', held, '--concurrency', '8'], { env: { ...env, XDG_STATE_HOME: xdgFull }, cwd: work, timeout: 3_600_000 });
  const fillSeconds = (Date.now() - started) / 1000;
  const filled = readFileSync(join(xdgFull, 'jobs', 'sandbox.json'));
  const publishInto = (xdg, state) => () => {
    rmSync(xdg, { recursive: true, force: true });
    mkdirSync(join(xdg, 'jobs'), { recursive: true });
    if (state) writeFileSync(join(xdg, 'jobs', 'sandbox.json'), state);
    return timeOnce(node, [bin, '--sandbox', 'publish', extra, '--concurrency', '8'], { env: { ...env, XDG_STATE_HOME: xdg }, cwd: work, timeout: 3_600_000 });
  };
  const intoFull = [];
  const intoEmpty = [];
  for (let i = 0; i < 3; i++) {
    intoFull.push(publishInto(xdgFull, filled)());
    intoEmpty.push(publishInto(xdgEmpty, undefined)());
  }
  const ms = median(intoFull);
  const base = median(intoEmpty);
  report(`jobs --sandbox publish ${more.toLocaleString('en')} into ${n.toLocaleString('en')} held / into none`, { ms, base, ratio: ms / base }, TARGET);
  console.log(
    `  (publishing the ${n.toLocaleString('en')} into an empty --sandbox data file took ${fillSeconds.toFixed(1)} s; the file holding them: ${(filled.length / 1048576).toFixed(1)} MiB)`,
  );
}
