/**
 * `jobs convert`: YAML adverts to Markdown adverts and back (see core/adverts/convert.ts), written
 * beside their sources through the storage layer; never over a file without --force.
 */
import { dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors/failures.js';
import { ExitCode } from '../../../core/errors/failures.js';
import { isMarkdownName } from '../../../core/adverts/markdown.js';
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
  target?: string;
  status: Status;
  notes: string[];
  /** Why it was not converted: `file:line:column: message` lines. */
  errors: string[];
}

export async function runConvert(ctx: Context, paths: string[], flags: ConvertFlags): Promise<number> {
  if (flags.to !== 'markdown' && flags.to !== 'yaml') throw new UsageError(`--to ${flags.to}: say markdown or yaml`);
  if (paths.includes('-')) throw new UsageError('convert writes files beside their sources: name files or folders, not - (stdin)');
  const toMarkdown = flags.to === 'markdown';
  const [{ findAdvertFiles, readAdvertFileSync }, convert, { createFile, replaceFile, removeOwnFile }, { cannotWrite }, { findingFromProblem, formatFinding }, { schemaReference }, { sanitize }] = await Promise.all([
    import('../../../core/adverts/files.js'),
    import('../../../core/adverts/convert.js'),
    import('../../../core/storage/replace.js'),
    import('../../../core/storage/errors.js'),
    import('../../../core/errors/findings.js'),
    import('../../../core/scaffold/schema-ref.js'),
    import('../../../core/util/sanitize.js'),
  ]);
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
    const target = source.replace(/\.(ya?ml|json|md)$/i, toMarkdown ? '.md' : '.yaml');
    const targetPath = resolve(ctx.cwd, target);
    const read = readAdvertFileSync(source, found.path);
    if ('problem' in read) {
      results.push({ source, target, status: 'failed', notes: [], errors: [formatFinding(findingFromProblem(read.problem))] });
      continue;
    }
    let converted;
    try {
      converted = toMarkdown ? convert.yamlToMarkdown(source, target, read.text) : convert.markdownToYaml(source, target, read.text, schemaReference(dirname(targetPath), 'create').reference);
    } catch (error) {
      if (!(error instanceof convert.ConvertError)) throw error;
      const errors = error.problems.length > 0 ? error.problems.map((p) => formatFinding(findingFromProblem(p))) : [`${source}:1:1: ${error.message}`];
      if (error.problems.length > 0) errors.push(`${source}: ${error.message} ('${ctx.name} validate ${source}')`);
      results.push({ source, target, status: 'failed', notes: [], errors });
      continue;
    }
    if (written.has(targetPath)) {
      results.push({ source, target, status: 'exists', notes: [], errors: [`${target} was written from another file in this run; rename one of the two sources`] });
      continue;
    }
    try {
      // A new file fails when the name is taken, with no window between a check and the write.
      if (flags.force) replaceFile(targetPath, converted.text, { durable: false, mode: 0o644 });
      else createFile(targetPath, converted.text, { mode: 0o644 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        results.push({ source, target, status: 'exists', notes: [], errors: [`${target} already exists; nothing was written (pass --force to overwrite it)`] });
        continue;
      }
      throw cannotWrite(target, targetPath, error, { after: '; nothing was written' });
    }
    written.add(targetPath);
    if (flags.remove) removeOwnFile(found.path);
    results.push({ source, target, status: 'written', notes: converted.notes, errors: [] });
  }

  const failed = results.some((r) => r.status === 'failed');
  const code = failed ? ExitCode.invalidInput : results.some((r) => r.status === 'exists') ? ExitCode.usage : ExitCode.ok;
  if (ctx.globals.output === 'json') {
    ctx.io.stdout.write(jsonText({ to: flags.to, removed: flags.remove === true, files: results }));
    return code;
  }
  const c = paint(ctx, ctx.io.stderr);
  const lines: string[] = [];
  for (const r of results) {
    if (r.status === 'written') {
      if (!ctx.globals.quiet) lines.push(`${c.green('✔')} ${flags.remove ? `${sanitize(r.source)} -> ${sanitize(r.target!)}` : `wrote ${sanitize(r.target!)} (from ${sanitize(r.source)})`}`);
      for (const note of r.notes) if (!ctx.globals.quiet) lines.push(`  ${note}`);
    } else if (r.status !== 'unchanged') for (const e of r.errors) lines.push(`${c.red('✖')} ${sanitize(e)}`);
  }
  const count = (s: Status) => results.filter((r) => r.status === s).length;
  const summary = [`${count('written')} converted`, count('unchanged') ? `${count('unchanged')} already ${toMarkdown ? 'Markdown' : 'YAML'}` : '', count('exists') ? `${count('exists')} not written (the new name is taken)` : '', count('failed') ? `${count('failed')} could not be converted` : '']
    .filter(Boolean)
    .join(', ');
  if (!ctx.globals.quiet || code !== 0) lines.push(`${code === 0 ? c.green('✔') : c.red('✖')} ${summary}`);
  if (code === 0 && !flags.remove && count('written') > 0 && !ctx.globals.quiet) lines.push(`  the sources are still there, with the same references: remove them before '${ctx.name} sync' (or convert with --remove)`);
  ctx.io.stderr.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return code;
}
