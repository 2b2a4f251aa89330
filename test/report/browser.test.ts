import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { History } from '../../src/core/history/store.js';
import { chromium } from '../support/chromium.js';
import { colourStats, readPng } from '../support/png.js';
import { runJobs, SERVICE, serviceEnv } from '../commands/harness.js';

const DAY = 86_400_000;
const HOSTILE = '</script><img src=x onerror=alert(1)>';

let page: string;
let html: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-report-'));
  const history = new History(dir, SERVICE);
  const now = Date.now();
  const references = [HOSTILE, ...Array.from({ length: 11 }, (_, i) => `ACME-${String(i + 1).padStart(4, '0')}`)];
  for (let d = 40; d >= 0; d--) {
    history.append(
      references.map((reference, i) => {
        const views = (i + 1) * (40 - d) * 3;
        // Every third advert stops getting applications after day 20.
        const applications = i % 3 === 0 ? Math.min(20, 40 - d) : Math.floor((40 - d) / 2);
        return { reference, at: now - d * DAY, views, likes: Math.floor(views / 4), applications, applications_unviewed: i % 4 === 0 ? 3 : 0 };
      }),
    );
  }
  page = join(dir, 'report.html');
  const r = await runJobs(['report', '--file', page, '--history-dir', dir], { env: serviceEnv });
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/^wrote .*report\.html: 12 adverts over 41 days, \d+ need attention\n$/);
  html = readFileSync(page, 'utf8');
});

describe('jobs report in a real browser', () => {
  it('is one self-contained page: no external source, and the hostile reference escaped', () => {
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:|\/\/)/i);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toContain(HOSTILE);
    // In the attention list, and in the table's data.
    expect(html).toContain('<strong>&#60;/script&#62;&#60;img src=x onerror=alert(1)&#62;</strong>');
    expect(html).toContain('"\\u003c/script>\\u003cimg src=x onerror=alert(1)>"');
    expect(html.match(/<\/script>/g)!.length).toBe(2);
  });

  it('runs its script without console errors and draws every advert with its trend', async () => {
    const run = await chromium(['--virtual-time-budget=5000', '--dump-dom', pathToFileURL(page).href]);
    expect(run.console).toEqual([]);
    expect(run.stdout).toContain('data-report="ready"');
    expect(run.stdout).not.toContain('data-report-error=');
    const rows = run.stdout.slice(run.stdout.indexOf('<tbody>'), run.stdout.indexOf('</tbody>'));
    expect(rows.match(/<tr/g)!.length).toBe(12);
    expect(rows.match(/<polyline/g)!.length).toBe(24);
    // The hostile reference is shown as text in its cell, not run.
    expect(rows).toContain('<td class="">&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</td>');
    // The default order: adverts needing attention first, most unviewed applications first.
    expect(rows.indexOf('ACME-0004')).toBeLessThan(rows.indexOf('ACME-0003'));
    expect(rows.indexOf('ACME-0003')).toBeLessThan(rows.indexOf('ACME-0001'));
  }, 120_000);

  it('renders charts: the screenshot is far from blank', async () => {
    const shot = join(mkdtempSync(join(tmpdir(), 'jobs-shot-')), 'report.png');
    const run = await chromium(['--virtual-time-budget=5000', '--window-size=1280,1400', `--screenshot=${shot}`, pathToFileURL(page).href]);
    expect(run.console).toEqual([]);
    const image = readPng(readFileSync(shot));
    expect([image.width, image.height]).toEqual([1280, 1400]);
    const { distinct, nonWhite } = colourStats(image);
    // A blank or error page has a handful of colours; charts, text and the funnel have hundreds.
    expect(distinct).toBeGreaterThan(200);
    expect(nonWhite).toBeGreaterThan(0.05 * image.width * image.height);
  }, 120_000);
});
