/** preview: the page candidates see for each advert (and place) of a file, with its JSON-LD. */
import { spawn } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { advertPage } from '../../../core/export/page.js';
import { pageNames } from '../../../core/export/site.js';
import { writeOutputFolder } from '../../../core/storage/output-folder.js';
import { TOOL_FOLDER, prepareToolFolder } from '../../../core/storage/tool-folder.js';
import { cannotWrite } from '../../../core/storage/errors.js';
import { UsageError } from '../../../core/errors/failures.js';
import { displayPath } from '../../../core/config/paths.js';
import { plural } from '../../../core/util/plural.js';
import { isJson, writeJson, writeWarnings } from '../../output/command-io.js';
import { jsonParts, outputFolderError, postingsOf, writeExportWarnings } from '../export/read.js';

export interface PreviewFlags {
  out: string;
  open?: boolean;
}

export async function runPreview(ctx: Context, file: string, flags: PreviewFlags): Promise<number> {
  if (flags.out.trim() === '') throw new UsageError('--out: expected a folder');
  // A recruiter previews before the advert goes out: one not open yet is shown too.
  const postings = await postingsOf(ctx, [file], { everyDay: true });
  writeExportWarnings(ctx, postings);
  if (postings.items.length === 0) throw new UsageError(`${file}: no advert to preview`);
  const dir = resolve(ctx.cwd, flags.out);
  const parent = resolve(dir, '..');
  // The default folder is in the tool's own: never a link planted in its place, and ignored by git.
  if (basename(parent) === TOOL_FOLDER) {
    try {
      prepareToolFolder(parent);
    } catch (error) {
      throw cannotWrite(displayPath(parent, ctx.cwd, ctx.env), parent, error, { what: 'the folder of the previews', after: '; nothing was written' });
    }
  }
  const names = pageNames(postings.items.map((i) => i.reference));
  const files = new Map(postings.items.map((i) => [`${names.get(i.reference)!}.html`, advertPage(i, { preview: true })]));
  let written: string[];
  try {
    // Previews of other files stay: only this file's pages are replaced.
    written = (await writeOutputFolder(dir, { files, removeStale: false })).written;
  } catch (error) {
    throw outputFolderError(ctx, dir, error, 'the preview');
  }
  const pages = written.map((name) => join(dir, name));
  const opened = flags.open ? await openInBrowser(ctx, pages[0]!) : undefined;
  if (isJson(ctx)) {
    writeJson(ctx, {
      command: 'preview',
      out: dir,
      written: postings.items.map((i) => ({ reference: i.reference, file: `${names.get(i.reference)!}.html` })),
      removed: [],
      ...jsonParts(postings),
      ...(flags.open ? { opened: opened === undefined } : {}),
    });
  } else if (!ctx.globals.quiet) {
    for (const page of pages) ctx.io.stdout.write(`${displayPath(page, ctx.cwd, ctx.env)}\n`);
    ctx.io.stderr.write(`wrote ${plural(pages.length, 'preview page')} into ${displayPath(dir, ctx.cwd, ctx.env)}\n`);
  }
  if (opened !== undefined) writeWarnings(ctx, [opened]);
  return 0;
}

/** Whether the CI variable says this is CI (`CI=true`, `CI=1`, any value but false/0). */
export function inCi(env: Record<string, string | undefined>): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci.toLowerCase() !== 'false' && ci !== '0';
}

/** Opens `page` in the desktop's browser; returns why it was not opened, or undefined once started. */
async function openInBrowser(ctx: Context, page: string): Promise<string | undefined> {
  if (inCi(ctx.env)) return `the page was not opened: CI is set (${ctx.name} preview --open never opens a browser in CI)`;
  const platform = process.platform;
  if (platform === 'linux' && !ctx.env.DISPLAY && !ctx.env.WAYLAND_DISPLAY)
    return 'the page was not opened: there is no desktop here (DISPLAY and WAYLAND_DISPLAY are unset)';
  const [command, args] = platform === 'darwin' ? ['open', [page]] : platform === 'win32' ? ['explorer.exe', [page]] : ['xdg-open', [page]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env: ctx.env as NodeJS.ProcessEnv });
    // Whether it started is known only once 'spawn' or 'error' comes (an opener not installed is an
    // 'error' after spawn returns): waited for, so the run does not end saying nothing.
    const failed = await new Promise<Error | undefined>((done) => {
      child.once('spawn', () => done(undefined));
      child.once('error', done);
    });
    child.unref();
    if (failed)
      return (failed as NodeJS.ErrnoException).code === 'ENOENT'
        ? `the page was not opened: ${command} was not found (is it installed, and on PATH?); open ${page} yourself`
        : `the page was not opened: ${command}: ${failed.message}`;
  } catch (error) {
    return `the page was not opened: ${command}: ${(error as Error).message}`;
  }
  return undefined;
}
