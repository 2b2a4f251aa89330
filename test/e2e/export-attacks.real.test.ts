/**
 * export jsonld, export site and preview as a careless recruiter, a hostile pull request and an
 * unkind disk meet them, through the built binary: two exports sharing a folder, a disk that fills
 * or is read-only part way, hostile remote places, text that would end a script element where the
 * JSON-LD is pasted, Windows device names as references, unclear refusals, a browser that is not
 * there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { advertYaml, SERVICE } from '../commands/harness.js';
import { publishedRecordFile, writePublished } from '../../src/core/published/record.js';
import { mountTmpfs, type Tmpfs } from '../support/tmpfs.js';

const SITE = 'https://example.com/careers/';
let dir: string;
let env: Record<string, string>;
const run = (args: string[], extra: Record<string, string> = {}) => jobs(args, { cwd: dir, env: { ...env, ...extra }, timeoutMs: 30_000 });
const files = (folder: string) => readdirSync(join(dir, folder)).sort();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobs-export-attacks-'));
  env = isolatedEnv({ JOBS_TODAY: '2026-11-27' });
  mkdirSync(join(dir, 'adverts'));
  writeFileSync(join(dir, 'adverts/a.yaml'), advertYaml('A-1'));
  writeFileSync(join(dir, 'adverts/b.yaml'), advertYaml('B-1'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(env.HOME!, { recursive: true, force: true });
});

describe('two exports into one folder', () => {
  it("a site and its JSON-LD share a folder: neither removes the other's files", async () => {
    expect((await run(['export', 'site', 'adverts', '--out', 'shared', '--site-url', SITE])).code).toBe(0);
    const jsonld = await run(['export', 'jsonld', 'adverts', '--out', 'shared']);
    expect(jsonld.code, jsonld.stderr).toBe(0);
    expect(jsonld.stderr).not.toContain('removed');
    const both = ['.jobs-manifest.json', '.prettierrc.yaml', 'A-1.html', 'A-1.jsonld', 'B-1.html', 'B-1.jsonld', 'index.html', 'sitemap.xml'];
    expect(files('shared')).toEqual(both);
    expect((await run(['export', 'site', 'adverts', '--out', 'shared', '--site-url', SITE])).code).toBe(0);
    expect(files('shared')).toEqual(both);
    // Each still removes its own files of an advert no longer exported.
    writeFileSync(join(dir, 'adverts/b.yaml'), advertYaml('B-1', 'jobs:\n  closes: 2026-11-26\n'));
    expect((await run(['export', 'jsonld', 'adverts', '--out', 'shared'])).code).toBe(0);
    expect(files('shared')).toEqual(both.filter((f) => f !== 'B-1.jsonld'));
    expect((await run(['export', 'site', 'adverts', '--out', 'shared', '--site-url', SITE])).code).toBe(0);
    expect(files('shared')).toEqual(both.filter((f) => !f.startsWith('B-1')));
    writeFileSync(join(dir, 'adverts/b.yaml'), advertYaml('B-1'));
  });
});

describe('an unkind disk', () => {
  let disk: Tmpfs;
  beforeAll(() => {
    disk = mountTmpfs(64);
  });
  afterAll(() => disk.unmount());

  it("a disk that fills part way: the pages written are known as the tool's, so the next run replaces them", async () => {
    const adverts = join(dir, 'many');
    mkdirSync(adverts);
    for (let i = 0; i < 40; i++)
      writeFileSync(join(adverts, `a${i}.yaml`), advertYaml(`M-${i}`).replace(/^job_description: .*$/m, `job_description: ${'x'.repeat(3000)}`));
    const out = join(disk.dir, 'site');
    const full = await run(['export', 'site', adverts, '--out', out, '--site-url', SITE]);
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/the disk is full \(ENOSPC\)/);
    const partial = readdirSync(out).filter((f) => f.endsWith('.html'));
    expect(partial.length).toBeGreaterThan(0);
    // Room is made (a bigger disk): the pages of the run that failed are the tool's, not the user's.
    const grown = spawnSync('mount', ['-o', 'remount,size=2048k', disk.dir], { encoding: 'utf8' });
    expect(grown.status, grown.stderr).toBe(0);
    const again = await run(['export', 'site', adverts, '--out', out, '--site-url', SITE]);
    expect(again.stderr).not.toContain('not written by');
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(out).filter((f) => f.endsWith('.html'))).toHaveLength(41);
  });

  it('a read-only disk is said to be read-only', async () => {
    disk.readOnly();
    try {
      const r = await run(['export', 'site', 'adverts', '--out', join(disk.dir, 'new/site'), '--site-url', SITE]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('the file system is read-only (EROFS)');
    } finally {
      disk.readWrite();
    }
  });
});

describe('hostile and careless advert text', () => {
  it('a remote place that is not a place code is an error at jobs.remote.from, not a nameless place in the JSON-LD', async () => {
    const folder = join(dir, 'remote');
    mkdirSync(folder);
    writeFileSync(join(folder, 'r.yaml'), advertYaml('R-1', "jobs:\n  remote: { from: ['', US-CO, us-ny, 'US-NY/-', '<script>'] }\n"));
    const r = await run(['export', 'jsonld', 'remote']);
    expect(r.code).toBe(3);
    // The advert schema's own check of places (the rules by place read them too) refuses each at its item.
    const unknown = (column: number, i: number) =>
      `✖ remote/r.yaml:19:${column}: jobs.remote.from.${i}: is not a place jobs knows: write an ISO 3166-1 code (US), an ISO 3166-2 code (US-CO), or a city place that \`jobs-cli rules\` lists (US-NY/new-york-city) [unknown_place]`;
    expect(r.stdout).toBe([unknown(20, 0), unknown(31, 2), unknown(38, 3), unknown(49, 4)].join('\n') + '\n');
  });

  it('a title with </script>, <!-- and U+2028 cannot end the script element the .jsonld file or NDJSON line is pasted into', async () => {
    const folder = join(dir, 'hostile');
    mkdirSync(folder);
    const title = 'Dev</script><script>alert(1)</script><!--\u2028a\u2029b';
    writeFileSync(join(folder, 'h.yaml'), advertYaml('H-1').replace('title: Engineer', `title: ${JSON.stringify(title)}`));
    const ndjson = await run(['export', 'jsonld', 'hostile']);
    expect(ndjson.code).toBe(0);
    const file = await run(['export', 'jsonld', 'hostile', '--out', 'hostile-out']);
    expect(file.code).toBe(0);
    for (const text of [ndjson.stdout, readFileSync(join(dir, 'hostile-out/H-1.jsonld'), 'utf8')]) {
      expect(text).not.toMatch(/[<\u2028\u2029]/);
      expect((JSON.parse(text) as { title: string }).title).toBe(title);
    }
    // One posting, one line, also for a reader that splits lines at U+2028 (Python's splitlines).
    expect(ndjson.stdout.split(/\r?\n|\u2028|\u2029/).filter((l) => l !== '')).toHaveLength(1);
  });
});

describe('refusals that say what is wrong', () => {
  it('--out naming a file: the file is kept, and the message says --out is a folder', async () => {
    writeFileSync(join(dir, 'postings.jsonld'), 'mine');
    const r = await run(['export', 'jsonld', 'adverts', '--out', 'postings.jsonld']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('postings.jsonld is a file, not a folder; nothing was written\n  --out names the folder to write the JSON-LD files into');
    expect(readFileSync(join(dir, 'postings.jsonld'), 'utf8')).toBe('mine');
  });

  it('a link planted at .jobs/preview (the default folder): refused as a link, and nothing is written where it points', async () => {
    mkdirSync(join(dir, 'elsewhere'));
    mkdirSync(join(dir, '.jobs'), { recursive: true });
    symlinkSync('../elsewhere', join(dir, '.jobs/preview'));
    try {
      const r = await run(['preview', 'adverts/a.yaml']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        '.jobs/preview is a symbolic link, not a folder; nothing was written\n  a link in the place of the folder is never followed: remove it, or choose another folder with --out',
      );
      expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
    } finally {
      rmSync(join(dir, '.jobs'), { recursive: true, force: true });
    }
  });

  it('a link planted at .jobs-manifest.json is named as the link, not as the folder; its target untouched', async () => {
    mkdirSync(join(dir, 'linked'));
    writeFileSync(join(dir, 'precious.txt'), 'precious');
    symlinkSync('../precious.txt', join(dir, 'linked/.jobs-manifest.json'));
    const r = await run(['export', 'site', 'adverts', '--out', 'linked', '--site-url', SITE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'cannot write the careers site into linked: linked/.jobs-manifest.json is a symbolic link, never followed or replaced; nothing was written',
    );
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('precious');
    expect(readdirSync(join(dir, 'linked'))).toEqual(['.jobs-manifest.json']);
  });
});

describe('preview --open', () => {
  it('with a desktop but no opener installed: the run says the page was not opened, and --json says so', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'jobs-no-opener-'));
    try {
      const desktop = { DISPLAY: ':99', PATH: empty };
      const r = await run(['preview', 'adverts/a.yaml', '--open'], desktop);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/warning: the page was not opened: xdg-open was not found \(is it installed, and on PATH\?\); open \S+A-1\.html yourself/);
      const json = await run(['preview', 'adverts/a.yaml', '--open', '--json'], desktop);
      expect((JSON.parse(json.stdout) as { opened: boolean }).opened).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('file names from references', () => {
  it('references that are Windows device names (CON, nul, COM1.txt) get pages a Windows checkout can hold, linked from the index', async () => {
    const folder = join(dir, 'devices');
    mkdirSync(folder);
    for (const reference of ['CON', 'nul', 'COM1.txt']) writeFileSync(join(folder, `${reference.replace('.', '-')}.yaml`), advertYaml(reference));
    const r = await run(['export', 'site', 'devices', '--out', 'devices-site', '--site-url', SITE]);
    expect(r.code, r.stderr).toBe(0);
    expect(files('devices-site')).toEqual(['.jobs-manifest.json', '.prettierrc.yaml', 'COM1_.txt.html', 'CON_.html', 'index.html', 'nul_.html', 'sitemap.xml']);
    const index = readFileSync(join(dir, 'devices-site/index.html'), 'utf8');
    for (const page of ['COM1_.txt.html', 'CON_.html', 'nul_.html']) expect(index).toContain(`href="${page}"`);
  });
});

describe('a damaged record of published adverts', () => {
  it("a time in it that is no datetime is no sitemap lastmod; a record that cannot be read is said, not silently today's date", async () => {
    const withService = { JOBS_BASE_URL: SERVICE };
    await writePublished({ ...env, ...withService }, SERVICE, [{ reference: 'A-1', title: 'Engineer' }], Date.parse('2026-11-02T09:00:00Z'));
    const file = publishedRecordFile({ ...env, ...withService }, SERVICE);
    const record = JSON.parse(readFileSync(file, 'utf8')) as { adverts: Record<string, { published_at: string }> };
    record.adverts['A-1']!.published_at = 'garbage</lastmod>\u2028';
    writeFileSync(file, JSON.stringify(record));
    const site = await run(['export', 'site', 'adverts', '--out', 'record-site', '--site-url', SITE], withService);
    expect(site.code, site.stderr).toBe(0);
    const sitemap = readFileSync(join(dir, 'record-site/sitemap.xml'), 'utf8');
    expect(sitemap).not.toContain('garbage');
    expect(sitemap).not.toContain('<lastmod>');

    writeFileSync(file, '{"version": 1, "adv');
    const r = await run(['export', 'jsonld', 'adverts'], withService);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: the record of published adverts \S+ could not be read \(.+\): datePosted comes from jobs\.opens or today, and sitemap\.xml has no lastmod/,
    );
  });
});

describe('--site-url', () => {
  it('with a password: refused without printing it (sitemap.xml is public); with ? or #: refused, the address meant is shown', async () => {
    const secret = await run(['export', 'site', 'adverts', '--out', 'url-site', '--site-url', 'https://staging:s3cret@example.com/careers/']);
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain(
      '--site-url has a user name or password in it, and sitemap.xml is public: write it without them, https://example.com/careers/',
    );
    expect(secret.stderr).not.toContain('s3cret');
    const query = await run(['export', 'site', 'adverts', '--out', 'url-site', '--site-url', 'https://example.com/careers?from=jobs']);
    expect(query.code).toBe(2);
    expect(query.stderr).toContain('so it has no ? or #: write https://example.com/careers');
    expect(existsSync(join(dir, 'url-site'))).toBe(false);
    const bare = await run(['export', 'site', 'adverts', '--out', 'url-site', '--site-url', 'https://example.com/careers/?#']);
    expect(bare.code, bare.stderr).toBe(0);
    expect(readFileSync(join(dir, 'url-site/sitemap.xml'), 'utf8')).toContain('<loc>https://example.com/careers/A-1.html</loc>');
  });
});

describe('a placeholder currency', () => {
  it('pay in XXX (ISO 4217 keeps it for no currency) is refused at its line as no currency, so nothing is exported', async () => {
    const folder = join(dir, 'xxx');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'x.yaml'),
      advertYaml('X-1', 'jobs:\n  pay: { min: 0.5, max: 0.7, currency: XXX, per: hour }\n').replace(/^salary_text: .*\n/m, ''),
    );
    const r = await run(['export', 'jsonld', 'xxx']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(
      'xxx/x.yaml:18:40: jobs.pay.currency: XXX is not an ISO 4217 currency code (ISO keeps it for "no currency" and tests): write the pay\'s currency as its three-letter code',
    );
    expect(r.stderr).toContain('nothing was exported');
  });
});

describe('text that shows nothing', () => {
  it('a title, company or description of zero-width and bidi characters only is missing, as Google would show it: exit 3 at its line', async () => {
    const folder = join(dir, 'invisible');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'i.yaml'),
      advertYaml('I-1')
        .replace('title: Engineer', 'title: "\\u200b"')
        .replace('organization_name: ACME', 'organization_name: "\\u2060\\u200e"')
        .replace('job_description: Build robots.', 'job_description: "\\ufeff\\u200b"'),
    );
    const r = await run(['export', 'jsonld', 'invisible']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('✖ invisible/i.yaml:2:8: title: Google requires title: the title shows no text; write the job title [required:title]');
    expect(r.stdout).toContain(
      "✖ invisible/i.yaml:3:20: organization_name: Google requires hiringOrganization: the organization_name shows no text; write the company's name",
    );
    expect(r.stdout).toContain('✖ invisible/i.yaml:5:18: job_description: Google requires description: the job description shows no text once rendered');
  });
});
