/** export jsonld | site: JobPostings from advert files, as NDJSON, .jsonld files, or a static careers site. */
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { writeOutputFolder } from '../../../core/storage/output-folder.js';
import { pageNames, siteFiles } from '../../../core/export/site.js';
import { UsageError } from '../../../core/errors/failures.js';
import { embedJson } from '../../../core/report/html.js';
import { displayPath } from '../../../core/config/paths.js';
import { plural } from '../../../core/util/plural.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { isJson, writeJson } from '../../output/command-io.js';
import { jsonParts, outputFolderError, postingsOf, writeExportWarnings } from './read.js';
import type { Postings } from '../../../core/export/read-postings.js';

export interface JsonldFlags {
  out?: string;
  force?: boolean;
}

export interface SiteFlags {
  out: string;
  siteUrl?: string;
  title: string;
  force?: boolean;
}

// The postings are written as a page embeds them (embedJson): a `.jsonld` file or line pasted into a
// careers site's <script type="application/ld+json"> cannot be ended by a `</script>` in a title.
export async function runExportJsonld(ctx: Context, paths: string[], flags: JsonldFlags): Promise<number> {
  if (flags.out !== undefined && flags.out.trim() === '') throw new UsageError('--out: expected a folder');
  const postings = await postingsOf(ctx, paths);
  writeExportWarnings(ctx, postings);
  if (flags.out === undefined) {
    if (isJson(ctx))
      writeJson(ctx, { command: 'export jsonld', postings: postings.items.map((i) => i.posting), written: [], removed: [], ...jsonParts(postings) });
    else for (const item of postings.items) ctx.io.stdout.write(`${embedJson(item.posting)}\n`);
    summary(ctx, postings, 'to stdout');
    return 0;
  }
  const dir = resolve(ctx.cwd, flags.out);
  const names = pageNames(postings.items.map((i) => i.reference));
  const files = new Map(postings.items.map((i) => [`${names.get(i.reference)!}.jsonld`, `${embedJson(i.posting, 2)}\n`]));
  const result = await writeFolder(ctx, dir, files, Boolean(flags.force), 'the JSON-LD files', ['.jsonld']);
  const byName = new Map(postings.items.map((i) => [`${names.get(i.reference)!}.jsonld`, i.reference]));
  if (isJson(ctx))
    writeJson(ctx, {
      command: 'export jsonld',
      out: dir,
      written: result.written.map((file) => ({ reference: byName.get(file)!, file })),
      removed: result.removed,
      ...jsonParts(postings),
    });
  summary(ctx, postings, `into ${displayPath(dir, ctx.cwd, ctx.env)}`, result.removed.length);
  return 0;
}

export async function runExportSite(ctx: Context, dir: string, flags: SiteFlags): Promise<number> {
  if (flags.out.trim() === '') throw new UsageError('--out: expected a folder');
  const config = await ctx.config({ token: false });
  const given = flags.siteUrl ?? config.export?.site_url;
  if (given === undefined)
    throw new UsageError('export site needs the address the site will be served from, for sitemap.xml', {
      details: [`pass --site-url https://example.com/careers/, or set it once: ${ctx.name} config set --project export.site_url https://example.com/careers/`],
    });
  if (!/^https?:\/\/[^/\s?#]+/i.test(given) || !URL.canParse(given))
    throw new UsageError(`--site-url ${JSON.stringify(sanitize(given))}: expected an absolute http(s) address, such as https://example.com/careers/`);
  // As a browser would send it: quotes and angle brackets percent-encoded.
  const url = new URL(given);
  // sitemap.xml is public, and the pages' addresses are the site's followed by a name.
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    throw new UsageError(`--site-url has a user name or password in it, and sitemap.xml is public: write it without them, ${url.href}`);
  }
  if (url.search !== '' || url.hash !== '') {
    const shown = sanitize(url.href);
    url.search = '';
    url.hash = '';
    throw new UsageError(
      `--site-url ${JSON.stringify(shown)}: the pages' addresses are the folder's address and a name, so it has no ? or #: write ${url.href}`,
    );
  }
  // A bare `?` or `#` is no query or fragment, and is dropped.
  url.search = '';
  url.hash = '';
  const siteUrl = url.href;
  const postings = await postingsOf(ctx, [dir]);
  writeExportWarnings(ctx, postings);
  const out = resolve(ctx.cwd, flags.out);
  const result = await writeFolder(ctx, out, siteFiles(postings.items, { siteUrl, title: flags.title }), Boolean(flags.force), 'the careers site', [
    '.html',
    '.xml',
  ]);
  if (isJson(ctx)) {
    const names = pageNames(postings.items.map((i) => i.reference));
    writeJson(ctx, {
      command: 'export site',
      out,
      written: postings.items.map((i) => ({ reference: i.reference, file: `${names.get(i.reference)!}.html` })),
      removed: result.removed,
      ...jsonParts(postings),
    });
  }
  summary(ctx, postings, `as a site in ${displayPath(out, ctx.cwd, ctx.env)}`, result.removed.length);
  return 0;
}

/** `kinds`: the extensions this export writes, the only files of an earlier run it removes (a site and its JSON-LD may share a folder). */
async function writeFolder(ctx: Context, dir: string, files: Map<string, string>, force: boolean, what: string, kinds: readonly string[]) {
  try {
    return await writeOutputFolder(dir, { files, removeStale: true, staleExtensions: kinds, force });
  } catch (error) {
    throw outputFolderError(ctx, dir, error, what);
  }
}

/** `exported 3 postings from 2 files into site/ (1 closed advert left out, 1 page removed, 2 warnings)` on stderr. */
function summary(ctx: Context, postings: Postings, where: string, removed = 0): void {
  if (ctx.globals.quiet || isJson(ctx)) return;
  const closed = postings.left.filter((l) => l.why === 'closed').length;
  const waiting = postings.left.length - closed;
  const notes = [
    ...(closed > 0 ? [`${plural(closed, 'closed advert')} left out`] : []),
    ...(waiting > 0 ? [`${plural(waiting, 'advert')} not open yet left out`] : []),
    ...(removed > 0 ? [`${plural(removed, 'file')} of adverts no longer exported removed`] : []),
    ...(postings.warnings.length > 0 ? [plural(postings.warnings.length, 'warning')] : []),
  ];
  ctx.io.stderr.write(
    `exported ${plural(postings.items.length, 'posting')} from ${plural(postings.files, 'file')} ${where}${notes.length ? ` (${notes.join(', ')})` : ''}\n`,
  );
}
