import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { History, normaliseService } from '../../../src/core/history/store.js';
import { baselinesFor, seriesByAdvert } from '../../../src/core/history/insights.js';
import { tempDir } from '../../support/temp-dirs.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-10-30T08:00:00Z');
const snap = (reference: string, at: number, views: number, applications = 1) => ({
  reference,
  at,
  views,
  likes: Math.floor(views / 5),
  applications,
  applications_unviewed: 0,
});

describe('history store', () => {
  it('normalises the service URL', () => {
    expect(normaliseService('HTTPS://Api.Example.COM:443/V1/')).toBe('https://api.example.com/V1');
    expect(normaliseService('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
    expect(normaliseService('http://Host:80//')).toBe('http://host');
    expect(normaliseService('sandbox')).toBe('sandbox');
    const dir = tempDir('jobs-hist-');
    expect(new History(dir, 'HTTPS://A.example:443/').folder).toBe(new History(dir, 'https://a.example').folder);
  });

  it('appends per service in monthly segments and reads back by time, references with any characters', () => {
    const dir = tempDir('jobs-hist-');
    const h = new History(dir, 'https://a.example');
    h.append([snap('A 1/%', T0, 10), snap('B', T0, 5)]);
    h.append([snap('A 1/%', T0 + 3 * DAY, 30, 2)]);
    new History(dir, 'https://b.example').append([snap('A 1/%', T0, 999)]);
    expect(h.months()).toEqual(['2026-10', '2026-11']);
    expect(h.read().map((s) => [s.reference, s.views])).toEqual([
      ['A 1/%', 10],
      ['B', 5],
      ['A 1/%', 30],
    ]);
    expect(h.read(T0 + DAY).length).toBe(1);
    expect(
      seriesByAdvert(h)
        .get('A 1/%')!
        .map((s) => s.applications),
    ).toEqual([1, 2]);
    const latest = h.latest(new Set(['A 1/%', 'B']));
    expect(latest.get('A 1/%')!.views).toBe(30);
    expect(latest.get('B')!.views).toBe(5);
  });

  it('ignores a line cut by an interrupted write, and the next run still lands on its own line', () => {
    const dir = tempDir('jobs-hist-');
    const h = new History(dir, 'sandbox');
    h.append([snap('A', T0, 10)]);
    const file = join(h.folder, readdirSync(h.folder)[0]!);
    appendFileSync(file, '1793347200 12 2 1 0 AC'); // killed mid-write
    expect(h.read().map((s) => s.views)).toEqual([10]);
    h.append([snap('B', T0 + 1000, 7)]);
    expect(h.read().map((s) => `${s.reference}:${s.views}`)).toEqual(['A:10', 'B:7']);
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
  });

  it('keeps every line whole when two processes append at once', async () => {
    const dir = tempDir('jobs-hist-');
    // The built API (npm test builds first), so the writers are plain Node processes.
    const api = join(import.meta.dirname, '../../../dist/index.js');
    const writer = (name: string) =>
      new Promise<number | null>((resolve, reject) => {
        const code = `import { History } from ${JSON.stringify(api)};
          const h = new History(${JSON.stringify(dir)}, 'sandbox');
          for (let i = 0; i < 200; i++) h.append(Array.from({ length: 50 }, (_, j) => ({ reference: '${name}-' + j, at: ${T0} + i * 1000, views: i, likes: 0, applications: j, applications_unviewed: 0 })));`;
        const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'inherit' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        child.on('error', reject);
        child.on('close', (c) => (clearTimeout(timer), resolve(c)));
      });
    expect(await Promise.all([writer('X'), writer('Y')])).toEqual([0, 0]);
    const rows = new History(dir, 'sandbox').read();
    expect(rows.length).toBe(2 * 200 * 50);
    expect(rows.every((s) => /^[XY]-\d+$/.test(s.reference) && s.applications === Number(s.reference.slice(2)))).toBe(true);
  });

  it('measures change from the last snapshot, or from the start of a window', () => {
    const dir = tempDir('jobs-hist-');
    const h = new History(dir, 'sandbox');
    for (let d = 0; d < 10; d++) h.append([snap('A', T0 + d * DAY, 10 * d)]);
    const now = T0 + 10 * DAY;
    expect(baselinesFor(h, ['A'], now).baseline.get('A')!.views).toBe(90);
    expect(baselinesFor(h, ['A'], now, 7 * DAY).baseline.get('A')!.views).toBe(30);
    expect(baselinesFor(h, ['A'], now, 30 * DAY).baseline.get('A')!.views).toBe(0);
    expect(baselinesFor(h, ['A'], now).weekAgo.get('A')!.views).toBe(30);
    expect(baselinesFor(h, ['B'], now).baseline.size).toBe(0);
  });
});
