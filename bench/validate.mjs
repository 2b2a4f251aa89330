// `jobs validate` at scale: time as a ratio against ajv-cli on the same files, with peak memory.
// Default sizes keep `npm run bench` to a few minutes; --scale (or JOBS_BENCH_SCALE=1) adds the
// 100,000 / 300,000 / 1,000,000 runs (many minutes, and about 4 GB of small files in bench/.work,
// generated once and reused).
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './lib.mjs';
import { generateAdverts } from './generate.mjs';

const MEMORY_TARGET_MIB = 300;

/**
 * One run: wall time (ms), CPU time of all its threads (ms, user + system) and peak resident memory
 * (MiB), from GNU time. CPU time is the steadier figure on a machine others are using: wall time
 * there depends on how much of the two cores the run is given. Throws when the command fails.
 */
function measure([cmd, args, options]) {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', cmd, ...args], {
    ...options,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    timeout: 3_600_000,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const lines = r.stderr.trim().split('\n');
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${lines.slice(-3).join(' | ')}`);
  const [user, system, peak] = lines.pop().split(' ').map(Number);
  return { ms, cpu: (user + system) * 1000, peak: peak / 1024 };
}

/** Subject and baseline alternately `runs` times (after a warm-up unless runs is 1): median times, subject's largest peak. */
function compareWithPeak(subject, baseline, runs) {
  if (runs > 1) {
    measure(subject);
    measure(baseline);
  }
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(measure(subject));
    b.push(measure(baseline));
  }
  return {
    ms: median(a.map((m) => m.ms)),
    base: median(b.map((m) => m.ms)),
    cpu: median(a.map((m) => m.cpu)),
    baseCpu: median(b.map((m) => m.cpu)),
    peak: Math.max(...a.map((m) => m.peak)),
    basePeak: Math.max(...b.map((m) => m.peak)),
  };
}

function line(name, ratio, target, detail) {
  const verdict = target === undefined ? '' : `  (target <= ${target}x: ${ratio <= target ? 'met' : 'MISSED'})`;
  console.log(`${name.padEnd(58)} ${ratio.toFixed(2)}x${verdict}   [${detail}]`);
}

function peakText(peak) {
  return `peak ${peak.toFixed(0)} MiB, target <= ${MEMORY_TARGET_MIB}: ${peak <= MEMORY_TARGET_MIB ? 'met' : 'MISSED'}`;
}

/** Adverts in bench/.work/<name>, generated once (a marker file says the set is complete). */
function corpus(work, name, count, kind) {
  const dir = join(work, name);
  const done = join(dir, `.complete-${count}`);
  if (existsSync(done)) return dir;
  generateAdverts(dir, count, { realistic: kind !== 'simple', bullets: kind === 'bullets' });
  writeFileSync(done, '');
  return dir;
}

export function benchValidate({ root, work, bin, node, opts, scale }) {
  const ajv = join(root, 'node_modules/ajv-cli/dist/index.js');
  const schema = join(root, 'schemas/advert.schema.json');
  const jobs = (dir) => [node, [bin, 'validate', dir], opts];
  const ajvCli = (dir) => [
    node,
    [ajv, 'validate', '--spec=draft2020', '--strict=false', '--all-errors', '-c', 'ajv-formats', '-s', schema, '-d', `${dir}/*.yaml`],
    { ...opts, cwd: root },
  ];
  const versusAjv = (label, dir, runs, target) => {
    const r = compareWithPeak(jobs(dir), ajvCli(dir), runs);
    const cpu = `CPU ${(r.cpu / 1000).toFixed(1)} s vs ${(r.baseCpu / 1000).toFixed(1)} s: ${(r.cpu / r.baseCpu).toFixed(2)}x`;
    line(
      label,
      r.ms / r.base,
      target,
      `${(r.ms / 1000).toFixed(1)} s vs ${(r.base / 1000).toFixed(1)} s; ${cpu}; ${peakText(r.peak)}; ajv-cli ${r.basePeak.toFixed(0)} MiB`,
    );
    return r;
  };

  versusAjv('jobs validate 10,000 realistic / ajv-cli', corpus(work, 'realistic-10k', 10_000, 'realistic'), 5, 0.5);
  versusAjv('jobs validate 10,000 realistic, bullets in > / ajv-cli', corpus(work, 'bullets-10k', 10_000, 'bullets'), 5, 0.5);
  if (!scale) return;

  versusAjv('jobs validate 100,000 realistic / ajv-cli', corpus(work, 'realistic-100k', 100_000, 'realistic'), 3, 0.5);
  versusAjv('jobs validate 300,000 realistic / ajv-cli', corpus(work, 'realistic-300k', 300_000, 'realistic'), 1, 0.5);
  // Linear time: a million files take ten times what 100,000 take (ratio per file, target 1.2x).
  const small = measure(jobs(corpus(work, 'simple-100k', 100_000, 'simple')));
  const big = measure(jobs(corpus(work, 'simple-1m', 1_000_000, 'simple')));
  line(
    'jobs validate 1,000,000 simple / 10 x 100,000 simple',
    big.ms / (10 * small.ms),
    1.2,
    `${(big.ms / 1000).toFixed(0)} s vs 10 x ${(small.ms / 1000).toFixed(1)} s; CPU ${(big.cpu / (10 * small.cpu)).toFixed(2)}x; ${peakText(big.peak)}`,
  );
}
