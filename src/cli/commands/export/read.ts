/** What export and preview share on the terminal's side: reading the postings, and saying what was left out or warned of. */
import type { Context } from '../../context.js';
import { readPostings, type Postings } from '../../../core/export/read-postings.js';
import { readPublished } from '../../../core/published/record.js';
import { serviceKey } from '../../../core/config/service-key.js';
import { todayFor } from '../../../core/sync/today.js';
import { formatFinding, type Finding } from '../../../core/errors/findings.js';
import { NotOwnOutputError } from '../../../core/storage/output-folder.js';
import { cannotWrite, NotOwnFileError, StorageError } from '../../../core/storage/errors.js';
import { UsageError } from '../../../core/errors/failures.js';
import { displayPath } from '../../../core/config/paths.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { invalidAdvertsReported } from '../../output/findings-report.js';
import { isJson, writeWarnings } from '../../output/command-io.js';
import { paint } from '../../output/summary.js';

/** The postings of `paths`, checked; invalid adverts are reported as validate reports them (exit 3). */
export async function postingsOf(
  ctx: Context,
  paths: readonly string[],
  options: { everyDay?: boolean } = {},
): Promise<Postings & { config: Awaited<ReturnType<Context['config']>> }> {
  // Nothing is sent: a token in the OS keyring is not read.
  const config = await ctx.config({ token: false });
  const today = await todayFor({ sandbox: ctx.globals.sandbox, env: ctx.env });
  // The record of what was published to the service in use; with no service set up, nothing was.
  const record = ctx.globals.sandbox || config.baseUrl.value?.trim() ? readPublished(ctx.env, serviceKey(ctx.globals.sandbox, config)) : undefined;
  const published = record?.adverts ?? new Map();
  const postings = await readPostings({
    paths,
    cwd: ctx.cwd,
    env: ctx.env,
    settings: { defaults: config.defaults, constants: config.constants },
    exportSettings: { employmentType: config.export?.employment_type },
    published,
    today,
    ...(options.everyDay ? { everyDay: true } : {}),
    signal: ctx.signal,
  }).catch(invalidAdvertsReported(ctx));
  // Unread, it would change every datePosted and lastmod without a word.
  if (record?.damaged)
    postings.notes.push(
      `the record of published adverts ${displayPath(record.file, ctx.cwd, ctx.env)} could not be read (${sanitize(record.damaged)}): datePosted comes from jobs.opens or today, and sitemap.xml has no lastmod; it is written again at the next publish or sync`,
    );
  return { ...postings, config };
}

/** Warnings (human: stderr, as validate words them), unless --quiet or --json (the document has them). */
export function writeExportWarnings(ctx: Context, postings: Pick<Postings, 'warnings' | 'notes'>): void {
  if (isJson(ctx) || ctx.globals.quiet) return;
  const c = paint(ctx, ctx.io.stderr);
  for (const f of postings.warnings) ctx.io.stderr.write(`${c.yellow('⚠')} ${formatFinding(f)}\n`);
  writeWarnings(ctx, postings.notes);
}

/** The JSON of findings and what was left out, for --json documents. */
export function jsonParts(postings: Pick<Postings, 'warnings' | 'notes' | 'left'>): { left: Postings['left']; warnings: Finding[]; notes: string[] } {
  return { left: postings.left, warnings: postings.warnings, notes: postings.notes };
}

/** A write into an output folder that failed, as the user sees it (exit 2). */
export function outputFolderError(ctx: Context, dir: string, error: unknown, what: string): Error {
  const shown = displayPath(dir, ctx.cwd, ctx.env);
  if (error instanceof NotOwnOutputError) {
    if (error.kind === 'user file')
      return new UsageError(`${shown} already has ${error.names.map((n) => sanitize(n)).join(', ')}, not written by ${ctx.name}; nothing was written`, {
        details: [
          `${ctx.name} replaces only the files it wrote there (listed in its .jobs-manifest.json): move those files, choose another folder, or pass --force to overwrite them`,
        ],
      });
    return new UsageError(`${shown}: ${error.names.map((n) => sanitize(n)).join(', ')} stands where ${ctx.name} writes a file; nothing was written`, {
      details: ['a link is never followed, and a folder never replaced: remove it, or choose another folder'],
    });
  }
  if (error instanceof NotOwnFileError) {
    // The folder itself is a file (a careless --out postings.jsonld), or something stands where the manifest goes.
    if (error.path === dir)
      return new UsageError(`${shown} is ${error.kind}, not a folder; nothing was written`, {
        details: [
          error.kind === 'a symbolic link'
            ? `a link in the place of the folder is never followed: remove it, or choose another folder with --out`
            : `--out names the folder to write ${what} into (it is made when missing): choose a folder`,
        ],
      });
    return new StorageError(
      `cannot write ${what} into ${shown}: ${displayPath(error.path, ctx.cwd, ctx.env)} is ${error.kind}, never followed or replaced; nothing was written`,
      error.path,
      error,
      { details: ['remove it, or choose another folder'] },
    );
  }
  return cannotWrite(shown, dir, error, { what, after: '' });
}
