/**
 * `jobs convert`: YAML adverts to Markdown adverts and back (see core/adverts/convert.ts), written
 * beside their sources through the storage layer; never over a file without --force. Loaded only when
 * the command runs (command.ts imports it then), so its imports are static.
 */
import { lstatSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../../core/errors/failures.js';
import { isMarkdownName } from '../../../core/adverts/markdown.js';
import * as convert from '../../../core/adverts/convert.js';
import { findAdvertFiles, isAdvertFile, readAdvertFileSync } from '../../../core/adverts/files.js';
import { findingFromProblem, formatFinding } from '../../../core/errors/findings.js';
import { schemaReference } from '../../../core/scaffold/schema-ref.js';
import { cannotWrite } from '../../../core/storage/errors.js';
import { removeOwnFile, replaceFile, syncFolder } from '../../../core/storage/replace.js';
import { nextTurn } from '../../../core/util/next-turn.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { isJson } from '../../output/command-io.js';
import { jsonText } from '../../output/json-output.js';
import { paint } from '../../output/summary.js';

export interface ConvertFlags {
  to: string;
  force?: boolean;
  remove?: boolean;
}

type Status = 'written' | 'unchanged' | 'exists' | 'failed';

interface FileResult {
  source: string;
  /** The files written, or that would have been (several for a YAML file of several adverts). */
  targets?: string[];
  status: Status;
  notes: string[];
  /** Why it was not converted: `file:line:column: message` lines. */
  errors: string[];
}

/** One source's conversion, planned in memory before anything is written. */
interface Plan {
  source: string;
  path: string;
  parts: { target: string; path: string; text: string; notes: string[]; adverts: Record<string, unknown>[] }[];
}

export async function runConvert(ctx: Context, paths: string[], flags: ConvertFlags): Promise<number> {
  if (flags.to !== 'markdown' && flags.to !== 'yaml') throw new UsageError(`--to ${flags.to}: say markdown or yaml`);
  if (paths.includes('-')) throw new UsageError('convert writes files beside their sources: name files or folders, not - (stdin)');
  const toMarkdown = flags.to === 'markdown';
  const { files, problems } = await findAdvertFiles(paths, ctx.cwd);
  const results: FileResult[] = problems.map((p) => ({ source: p.file, status: 'failed', notes: [], errors: [formatFinding(findingFromProblem(p))] }));
  // Every source is converted in memory and its new names planned before a file is written: no two
  // adverts may come to one name (a-2.md twice), in a file or across the run.
  const plans: Plan[] = [];
  for (const [i, found] of files.entries()) {
    if (i % 64 === 63) await nextTurn();
    if (ctx.signal.aborted) return reportConvert(ctx, flags, results);
    const source = found.display;
    if (isMarkdownName(source) === toMarkdown || found.path === undefined) {
      results.push({ source, status: 'unchanged', notes: [], errors: [] });
      continue;
    }
    const planned = plan(ctx, source, found.path, toMarkdown);
    if ('errors' in planned) results.push({ source, status: 'failed', notes: [], errors: planned.errors });
    else plans.push(planned);
  }
  const claims = new Map<string, string[]>();
  for (const p of plans) for (const part of p.parts) claims.set(part.path, [...(claims.get(part.path) ?? []), p.source]);

  // Reported in the order the files were found (a folder's results are added once it is synced).
  const order = new Map(files.map((f, i) => [f.display, i]));
  const report = () =>
    reportConvert(
      ctx,
      flags,
      results.sort((a, b) => (order.get(a.source) ?? -1) - (order.get(b.source) ?? -1)),
    );
  // A folder at a time: its new files are written and synced, then the folder once (their names),
  // and only then are their sources removed (and the folder synced again).
  const folders = new Map<string, Plan[]>();
  for (const p of plans) folders.set(dirname(p.path), [...(folders.get(dirname(p.path)) ?? []), p]);
  try {
    let first = true;
    for (const [folder, inFolder] of folders) {
      const written: { plan: Plan; result: FileResult }[] = [];
      try {
        for (const p of inFolder) {
          // Ctrl-C is heard between two files (the work is synchronous): the files done are reported.
          if (!first) await nextTurn();
          first = false;
          if (ctx.signal.aborted) break;
          const result = convertOne(p, flags, claims);
          if (result.status === 'written') written.push({ plan: p, result });
          else results.push(result);
        }
      } finally {
        // Also when a write failed: the files written before it are made durable and their sources removed.
        if (written.length > 0) {
          syncFolder(folder);
          if (flags.remove) {
            for (const { plan } of written) removeOwnFile(plan.path);
            syncFolder(folder);
          }
          for (const { result } of written) results.push(result);
        }
      }
      if (ctx.signal.aborted) break;
    }
  } catch (error) {
    // An unexpected failure (a bug) still reports every file converted (and removed) before it; with
    // --json the error alone is written, as stdout holds one document.
    if (isJson(ctx)) throw error;
    report();
    throw error;
  }
  return report();
}

/** A source read and converted in memory, its new names checked; or why not, as `file:line:column: message` lines. */
function plan(ctx: Context, source: string, path: string, toMarkdown: boolean): Plan | { errors: string[] } {
  const base = source.replace(/\.(ya?ml|json|md)$/i, '');
  const read = readAdvertFileSync(source, path);
  if ('problem' in read) return { errors: [formatFinding(findingFromProblem(read.problem))] };
  let parts: { target: string; text: string; notes: string[]; adverts: Record<string, unknown>[] }[];
  try {
    parts = toMarkdown
      ? convert.yamlToMarkdownParts(source, read.text).map((p) => ({ ...p, target: `${base}${p.name ? `-${p.name}` : ''}.md` }))
      : [
          {
            target: `${base}.yaml`,
            ...convert.markdownToYaml(source, `${base}.yaml`, read.text, schemaReference(dirname(resolve(ctx.cwd, base)), 'create').reference),
          },
        ];
  } catch (error) {
    if (!(error instanceof convert.ConvertError)) throw error;
    const errors = error.problems.length > 0 ? error.problems.map((p) => formatFinding(findingFromProblem(p))) : [`${source}:1:1: ${error.message}`];
    if (error.problems.length > 0) errors.push(`${source}: ${error.message} ('${ctx.name} validate ${source}')`);
    return { errors };
  }
  // A name a folder walk passes over (README.md, compose.yaml, ...) would hide the advert from
  // validate and sync, and sync --prune would delete it from the service: never written.
  const hidden = parts.filter((p) => !isAdvertFile(basename(p.target)));
  if (hidden.length > 0) {
    return {
      errors: hidden.map(
        (p) =>
          `${source}:1:1: its new name ${basename(p.target)} is one a folder walk passes over (docs/adverts.md), so validate and sync would not see the advert and sync --prune would delete it from the service; nothing was written: rename ${basename(source)} first (git mv), then convert it`,
      ),
    };
  }
  return { source, path, parts: parts.map((p) => ({ ...p, path: resolve(ctx.cwd, p.target) })) };
}

/**
 * Writes one source's new files (each complete and synced to disk, then read back from the disk as
 * the same adverts); the caller syncs the folder and then removes the source (--remove). When a file
 * of it cannot be written, those written already are removed again: no half conversion is left.
 */
function convertOne(p: Plan, flags: ConvertFlags, claims: Map<string, string[]>): FileResult {
  const targets = p.parts.map((part) => part.target);
  const shared = p.parts.flatMap((part) => (claims.get(part.path)!.length > 1 ? [part] : []));
  if (shared.length > 0) {
    return {
      source: p.source,
      targets,
      status: 'exists',
      notes: [],
      errors: shared.map(
        (part) =>
          `${part.target} would be the new name of ${claims.get(part.path)!.join(' and ')}; nothing was written for ${p.source} (rename one of them first)`,
      ),
    };
  }
  // Nothing of a file is written when one of its new names is taken (unless --force).
  const taken = flags.force ? [] : p.parts.filter((part) => lstatSync(part.path, { throwIfNoEntry: false }) !== undefined);
  if (taken.length > 0) {
    return {
      source: p.source,
      targets,
      status: 'exists',
      notes: [],
      errors: taken.map((part) => `${part.target} already exists; nothing was written for ${p.source} (pass --force to overwrite it)`),
    };
  }
  const overwritten: string[] = [];
  const created: string[] = [];
  const undo = () => created.forEach((path) => removeOwnFile(path));
  for (const part of p.parts) {
    const existed = lstatSync(part.path, { throwIfNoEntry: false }) !== undefined;
    try {
      // The one atomic write, synced with its folder; without --force it never takes a name that is
      // taken, also one taken since the check above.
      replaceFile(part.path, part.text, { durable: true, syncFolder: false, mode: 0o644, exclusive: !flags.force });
    } catch (error) {
      undo();
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        const errors = [`${part.target} already exists; nothing was written for ${p.source} (pass --force to overwrite it)`];
        return { source: p.source, targets, status: 'exists', notes: [], errors };
      }
      // A disk's refusal (full, read-only, a link at the name with --force) is this file's failure: the
      // run goes on, so every file is reported in one answer (one JSON document with --json).
      const failure = cannotWrite(part.target, part.path, error, { after: `; nothing was written for ${p.source}, which is left as it was` });
      const result: FileResult = { source: p.source, targets, status: 'failed', notes: [], errors: [failure.message] };
      UNWRITABLE.add(result);
      return result;
    }
    if (existed) overwritten.push(`${part.target} was overwritten (--force)`);
    else created.push(part.path);
    const back = readAdvertFileSync(part.target, part.path);
    if ('problem' in back || !convert.readsAs(part.target, back.text, part.adverts)) {
      undo();
      const errors = [
        `${part.target} did not read back from the disk as the adverts of ${p.source}; nothing was kept for ${p.source}, which is left as it was`,
      ];
      return { source: p.source, targets, status: 'failed', notes: [], errors };
    }
  }
  const notes = p.parts.flatMap((part) => (p.parts.length > 1 ? part.notes.map((n) => `${part.target}: ${n}`) : part.notes));
  return { source: p.source, targets, status: 'written', notes: overwritten.concat(notes), errors: [] };
}

/** Results that failed at the disk, not at their text: exit 2 (a usage or environment error), not 3. */
const UNWRITABLE = new WeakSet<FileResult>();

function reportConvert(ctx: Context, flags: ConvertFlags, results: FileResult[]): number {
  const toMarkdown = flags.to === 'markdown';
  const failed = results.some((r) => r.status === 'failed' && !UNWRITABLE.has(r));
  // Stopped by Ctrl-C (or SIGTERM, SIGHUP) between two files: what was done is reported, the rest left as it was.
  const stopped = ctx.signal.aborted;
  const code = stopped
    ? ExitCode.interrupted
    : failed
      ? ExitCode.invalidInput
      : results.some((r) => r.status === 'exists' || UNWRITABLE.has(r))
        ? ExitCode.usage
        : ExitCode.ok;
  if (isJson(ctx)) {
    ctx.io.stdout.write(jsonText({ to: flags.to, removed: flags.remove === true, files: results }));
    return code;
  }
  const c = paint(ctx, ctx.io.stderr);
  const lines: string[] = [];
  for (const r of results) {
    if (r.status === 'written') {
      if (!ctx.globals.quiet)
        lines.push(
          `${c.green('✔')} ${flags.remove ? `${sanitize(r.source)} -> ${r.targets!.map((t) => sanitize(t)).join(', ')}` : `wrote ${r.targets!.map((t) => sanitize(t)).join(', ')} (from ${sanitize(r.source)})`}`,
        );
      for (const note of r.notes) if (!ctx.globals.quiet) lines.push(`  ${note}`);
    } else if (r.status !== 'unchanged') for (const e of r.errors) lines.push(`${c.red('✖')} ${sanitize(e)}`);
  }
  const count = (s: Status) => results.filter((r) => r.status === s).length;
  const summary = [
    `${count('written')} converted`,
    count('unchanged') ? `${count('unchanged')} already ${toMarkdown ? 'Markdown' : 'YAML'}` : '',
    count('exists') ? `${count('exists')} not written (the new name is taken)` : '',
    count('failed') ? `${count('failed')} could not be converted` : '',
    stopped ? 'stopped: the other files were not converted and are left as they were' : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (!ctx.globals.quiet || code !== 0) lines.push(`${code === 0 ? c.green('✔') : c.red('✖')} ${summary}`);
  if (code === 0 && !flags.remove && count('written') > 0 && !ctx.globals.quiet)
    lines.push(`  the sources are still there, with the same references: remove them before '${ctx.name} sync' (or convert with --remove)`);
  ctx.io.stderr.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return code;
}
