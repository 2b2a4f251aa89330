/**
 * A careers site as a static folder: one page per open advert and place (the preview page), an
 * index of them, and a sitemap.xml whose lastmod is when each advert was last published (the record
 * of published adverts). Pages are named after references (pageNames); the folder itself is
 * written by storage/output-folder.ts, which removes the pages of adverts no longer exported (a
 * closed advert leaves the site, and so search, with the next export).
 */
import { escapeHtml, pageHead } from '../report/html.js';
import { htmlText } from './description.js';
import { advertPage, CSS, shownPay, shownPlace } from './page.js';
import type { ExportItem } from './read-postings.js';

/** Names the site's own files take: a reference never gets them. */
const RESERVED = ['index', 'sitemap'];

/** A name Windows keeps for a device, with any extension (`CON.html`, `nul.jsonld`): such a file cannot be checked out or copied there. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(?=\.|$)/i;

/**
 * A file name per reference (without extension), stable across runs: the reference with anything
 * but letters, digits, `.`, `_` and `-` made `-`; two that differ only in case or in those
 * characters get `-2`, `-3`, in reference order. A name Windows keeps for a device gets a `_` (`CON_`).
 */
export function pageNames(references: readonly string[]): Map<string, string> {
  const used = new Set(RESERVED);
  const names = new Map<string, string>();
  for (const reference of [...references].sort()) {
    const base =
      reference
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[._-]+/, '')
        .slice(0, 120)
        .replace(WINDOWS_DEVICE, '$1_') || 'advert';
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    used.add(name.toLowerCase());
    names.set(reference, name);
  }
  return names;
}

export interface SiteOptions {
  /** Where the folder is served from (absolute, for the sitemap): `https://example.com/careers/`. */
  siteUrl: string;
  /** The page heading of the index. */
  title?: string;
}

/** The site's files: name -> content. */
export function siteFiles(items: readonly ExportItem[], options: SiteOptions): Map<string, string> {
  const names = pageNames(items.map((i) => i.reference));
  const files = new Map<string, string>();
  const sorted = [...items].sort((a, b) => String(a.payload.title).localeCompare(String(b.payload.title)) || (a.reference < b.reference ? -1 : 1));
  for (const item of sorted) files.set(`${names.get(item.reference)!}.html`, advertPage(item, { index: 'index.html' }));
  files.set('index.html', indexPage(sorted, names, options.title ?? 'Open positions'));
  files.set('sitemap.xml', sitemap(sorted, names, options.siteUrl));
  return files;
}

function indexPage(items: readonly ExportItem[], names: ReadonlyMap<string, string>, title: string): string {
  const rows = items
    .map((item) => {
      const pay = shownPay(item);
      const meta = [String(item.payload.organization_name ?? ''), shownPlace(item), pay ?? ''].filter((p) => p !== '').join(' · ');
      return `<li><a href="${escapeHtml(encodeURIComponent(names.get(item.reference)!))}.html">${htmlText(String(item.payload.title ?? item.reference))}</a><span class="meta">${htmlText(meta)}</span></li>`;
    })
    .join('\n');
  return `${pageHead({ title: htmlText(title), css: CSS, scripts: false })}<main>
<header><h1>${htmlText(title)}</h1><p class="company">${items.length === 0 ? 'No open positions right now.' : `${items.length} open position${items.length === 1 ? '' : 's'}`}</p></header>
<ul class="jobs">
${rows}
</ul>
</main>
</body>
</html>
`;
}

const xml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function sitemap(items: readonly ExportItem[], names: ReadonlyMap<string, string>, siteUrl: string): string {
  const base = siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`;
  const latest = items
    .map((i) => i.lastPublished)
    .filter((t): t is string => t !== undefined)
    .sort()
    .at(-1);
  const url = (loc: string, lastmod: string | undefined) =>
    `  <url>\n    <loc>${xml(loc)}</loc>\n${lastmod === undefined ? '' : `    <lastmod>${xml(lastmod)}</lastmod>\n`}  </url>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${url(base, latest)}${items.map((i) => url(`${base}${encodeURIComponent(names.get(i.reference)!)}.html`, i.lastPublished)).join('')}</urlset>
`;
}
