/**
 * `jobs convert`: YAML adverts to Markdown adverts and back (see core/adverts/convert.ts), written
 * beside their sources through the storage layer; never over a file without --force. Loaded only when
 * the command runs (command.ts imports it then), so its imports are static.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../../core/errors/failures.js';
import { isMarkdownName } from '../../../core/adverts/markdown.js';
import * as convert from '../../../core/adverts/convert.js';
import { findAdvertFiles, readAdvertFileSync } from '../../../core/adverts/files.js';
import { findingFromProblem, formatFinding } from '../../../core/errors/findings.js';
import { schemaReference } from '../../../core/scaffold/schema-ref.js';
import { cannotWrite } from '../../../core/storage/errors.js';
import { createFile, removeOwnFile, replaceFile } from '../../../core/storage/replace.js';
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

export async function runConvert(ctx: Context, paths: string[], flags: ConvertFlags): Promise<number> {
  if (flags.to !== 'markdown' && flags.to !== 'yaml') throw new UsageError(`--to ${flags.to}: say markdown or yaml`);
  if (paths.includes('-')) throw new UsageError('convert writes files beside their sources: name files or folders, not - (stdin)');
  const toMarkdown = flags.to === 'markdown';
  const { files, problems } = await findAdvertFiles(paths, ctx.cwd);
  const results: FileResult[] = problems.map((p) => ({ source: p.file, status: 'failed', notes: [], errors: [formatFinding(findingFromProblem(p))] }));
  // Two sources with one target (a.yaml and a.yml): the second is refused, even with --force.
  const written = new Set<string>();
  for (const found of files) {
    const source = found.display;
    const markdown = isMarkdownName(source);
    if (markdown === toMarkdown || found.path === undefined) {
      results.push({ source, status: 'unchanged', notes: [], errors: [] });
      continue;
    }
    const base = source.replace(/\.(ya?ml|json|md)$/i, '');
    const read = readAdvertFileSync(source, found.path);
    if ('problem' in read) {
      results.push({ source, status: 'failed', notes: [], errors: [formatFinding(findingFromProblem(read.problem))] });
      continue;
    }
    let parts: { target: string; text: string; notes: string[] }[];
    try {
      parts = toMarkdown
        ? convert.yamlToMarkdownParts(source, read.text).map((p) => ({ target: `${base}${p.name ? `-${p.name}` : ''}.md`, text: p.text, notes: p.notes }))
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
      results.push({ source, status: 'failed', notes: [], errors });
      continue;
    }
    const targets = parts.map((p) => p.target);
    // Nothing of a file is written when one of its new names is taken (unless --force) or was written already in this run.
    const taken = parts.filter((p) => written.has(resolve(ctx.cwd, p.target)) || (!flags.force && existsSync(resolve(ctx.cwd, p.target))));
    if (taken.length > 0) {
      results.push({
        source,
        targets,
        status: 'exists',
        notes: [],
        errors: taken.map((p) => `${p.target} already exists; nothing was written for ${source} (pass --force to overwrite it)`),
      });
      continue;
    }
    let refused: string | undefined;
    const overwritten: string[] = [];
    for (const part of parts) {
      const path = resolve(ctx.cwd, part.target);
      if (flags.force && existsSync(path)) overwritten.push(`${part.target} was overwritten (--force)`);
      try {
        // A new file fails when the name is taken, with no window between a check and the write.
        if (flags.force) replaceFile(path, part.text, { durable: false, mode: 0o644 });
        else createFile(path, part.text, { mode: 0o644 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotWrite(part.target, path, error, { after: `; ${source} was not converted whole` });
        refused = `${part.target} already exists; ${source} was not converted whole (pass --force to overwrite it)`;
        break;
      }
      written.add(path);
    }
    if (refused !== undefined) {
      results.push({ source, targets, status: 'exists', notes: [], errors: [refused] });
      continue;
    }
    if (flags.remove) removeOwnFile(found.path);
    const notes = parts.flatMap((p) => (parts.length > 1 ? p.notes.map((n) => `${p.target}: ${n}`) : p.notes));
    results.push({ source, targets, status: 'written', notes: overwritten.concat(notes), errors: [] });
  }

  const failed = results.some((r) => r.status === 'failed');
  const code = failed ? ExitCode.invalidInput : results.some((r) => r.status === 'exists') ? ExitCode.usage : ExitCode.ok;
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
  ]
    .filter(Boolean)
    .join(', ');
  if (!ctx.globals.quiet || code !== 0) lines.push(`${code === 0 ? c.green('✔') : c.red('✖')} ${summary}`);
  if (code === 0 && !flags.remove && count('written') > 0 && !ctx.globals.quiet)
    lines.push(`  the sources are still there, with the same references: remove them before '${ctx.name} sync' (or convert with --remove)`);
  ctx.io.stderr.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return code;
}
