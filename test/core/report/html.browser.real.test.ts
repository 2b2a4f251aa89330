import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { History } from '../../../src/core/history/store.js';
import { writePublished } from '../../../src/core/published/record.js';
import { chromium } from '../../support/chromium.js';
import { colourStats, readPng } from '../../support/png.js';
import { runJobs, SERVICE, serviceEnv } from '../../commands/harness.js';
import { tempDir } from '../../support/temp-dirs.js';

const DAY = 86_400_000;
const HOSTILE = '</script><img src=x onerror=alert(1)>';
const HOSTILE_TITLE = '<img src=x onerror=alert(2)> Senior "Nurse"';
/** As many adverts as the report that had "53 need attention" and a 50-line list before its table. */
const COUNT = 53;

let dir: string;
let page: string;
let html: string;
let run: Awaited<ReturnType<typeof runJobs>>;

const reference = (i: number) => (i === 0 ? HOSTILE : `ACME-${String(i).padStart(4, '0')}`);
/** Titles as recruiters write them: some long enough to overflow a cell that wraps. */
const title = (i: number) =>
  i === 0 ? HOSTILE_TITLE : i % 5 === 0 ? `Senior Backend Engineer (Node.js, TypeScript, PostgreSQL) – Platform Team ${i}` : `Support Specialist ${i}`;

beforeAll(async () => {
  dir = tempDir('jobs-report-');
  const env = { ...serviceEnv, XDG_STATE_HOME: join(dir, 'state') };
  const history = new History(dir, SERVICE);
  const now = Date.now();
  for (let d = 40; d >= 0; d--) {
    history.append(
      Array.from({ length: COUNT }, (_, i) => {
        const views = (i + 1) * (40 - d) * 3;
        // Every third advert stops getting applications after day 20.
        const applications = i % 3 === 0 ? Math.min(20, 40 - d) : Math.floor((40 - d) / 2);
        // Every advert has applications waiting, as in the sandbox: ranked by how many.
        return { reference: reference(i), at: now - d * DAY, views, likes: Math.floor(views / 4), applications, applications_unviewed: 1 + (i % 7) };
      }),
    );
  }
  await writePublished(env, SERVICE, [
    ...Array.from({ length: COUNT }, (_, i) => ({ reference: reference(i), title: title(i) })),
    { reference: 'ACME-0013', deleted: true as const },
  ]);
  page = join(dir, 'report.html');
  run = await runJobs(['report', '--file', page, '--history-dir', dir], { env });
  html = readFileSync(page, 'utf8');
});

/** The page with a script of the test's own at its end that measures the layout into attributes of <html> (the CSP allows inline scripts). */
function measured(): string {
  const probe = `<script>(function(){var d=document.documentElement,q=function(s){return [].slice.call(document.querySelectorAll(s));};
var rows=q('#adverts tbody tr').map(function(r){return Math.round(r.getBoundingClientRect().height);});
var top=function(s){var e=document.querySelector(s);return e?Math.round(e.getBoundingClientRect().top+window.scrollY):-1;};
d.setAttribute('data-m-scroll-width',String(d.scrollWidth));
d.setAttribute('data-m-rows',String(rows.length));
var clipped=function(cell){var r=document.createRange();r.selectNodeContents(cell);var cs=getComputedStyle(cell);return r.getBoundingClientRect().width>cell.clientWidth-parseFloat(cs.paddingLeft)-parseFloat(cs.paddingRight);};
d.setAttribute('data-m-clipped-status',q('#adverts td.attn').filter(clipped).map(function(c){return c.textContent;}).join(','));
d.setAttribute('data-m-row-max',String(Math.max.apply(null,rows)));
d.setAttribute('data-m-attention',String(q('.attention li').length));
d.setAttribute('data-m-attention-top',String(top('.attention')));
d.setAttribute('data-m-table-top',String(top('#adverts')));
d.setAttribute('data-m-chart-tops',q('figure.chart').map(function(c){return Math.round(c.getBoundingClientRect().top);}).join(','));
d.setAttribute('data-m-y-ticks',q('figure.chart').map(function(c){return c.querySelectorAll('text.tick.y').length;}).join(','));
d.setAttribute('data-m-legend',(document.getElementById('trend-legend')||{}).textContent||'');
d.setAttribute('data-m-first-row',(q('#adverts tbody tr')[0]||{}).textContent||'');
d.setAttribute('data-m-spark-titles',String(q('#adverts tbody svg title').length));
// Last, as it sorts the table: each header, sorted by (so with its arrow), is whole.
d.setAttribute('data-m-clipped-heads',q('#adverts th').filter(function(h){h.click();return clipped(h)||h.scrollWidth>h.clientWidth;}).map(function(h){return h.textContent;}).join(','));
})();</script>`;
  const file = join(dir, 'measured.html');
  writeFileSync(file, html.replace('</body>', `${probe}</body>`));
  return file;
}

const attribute = (dom: string, name: string) => {
  const m = new RegExp(`${name}="([^"]*)"`).exec(dom);
  if (!m) throw new Error(`no ${name} in the dumped DOM`);
  return m[1]!
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
};

describe('jobs report in a real browser', () => {
  it('writes the page and says how many need attention', () => {
    expect(run.code).toBe(0);
    // ACME-0013 is recorded as deleted: counted apart, as the page marks it.
    expect(run.stderr).toBe(`wrote ${page}: ${COUNT - 1} adverts (and 1 deleted) over 41 days, ${COUNT - 1} need attention\n`);
  });

  it('is one self-contained page: no external source, and the hostile reference and title escaped', () => {
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:|\/\/)/i);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain('<img');
    // In the attention list (it has the most unviewed applications after the sixes), and in the table's data.
    expect(html).toContain('"\\u003c/script>\\u003cimg src=x onerror=alert(1)>"');
    expect(html).toContain('"\\u003cimg src=x onerror=alert(2)> Senior \\"Nurse\\""');
    expect(html.match(/<\/script>/g)!.length).toBe(2);
  });

  it('fits a 1280 px window: no sideways scroll, one line a row, the attention list short, ranked and before the table, charts in one row with scales', async () => {
    const result = await chromium(['--virtual-time-budget=5000', '--window-size=1280,800', '--dump-dom', pathToFileURL(measured()).href]);
    expect(result.console).toEqual([]);
    const dom = result.stdout;
    expect(dom).toContain('data-report="ready"');
    expect(dom).not.toContain('data-report-error=');
    expect(Number(attribute(dom, 'data-m-scroll-width'))).toBeLessThanOrEqual(1280);
    expect(Number(attribute(dom, 'data-m-rows'))).toBe(COUNT);
    // Every header and every status is whole (a title may end in "…": its cell's tooltip has it all).
    expect(attribute(dom, 'data-m-clipped-heads')).toBe('');
    expect(attribute(dom, 'data-m-clipped-status')).toBe('');
    // One line of 13 px text with its padding: a wrapped cell would make the row 50 px or more.
    expect(Number(attribute(dom, 'data-m-row-max'))).toBeLessThanOrEqual(36);
    expect(Number(attribute(dom, 'data-m-attention'))).toBe(5);
    expect(Number(attribute(dom, 'data-m-attention-top'))).toBeLessThan(Number(attribute(dom, 'data-m-table-top')));
    // The attention list fits on the first screen with the table's header.
    expect(Number(attribute(dom, 'data-m-table-top'))).toBeLessThan(800);
    const tops = attribute(dom, 'data-m-chart-tops').split(',');
    expect(tops).toHaveLength(4);
    expect(new Set(tops).size).toBe(1);
    expect(attribute(dom, 'data-m-y-ticks')).toBe('3,3,3,3');
    expect(attribute(dom, 'data-m-legend')).toMatch(
      /^Trend: views applications, each from its lowest to its highest value \(\d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\)$/,
    );
    expect(Number(attribute(dom, 'data-m-spark-titles'))).toBe(COUNT);
    // Ranked: the most unviewed applications first (7 waiting: i % 7 === 6), each named by its title beside its reference.
    const list = dom.slice(dom.indexOf('<ol class="attention">'), dom.indexOf('</ol>'));
    expect([...list.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|'))).toEqual([
      '|Support Specialist 6| |ACME-0006|7 unviewed applications waiting; views but no new applications for a week|',
      '|Senior Backend Engineer (Node.js, TypeScript, PostgreSQL) – Platform Team 20| |ACME-0020|7 unviewed applications waiting|',
      '|Support Specialist 27| |ACME-0027|7 unviewed applications waiting; views but no new applications for a week|',
      '|Support Specialist 34| |ACME-0034|7 unviewed applications waiting|',
      '|Support Specialist 41| |ACME-0041|7 unviewed applications waiting|',
    ]);
    expect(dom).toContain(`and ${COUNT - 1 - 5} more adverts: tick "needs attention only" in the table.`);
    // The table's first row: the first of the list, by title and reference.
    expect(attribute(dom, 'data-m-first-row')).toMatch(/^Support Specialist 6 ACME-0006/);
    // The deleted advert is shown as deleted, never as needing attention.
    const rows = dom.slice(dom.indexOf('<tbody>'), dom.indexOf('</tbody>'));
    expect(rows).toMatch(
      /<tr class="gone"><td title="Support Specialist 13 \(ACME-0013\)" class="">(?:(?!<\/tr>).)*<td title="deleted" class="attn">deleted<\/td><\/tr>/,
    );
    expect(list).not.toContain('ACME-0013');
    // The hostile title and reference are shown as text in their cell, not run.
    expect(rows).toContain(
      '<strong>&lt;img src=x onerror=alert(2)&gt; Senior "Nurse"</strong><span class="ref"> &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</span>',
    );
  }, 120_000);

  it('renders charts: the screenshot at 1280x800 is far from blank', async () => {
    const shot = join(tempDir('jobs-shot-'), 'report.png');
    const result = await chromium(['--virtual-time-budget=5000', '--window-size=1280,800', `--screenshot=${shot}`, pathToFileURL(page).href]);
    expect(result.console).toEqual([]);
    const image = readPng(readFileSync(shot));
    expect([image.width, image.height]).toEqual([1280, 800]);
    const { distinct, nonWhite } = colourStats(image);
    // A blank or error page has a handful of colours; cards, the list and the table have hundreds.
    expect(distinct).toBeGreaterThan(200);
    expect(nonWhite).toBeGreaterThan(0.05 * image.width * image.height);
    if (process.env.JOBS_KEEP_SHOT) writeFileSync(process.env.JOBS_KEEP_SHOT, readFileSync(shot));
  }, 120_000);
});
