import { describe, expect, it } from 'vitest';
import { pageNames, siteFiles } from '../../../src/core/export/site.js';
import type { ExportItem } from '../../../src/core/export/read-postings.js';
import { advertBody } from '../../commands/harness.js';

const item = (reference: string, over: Partial<ExportItem> = {}): ExportItem => ({
  reference,
  file: 'a.yaml',
  line: 1,
  posting: { '@context': 'https://schema.org', '@type': 'JobPosting', title: reference },
  payload: { ...advertBody(reference), title: `Job ${reference}` },
  facts: {},
  placeholderPay: false,
  ...over,
});

describe('the careers site', () => {
  it('names pages after references: odd characters made -, never a path, never the index; names that meet get -2', () => {
    const names = pageNames(['ACME-1', '../etc/passwd', 'a b/c', 'index', 'acme-1', '<script>', '...', 'Ünïcode']);
    expect(Object.fromEntries(names)).toEqual({
      'ACME-1': 'ACME-1',
      'acme-1': 'acme-1-2',
      '../etc/passwd': 'etc-passwd',
      'a b/c': 'a-b-c',
      index: 'index-2',
      '<script>': 'script-',
      '...': 'advert',
      Ünïcode: 'Unicode',
    });
  });

  it('a name Windows keeps for a device, with any extension, gets a _ (a file named CON.html cannot be checked out there)', () => {
    expect(Object.fromEntries(pageNames(['CON', 'nul', 'Com1.txt', 'LPT9', 'CONSOLE', 'con_']))).toEqual({
      CON: 'CON_',
      nul: 'nul_',
      'Com1.txt': 'Com1_.txt',
      LPT9: 'LPT9_',
      CONSOLE: 'CONSOLE',
      con_: 'con_-2',
    });
  });

  it('an index of the adverts, a page each that links back, and a sitemap with lastmod from the published record', () => {
    const files = siteFiles(
      [item('B-2', { lastPublished: '2026-11-20T10:00:00.000Z' }), item('A & 1', { lastPublished: '2026-11-25T08:00:00.000Z' }), item('C-3')],
      {
        siteUrl: 'https://example.com/careers',
      },
    );
    expect([...files.keys()].sort()).toEqual(['A-1.html', 'B-2.html', 'C-3.html', 'index.html', 'sitemap.xml']);
    expect(files.get('index.html')).toContain('<a href="A-1.html">Job A &#38; 1</a>');
    expect(files.get('B-2.html')).toContain('<a href="index.html">All jobs</a>');
    expect(files.get('sitemap.xml')).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.com/careers/</loc>
    <lastmod>2026-11-25T08:00:00.000Z</lastmod>
  </url>
  <url>
    <loc>https://example.com/careers/A-1.html</loc>
    <lastmod>2026-11-25T08:00:00.000Z</lastmod>
  </url>
  <url>
    <loc>https://example.com/careers/B-2.html</loc>
    <lastmod>2026-11-20T10:00:00.000Z</lastmod>
  </url>
  <url>
    <loc>https://example.com/careers/C-3.html</loc>
  </url>
</urlset>
`);
  });
});
