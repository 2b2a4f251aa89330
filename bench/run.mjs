// Benchmarks, each printed as a ratio against a baseline measured in the same run.
// Usage: node bench/run.mjs [startup] [validate] [wording] [validate-scale] [export] [sync] [events] [floors] [history] [report] [sandbox] [--scale]   (all when none is named)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { join } from 'node:path';
import { compare, report } from './lib.mjs';
import { advertYaml, generateAdverts } from './generate.mjs';
import { benchHistory, benchReport } from './insights.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, 'bench/.work');
const bin = join(root, 'bin/jobs.js');
const node = process.execPath;
const scale = process.argv.includes('--scale') || process.env.JOBS_BENCH_SCALE === '1';
const wanted = new Set(process.argv.slice(2).filter((a) => a !== '--scale'));
const want = (name) => wanted.size === 0 || wanted.has(name);
// A fresh HOME so no user config is read; the same for every command measured.
const env = { PATH: process.env.PATH, HOME: join(work, 'home'), NO_COLOR: '1' };
mkdirSync(join(work, 'home'), { recursive: true });
const opts = { env, cwd: work };

console.log(`jobs benchmarks (node ${process.version}, ${new Date().toISOString().slice(0, 10)})`);

if (want('startup')) {
  const one = join(work, 'one-advert.yaml');
  writeFileSync(one, advertYaml(1));
  const baseline = [node, ['-e', '0'], opts];
  // 60 alternating runs: a start is some 40 ms, and the median of 30 moved by 0.1x between runs.
  report('jobs --version / node -e 0', compare([node, [bin, '--version'], opts], baseline, 60), 1.3);
  report('jobs validate one-advert.yaml / node -e 0', compare([node, [bin, 'validate', one], opts], baseline, 60), 1.6);
}

if (want('validate')) {
  const dir = generateAdverts(join(work, 'adverts-10k'), 10_000);
  const ajv = join(root, 'node_modules/ajv-cli/dist/index.js');
  const schema = join(root, 'schemas/advert.schema.json');
  const ajvArgs = [ajv, 'validate', '--spec=draft2020', '--strict=false', '--all-errors', '-c', 'ajv-formats', '-s', schema, '-d', `${dir}/*.yaml`];
  report(
    'jobs validate 10,000 files / ajv-cli on the same files',
    compare([node, [bin, 'validate', dir], opts], [node, ajvArgs, { ...opts, cwd: root }], 5),
    1.0,
  );
}

if (want('export')) {
  // Realistic adverts (1-3 KB of text each): export reads them as validate does, then builds, checks
  // and writes a JobPosting each (its description as HTML); stdout goes nowhere, as for validate.
  // Each with the pay and closing date Google recommends, so the run is not about printing 20,000 warnings.
  const dir = generateAdverts(join(work, 'adverts-export-10k'), 10_000, { realistic: true });
  for (const file of readdirSync(dir))
    writeFileSync(
      join(dir, file),
      `${readFileSync(join(dir, file), 'utf8')}jobs:\n  closes: 2099-12-31\n  pay: { min: 55000, max: 70000, currency: EUR, per: year }\n`,
    );
  report(
    'jobs export jsonld 10,000 files / jobs validate the same files',
    compare([node, [bin, 'export', 'jsonld', dir], opts], [node, [bin, 'validate', dir], opts], 5),
    1.5,
  );
}

if (want('wording')) {
  // The wording checks (docs/wording.md) on against off: the same 10,000 realistic adverts (bullets,
  // block scalars), the same binary, alternated runs: in nine places (two of them English-speaking,
  // one German), then all in London, where every word is looked up in a list. On by default only at <= 1.3x.
  for (const [label, place] of [
    ['in nine places', undefined],
    ['all in London', ['GB', 'London']],
  ]) {
    const dir = generateAdverts(join(work, 'wording-10k'), 10_000, { realistic: true, bullets: true, place });
    report(
      `jobs validate --wording / --no-wording, 10,000 realistic ${label}`,
      compare([node, [bin, 'validate', '--wording', dir], opts], [node, [bin, 'validate', '--no-wording', dir], opts], 5),
      1.3,
    );
  }
}

if (want('validate-scale')) (await import('./validate.mjs')).benchValidate({ root, work, bin, node, opts, scale });

/** Starts bench/server.mjs in its own process; resolves with its URL and a stop function. */
function startServer(quota = 0) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [join(root, 'bench/server.mjs'), String(quota)], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8').once('data', (port) => {
      const url = `http://127.0.0.1:${port.trim()}`;
      resolve({ url, count: async () => (await fetch(`${url}/_count`)).json(), stop: () => child.kill('SIGTERM') });
    });
    child.once('error', reject);
  });
}

if (want('sync')) {
  const dir = generateAdverts(join(work, 'adverts-1k'), 1000);
  const jsonDir = join(work, 'adverts-1k-json');
  rmSync(jsonDir, { recursive: true, force: true });
  mkdirSync(jsonDir);
  for (const f of readdirSync(dir)) writeFileSync(join(jsonDir, f.replace(/\.yaml$/, '.json')), JSON.stringify(parse(readFileSync(join(dir, f), 'utf8'))));

  const server = await startServer();
  const env1 = { ...env, JOBS_BASE_URL: server.url, JOBS_TOKEN: 'bench-token' };
  // A fresh state for every run, so every run creates all 1,000 (bash on both sides).
  const freshState = join(work, 'state-1k.json');
  const sync = ['bash', ['-c', `rm -f ${freshState} && ${node} ${bin} sync ${dir} --concurrency 8 --state ${freshState}`], { ...opts, env: env1 }];
  const curl = [
    'bash',
    [
      '-c',
      `ls ${jsonDir}/*.json | xargs -P 8 -I{} curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer bench-token' --data-binary @{} ${server.url}/jobs`,
    ],
    opts,
  ];
  report('jobs sync 1,000 new adverts / xargs -P 8 curl (one per advert)', compare(sync, curl, 3), 1.0);
  const sent = (await server.count()).requests;
  server.stop();
  console.log(`  requests the server received in that comparison: ${sent} (4 runs of each, warm-up included: 8,000 expected)`);

  const limited = await startServer(50);
  const env2 = { ...env, JOBS_BASE_URL: limited.url, JOBS_TOKEN: 'bench-token' };
  const started = Date.now();
  const r = spawnSync(node, [bin, 'sync', dir, '--concurrency', '8', '--state', join(work, 'state-quota.json')], { ...opts, env: env2, encoding: 'utf8' });
  const seconds = (Date.now() - started) / 1000;
  const counts = await limited.count();
  limited.stop();
  const failed = /(\d+) failed/.exec(r.stderr)?.[1] ?? '0';
  const ideal = 1000 / 50;
  console.log(
    `${'jobs sync 1,000 adverts under a 50 req/s quota / ideal (20 s)'.padEnd(58)} ${(seconds / ideal).toFixed(2)}x  (target <= 1.15x: ${seconds / ideal <= 1.15 ? 'met' : 'MISSED'})   [${seconds.toFixed(1)} s; exit ${r.status}; ${failed} failed; ${counts.throttled} answered 429]`,
  );

  // The second sync of 10,000 unchanged adverts: see sync-scale.
}

if (want('sync-scale')) {
  const { syncScale } = await import('./sync-scale.mjs');
  await syncScale({ root, work, env, node, bin, scale: process.argv.includes('--scale') || process.env.JOBS_BENCH_SCALE === '1' });
}

if (want('history')) await benchHistory({ root, work, node, bin, opts, startServer });
if (want('report')) await benchReport({ root, work, node, bin, opts });
if (want('sandbox')) await import('./sandbox.mjs');
if (want('events')) {
  const { benchEvents } = await import('./events.mjs');
  await benchEvents({ scale: process.argv.includes('--scale') || process.env.JOBS_BENCH_SCALE === '1' });
}
if (want('floors')) {
  // validate against reading the same files, events against a bare node:http loop (bench/floors.mjs).
  const { eventsFloor, validateFloor } = await import('./floors.mjs');
  validateFloor();
  await eventsFloor();
}
