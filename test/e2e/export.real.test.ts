/**
 * Issue 33 as a whole, through the built binary: a folder of YAML and Markdown adverts (one for two
 * places, one with dates, one remote, one closed, one hostile) through export jsonld, the
 * independent validator, preview in Chromium (a phone and a desktop), and export site, then the
 * next day's export after an advert has closed. Also what must stop it: a required property
 * missing (exit 3, at the line), an --out that is a file or holds a planted link (exit 2).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { advertYaml, SERVICE } from '../commands/harness.js';
import { markdownAdvert } from '../support/markdown-adverts.js';
import { writePublished } from '../../src/core/published/record.js';
import { errorsOf, structuredDataIssues } from '../support/structured-data.js';
import { openPage } from '../support/browser-page.js';

const HOSTILE_TITLE = '</script><script>alert("title")</script><!-- "><img src=x onerror=alert(2)>';
const HOSTILE_BODY = [
  '<script>alert("body")</script>',
  '',
  '[apply](javascript:alert("link")) <!-- comment --> <a href="javascript:alert(4)" onclick="alert(5)">x</a>',
  '',
  '"><svg onload=alert(6)> </script> </style><script>alert(7)</script>',
].join('\n');

let dir: string;
let env: Record<string, string>;
const run = (args: string[], extra: Record<string, string> = {}) => jobs(args, { cwd: dir, env: { ...env, ...extra }, timeoutMs: 30_000 });
/** A posting as read back: its nested values are checked with toMatchObject. */
type Posting = Record<string, unknown> & { identifier: { value: string } };
const ndjson = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Posting);
const byReference = (postings: Posting[]) => new Map(postings.map((p) => [p.identifier.value, p]));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobs-export-e2e-'));
  env = isolatedEnv({ JOBS_TODAY: '2026-11-27', JOBS_BASE_URL: SERVICE });
  mkdirSync(join(dir, 'adverts'));
  writeFileSync(
    join(dir, '.jobsrc.yaml'),
    'constants:\n  contract:\n    permanent: 1\n    temporary: 2\nexport:\n  employment_type:\n    permanent: FULL_TIME\n    "2": TEMPORARY\n',
  );
  // Where jobs.pay is given, salary_text is left out: the tool writes it from the pay (a salary_text that
  // disagreed with the pay would be an error, docs/rules.md).
  const payOnly = (text: string) => text.replace(/^salary_text: .*\n/m, '');
  // Two places, with pay.
  writeFileSync(
    join(dir, 'adverts/eng.yaml'),
    payOnly(advertYaml('ENG-1', 'jobs:\n  pay: { min: 650000, max: 750000, currency: NOK, per: year }\n')).replace(
      'location:\n  country: NO\n  city: Oslo\n',
      'locations:\n  - country: NO\n    city: Oslo\n  - country: NO\n    city: Bergen\n',
    ),
  );
  // Dates, Markdown, a contract mapped by id.
  writeFileSync(
    join(dir, 'adverts/nurse.md'),
    payOnly(markdownAdvert('NURSE-1', '## Night shifts\n\nCare for **patients**.\n'))
      .replace('title: Engineer', 'title: Night Nurse')
      .replace('contract_id: 1', 'contract_id: 2')
      .replace('---\n## Night', 'jobs:\n  opens: 2026-11-20\n  closes: 2026-11-30\n  pay: { min: 40, max: 40, currency: EUR, per: hour }\n---\n## Night'),
  );
  // Remote, from the rules format's places.
  writeFileSync(
    join(dir, 'adverts/remote.md'),
    payOnly(markdownAdvert('REM-1', 'Work from home.\n'))
      .replace('title: Engineer', 'title: Remote Engineer')
      .replace('location:\n  country: NO\n  city: Oslo\n', 'location:\n  country: US\n  state: CO\n  city: Denver\n')
      .replace(
        '---\nWork',
        'jobs:\n  closes: 2027-01-31\n  pay: { min: 120000, max: 150000, currency: USD, per: year }\n  remote: { from: [US-CO, US-NY, CA] }\n---\nWork',
      ),
  );
  // Closed yesterday.
  writeFileSync(join(dir, 'adverts/old.yaml'), advertYaml('OLD-1', 'jobs:\n  closes: 2026-11-26\n'));
  // Hostile text, and a 0-to-0 pay.
  writeFileSync(
    join(dir, 'adverts/hostile.md'),
    payOnly(markdownAdvert('HOST-1', HOSTILE_BODY))
      .replace('title: Engineer', `title: ${JSON.stringify(HOSTILE_TITLE)}`)
      .replace('---\n<script>', 'jobs:\n  pay: { min: 0, max: 0, currency: USD, per: year }\n---\n<script>'),
  );
  // Published before: datePosted and the sitemap's lastmod come from the record.
  await writePublished(env, SERVICE, [{ reference: 'ENG-1-oslo', title: 'Engineer' }], Date.parse('2026-11-02T09:00:00Z'));
  await writePublished(env, SERVICE, [{ reference: 'ENG-1-oslo', title: 'Engineer' }], Date.parse('2026-11-25T09:00:00Z'));
}, 30_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export jsonld', () => {
  let postings: Map<string, Posting>;
  let stderr: string;

  beforeAll(async () => {
    const r = await run(['export', 'jsonld', 'adverts/']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    postings = byReference(ndjson(r.stdout));
    stderr = r.stderr;
  });

  it('one JobPosting per advert and place; the closed advert left out, and the run says so', () => {
    expect([...postings.keys()].sort()).toEqual(['ENG-1-bergen', 'ENG-1-oslo', 'HOST-1', 'NURSE-1', 'REM-1']);
    expect(stderr).toContain('⚠ adverts/old.yaml:19:11: jobs.closes: closed on 2026-11-26: not exported');
    expect(stderr).toMatch(/exported 5 postings from 5 files to stdout \(1 closed advert left out, \d+ warnings\)/);
  });

  it('datePosted from the record (first published), else opens, else today; validThrough, baseSalary, employmentType from the config', () => {
    expect(postings.get('ENG-1-oslo')).toMatchObject({
      datePosted: '2026-11-02',
      employmentType: 'FULL_TIME',
      jobLocation: { address: { addressLocality: 'Oslo', addressCountry: 'NO' } },
      baseSalary: { currency: 'NOK', value: { minValue: 650000, maxValue: 750000, unitText: 'YEAR' } },
    });
    expect(postings.get('ENG-1-bergen')).toMatchObject({ datePosted: '2026-11-27', jobLocation: { address: { addressLocality: 'Bergen' } } });
    expect(postings.get('NURSE-1')).toMatchObject({
      datePosted: '2026-11-20',
      validThrough: '2026-11-30T23:59:59Z',
      employmentType: 'TEMPORARY',
      description: '<h2>Night shifts</h2>\n<p>Care for <strong>patients</strong>.</p>',
      baseSalary: { value: { value: 40, unitText: 'HOUR' } },
    });
    expect(postings.get('REM-1')).toMatchObject({
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: [
        { '@type': 'State', name: 'US-CO' },
        { '@type': 'State', name: 'US-NY' },
        { '@type': 'Country', name: 'CA' },
      ],
    });
    expect(postings.get('REM-1')!.jobLocation).toBeUndefined();
  });

  it('a 0-to-0 pay is a warning and no baseSalary; missing recommended properties are warnings at the advert', () => {
    expect(postings.get('HOST-1')!.baseSalary).toBeUndefined();
    expect(stderr).toContain('⚠ adverts/hostile.md:18:8: jobs.pay: jobs.pay looks like a placeholder (0 to 0), not a pay: it is left out of baseSalary');
    // Said once for the fields two places share.
    expect(stderr.split('\n').filter((l) => l.startsWith('⚠ adverts/eng.yaml:20:3: jobs: Google recommends validThrough: add jobs.closes'))).toHaveLength(1);
  });

  it('every posting passes the independent validator (no error)', async () => {
    for (const [reference, posting] of postings) expect(errorsOf(await structuredDataIssues(posting)), reference).toEqual([]);
  });

  it('--out: a .jsonld file each, the same postings', async () => {
    const r = await run(['export', 'jsonld', 'adverts/', '--out', 'out/jsonld']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(join(dir, 'out/jsonld')).sort()).toEqual([
      '.jobs-manifest.json',
      '.prettierrc.yaml',
      'ENG-1-bergen.jsonld',
      'ENG-1-oslo.jsonld',
      'HOST-1.jsonld',
      'NURSE-1.jsonld',
      'REM-1.jsonld',
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'out/jsonld/REM-1.jsonld'), 'utf8'))).toEqual(postings.get('REM-1'));
  });
});

describe('preview in Chromium', () => {
  const PROBE = `(() => {
    const box = (s) => { const e = document.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
    const ld = document.querySelectorAll('script[type="application/ld+json"]');
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, innerHeight, title: box('h1'), pay: box('.pay'), jsonld: ld.length === 1 ? JSON.parse(ld[0].textContent) : null, h1: document.querySelector('h1').textContent, scripts: document.scripts.length, links: [...document.links].map((a) => a.href) };
  })()`;
  type Probe = {
    scrollWidth: number;
    innerWidth: number;
    innerHeight: number;
    title: { bottom: number } | null;
    pay: { bottom: number } | null;
    jsonld: unknown;
    h1: string;
    scripts: number;
    links: string[];
  };
  let postings: Map<string, Posting>;

  beforeAll(async () => {
    postings = byReference(ndjson((await run(['export', 'jsonld', 'adverts/'])).stdout));
  });

  it.each([
    ['remote.md', 'REM-1'],
    ['nurse.md', 'NURSE-1'],
    ['hostile.md', 'HOST-1'],
    ['eng.yaml', 'ENG-1-oslo'],
  ])(
    "%s: no sideways scroll at 390 and 1280 px, title and pay on the first screen, the JSON-LD equals export jsonld's, nothing runs",
    async (file, reference) => {
      const r = await run(['preview', `adverts/${file}`]);
      expect(r.code, r.stderr).toBe(0);
      const page = join(dir, '.jobs/preview', `${reference}.html`);
      expect(r.stdout).toContain(`.jobs/preview/${reference}.html`);
      const html = readFileSync(page, 'utf8');
      expect(html).toContain("default-src 'none'");
      expect(html).not.toMatch(/\b(src|href)=["']?(https?:|\/\/)(?!acme)/i);
      const { results, events } = await openPage<Probe>(
        pathToFileURL(page).href,
        [
          { width: 390, height: 800 },
          { width: 1280, height: 800 },
        ],
        PROBE,
      );
      expect(events).toEqual([]);
      for (const { width, height, value } of results) {
        expect(value.innerWidth).toBe(width);
        expect(value.scrollWidth, `${reference} at ${width}`).toBeLessThanOrEqual(width);
        expect(value.title!.bottom).toBeLessThanOrEqual(height);
        expect(value.pay, `${reference}: its pay is shown`).not.toBeNull();
        expect(value.pay!.bottom).toBeLessThanOrEqual(height);
        expect(value.jsonld).toEqual(postings.get(reference));
        // The JSON-LD is data: the only script element, and none of the advert's text became one.
        expect(value.scripts).toBe(1);
        expect(value.links.filter((l) => !/^(https:|mailto:)/.test(l))).toEqual([]);
      }
      if (reference === 'HOST-1') expect(results[0]!.value.h1).toBe(HOSTILE_TITLE);
    },
    120_000,
  );

  it('the listeners see a script that does run (so the test above can fail)', async () => {
    const page = join(dir, 'unsafe.html');
    writeFileSync(page, '<!doctype html><title>x</title><script>console.log("ran");alert("ran")</script>');
    const { events } = await openPage<number>(pathToFileURL(page).href, [{ width: 390, height: 800 }], '1');
    expect(events).toEqual(['console.log: ran', 'dialog.alert: ran']);
  }, 60_000);
});

describe('export site', () => {
  const site = () => join(dir, 'out/site');

  it('an index of open adverts, a page per advert and place, sitemap.xml with lastmod from the record; files of the user kept', async () => {
    mkdirSync(site(), { recursive: true });
    writeFileSync(join(site(), 'robots.txt'), 'User-agent: *\n');
    const r = await run(['export', 'site', 'adverts/', '--out', 'out/site', '--site-url', 'https://example.com/careers/']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(site()).sort()).toEqual([
      '.jobs-manifest.json',
      '.prettierrc.yaml',
      'ENG-1-bergen.html',
      'ENG-1-oslo.html',
      'HOST-1.html',
      'NURSE-1.html',
      'REM-1.html',
      'index.html',
      'robots.txt',
      'sitemap.xml',
    ]);
    const index = readFileSync(join(site(), 'index.html'), 'utf8');
    expect(index).toContain('5 open positions');
    expect(index).toContain('<a href="NURSE-1.html">Night Nurse</a>');
    expect(index).not.toContain('OLD-1');
    const sitemap = readFileSync(join(site(), 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('<loc>https://example.com/careers/ENG-1-oslo.html</loc>\n    <lastmod>2026-11-25T09:00:00.000Z</lastmod>');
    expect(sitemap.match(/<loc>/g)).toHaveLength(6);
  });

  it("the next export after the nurse's advert closed: its page and sitemap entry are gone, the rest stays", async () => {
    const r = await run(['export', 'site', 'adverts/', '--out', 'out/site', '--site-url', 'https://example.com/careers/'], { JOBS_TODAY: '2026-12-01' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('adverts/nurse.md');
    expect(r.stderr).toContain('closed on 2026-11-30: not exported');
    expect(r.stderr).toMatch(/\(2 closed adverts left out, 1 file of adverts no longer exported removed/);
    expect(existsSync(join(site(), 'NURSE-1.html'))).toBe(false);
    expect(existsSync(join(site(), 'robots.txt'))).toBe(true);
    expect(readFileSync(join(site(), 'sitemap.xml'), 'utf8')).not.toContain('NURSE-1');
    expect(readFileSync(join(site(), 'index.html'), 'utf8')).toContain('4 open positions');
  });

  it('needs the address it will be served from (exit 2)', async () => {
    const r = await run(['export', 'site', 'adverts/', '--out', 'out/other']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--site-url');
    expect(existsSync(join(dir, 'out/other'))).toBe(false);
    expect((await run(['export', 'site', 'adverts/', '--out', 'out/other', '--site-url', 'javascript:alert(1)'])).code).toBe(2);
  });
});

describe('what stops an export', () => {
  it("a required property missing: exit 3, at the line, in validate's format, nothing written", async () => {
    const bad = mkdtempSync(join(tmpdir(), 'jobs-export-bad-'));
    writeFileSync(join(bad, 'nowhere.yaml'), advertYaml('NOWHERE-1', 'jobs:\n  remote:\n    from: []\n'));
    writeFileSync(join(bad, 'fine.yaml'), advertYaml('FINE-1'));
    const r = await jobs(['export', 'jsonld', '.', '--out', 'out'], { cwd: bad, env });
    expect(r.code).toBe(3);
    // An empty list of places is refused by the advert schema itself (jobs.remote.from needs one), as in validate.
    expect(r.stdout).toContain('nowhere.yaml:20:11: jobs.remote.from: lists nothing: write at least 1 item');
    expect(r.stderr).toContain('nothing was exported');
    expect(existsSync(join(bad, 'out'))).toBe(false);
    // An invalid advert is an error as in validate.
    writeFileSync(join(bad, 'nowhere.yaml'), advertYaml('NOWHERE-1').replace('seniority: 0', 'seniority: -1'));
    const invalid = await jobs(['export', 'jsonld', '.'], { cwd: bad, env });
    expect(invalid.code).toBe(3);
    expect(invalid.stdout).toMatch(/nowhere\.yaml:11:12: seniority: /);
    rmSync(bad, { recursive: true, force: true });
  });

  it('an --out that is a file, or a link planted in it: exit 2, nothing followed', async () => {
    writeFileSync(join(dir, 'a-file'), 'mine');
    const file = await run(['export', 'jsonld', 'adverts/', '--out', 'a-file']);
    expect(file.code).toBe(2);
    expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('mine');
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'precious');
    rmSync(join(dir, 'out/jsonld/REM-1.jsonld'));
    symlinkSync(target, join(dir, 'out/jsonld/REM-1.jsonld'));
    const planted = await run(['export', 'jsonld', 'adverts/', '--out', 'out/jsonld']);
    expect(planted.code).toBe(2);
    expect(planted.stderr).toContain('REM-1.jsonld (a symbolic link) stands where');
    expect(readFileSync(target, 'utf8')).toBe('precious');
    // A file of the user's with a name the export writes: left alone, unless --force.
    rmSync(join(dir, 'out/jsonld/REM-1.jsonld'));
    mkdirSync(join(dir, 'out/mine'));
    writeFileSync(join(dir, 'out/mine/REM-1.jsonld'), 'my own');
    const user = await run(['export', 'jsonld', 'adverts/', '--out', 'out/mine']);
    expect(user.code).toBe(2);
    expect(user.stderr).toContain('already has REM-1.jsonld, not written by jobs');
    expect(readFileSync(join(dir, 'out/mine/REM-1.jsonld'), 'utf8')).toBe('my own');
  });
});
