// Benchmarks of the statistics history and the HTML report (issue 13), called from bench/run.mjs.
// - history: `jobs stats --all` of N adverts recording into a history that already holds a month of
//   daily snapshots, against the same requests with no history (an empty one, --no-record);
// - report: how long headless Chromium takes to render the report of N adverts over D days (the
//   page's own measure, navigation start to table drawn), against a blank page in the same browser.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compare, median, report, timeOnce } from './lib.mjs';

const DAY = 86_400_000;

/** Writes a history of `adverts` x `days` daily snapshots for `service`, ending today. */
async function fillHistory(api, dir, service, adverts, days) {
  rmSync(dir, { recursive: true, force: true });
  const history = new api.History(dir, service);
  const end = Date.now() - DAY;
  for (let d = days - 1; d >= 0; d--) {
    const at = end - d * DAY;
    const batch = [];
    for (let i = 0; i < adverts; i++) {
      const age = days - d;
      batch.push({
        reference: `BENCH-${String(i).padStart(6, '0')}`,
        at,
        views: age * (5 + (i % 17)),
        likes: age * (1 + (i % 5)),
        applications: Math.floor((age * (i % 7)) / 4),
        applications_unviewed: i % 3,
      });
    }
    history.append(batch);
  }
}

export async function benchHistory({ root, work, node, bin, opts, startServer, adverts = 10_000 }) {
  const api = await import(pathToFileURL(join(root, 'dist/index.js')).href);
  const server = await startServer();
  const env = { ...opts.env, JOBS_BASE_URL: server.url, JOBS_TOKEN: 'bench-token' };
  const state = join(work, `state-stats-${adverts}.json`);
  const records = {};
  for (let i = 0; i < adverts; i++)
    records[`BENCH-${String(i).padStart(6, '0')}`] = { file: `a${i}.yaml`, document: 0, hash: 'x', fields: {}, published_at: '2026-01-01T00:00:00.000Z' };
  writeFileSync(state, JSON.stringify({ version: 1, services: { [server.url]: { adverts: records } } }));
  const full = join(work, 'history-month');
  await fillHistory(api, full, server.url, adverts, 30);
  const empty = mkdtempSync(join(work, 'history-empty-'));
  const args = ['stats', '--all', '--state', state, '--json'];
  const r = compare(
    [node, [bin, ...args, '--history-dir', full], { ...opts, env }],
    [node, [bin, ...args, '--history-dir', empty, '--no-record'], { ...opts, env }],
    5,
  );
  report(`jobs stats --all of ${adverts.toLocaleString('en-US')} adverts, recording into a month of history / the same without history`, r, 1.1);
  server.stop();
  rmSync(empty, { recursive: true, force: true });
}

export async function benchReport({ root, work, node, bin, opts, adverts = 10_000, days = 365 }) {
  const chromium = spawnSync('chromium', ['--version'], { encoding: 'utf8' });
  if (chromium.status !== 0) {
    console.log('report benchmark: chromium is not installed (apt-get install -y chromium); skipped');
    return;
  }
  const api = await import(pathToFileURL(join(root, 'dist/index.js')).href);
  const dir = join(work, 'history-year');
  const service = 'https://bench.example';
  let started = Date.now();
  await fillHistory(api, dir, service, adverts, days);
  console.log(`  wrote a history of ${adverts.toLocaleString('en-US')} adverts x ${days} days in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const page = join(work, 'report.html');
  const env = { ...opts.env, JOBS_BASE_URL: service };
  const generate = [];
  for (let i = 0; i < 3; i++) generate.push(timeOnce(node, [bin, 'report', '--file', page, '--history-dir', dir], { ...opts, env }));
  console.log(
    `  jobs report: ${(median(generate) / 1000).toFixed(1)} s to read ${(adverts * days).toLocaleString('en-US')} snapshots and write ${(statSync(page).size / 1e6).toFixed(1)} MB`,
  );

  const blank = join(work, 'blank.html');
  writeFileSync(blank, '<!doctype html><title>blank</title><p>blank</p>');
  const profile = mkdtempSync(join(work, 'chromium-'));
  const browse = (file) => [
    'chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`, '--virtual-time-budget=10000', '--dump-dom', pathToFileURL(file).href],
    { ...opts, stdio: ['ignore', 'pipe', 'ignore'] },
  ];
  report(`chromium opening the report (${adverts.toLocaleString('en-US')} adverts, ${days} days) / a blank page`, compare(browse(page), browse(blank), 3));
  const rendered = [];
  for (let i = 0; i < 3; i++) {
    const out = spawnSync(...browse(page).slice(0, 2), { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 120_000 });
    const ms = Number(/data-render-ms="(\d+)"/.exec(out.stdout ?? '')?.[1]);
    if (!Number.isFinite(ms)) throw new Error(`the report did not render: ${out.stderr}`);
    rendered.push(ms);
  }
  const ms = median(rendered);
  console.log(
    `${'report rendered in the browser (navigation start to table drawn) / 2 s'.padEnd(58)} ${(ms / 2000).toFixed(2)}x  (target <= 1x: ${ms <= 2000 ? 'met' : 'MISSED'})   [${ms} ms]`,
  );
  rmSync(profile, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
}
