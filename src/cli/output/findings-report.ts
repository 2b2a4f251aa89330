/**
 * Writes findings in the selected output format: human lines, or the report formats of the format
 * registry (GitHub annotations, SARIF, JUnit, Code Quality) on stdout. JSON documents are shaped by
 * each command, which passes `json` for that case.
 */
import { jsonText } from './json-output.js';
import type { Context } from '../context.js';
import { formatFinding, type Finding } from '../../core/errors/findings.js';
import { formatEntry, writerFor, type ReportCase } from './format-registry.js';
import { paint } from './summary.js';
import { sanitize } from '../../core/util/sanitize.js';
import { VERSION } from '../../core/version.js';
import { ExitCode, InvalidInputError } from '../../core/errors/failures.js';
import { InvalidAdvertsError } from '../../core/validation/invalid-adverts.js';
import { isJson } from './command-io.js';
import { renamed } from './renamed.js';

/**
 * Reports input that stops a command before anything is sent: the findings in the selected format
 * (with --json, one document that also carries the error), and the error to throw (exit 3).
 */
export function invalidInput(ctx: Context, findings: readonly Finding[], message: string): InvalidInputError {
  writeFindings(ctx, findings, () => ({ valid: false, sent: 0, findings, error: { exit_code: ExitCode.invalidInput, message } }));
  const error = new InvalidInputError(message);
  error.documented = true;
  return error;
}

/**
 * `cases` (every advert checked, with its findings) gives the report formats a testcase per advert;
 * without them, an advert is known by its findings alone.
 */
export function writeFindings(ctx: Context, findings: readonly Finding[], json: () => unknown, cases?: ReportCase[], warnings: readonly Finding[] = []): void {
  const out = ctx.io.stdout;
  if (isJson(ctx)) {
    out.write(jsonText(json() as object));
    return;
  }
  if (writerFor(ctx.globals.output)) {
    // A format without a place for warnings (JUnit: a testcase passes or fails) leaves them out.
    const loose = formatEntry(ctx.globals.output).warnings ? warnings : [];
    if (!cases) {
      const grouped = casesOf(findings);
      writeReport(ctx, { cases: grouped.cases, findings: [...grouped.findings, ...loose] });
    } else {
      const inCases = new Set(cases.flatMap((c) => c.findings));
      writeReport(ctx, { cases, findings: [...findings.filter((f) => !inCases.has(f)), ...loose] });
    }
    return;
  }
  const c = paint(ctx, out);
  // The core's hints name the tool `jobs` (`see 'jobs init --markdown'`): shown, it is named as invoked.
  const shown = (f: Finding) => formatFinding(f.text === f.message ? f : { ...f, text: renamed(f.text, ctx.name) });
  for (const f of warnings) out.write(`${c.yellow('⚠')} ${shown(f)}\n`);
  for (const f of findings) {
    out.write(`${c.red('✖')} ${shown(f)}\n`);
    // The source lines the parser drew, as lines: the message above already says where and what.
    for (const line of f.context ?? []) out.write(line.trim() === '' ? '\n' : `    ${c.dim(sanitize(line))}\n`);
  }
}

/** A whole run in the selected report format (GitHub, SARIF, JUnit, Code Quality) on stdout. */
export function writeReport(ctx: Context, report: { cases: readonly ReportCase[]; findings?: readonly Finding[] }): void {
  const writer = writerFor(ctx.globals.output);
  if (writer) ctx.io.stdout.write(writer.report({ command: `${ctx.name} ${ctx.command ?? ''}`.trim(), version: VERSION, ...report }));
}

/** Findings grouped by the advert they are about (file and reference); a file's own problems apart. */
export function casesOf(findings: readonly Finding[]): { cases: ReportCase[]; findings: Finding[] } {
  const cases = new Map<string, ReportCase & { findings: Finding[] }>();
  const loose: Finding[] = [];
  for (const f of findings) {
    if (f.kind === 'file' && f.reference === undefined) {
      loose.push(f);
      continue;
    }
    const key = `${f.file}\u0000${f.reference ?? ''}`;
    let c = cases.get(key);
    if (!c) cases.set(key, (c = { file: f.file, name: f.reference ?? '(no reference)', ...(f.line !== undefined ? { line: f.line } : {}), findings: [] }));
    c.findings.push(f);
  }
  return { cases: [...cases.values()], findings: loose };
}

/**
 * A case per advert checked: each finding goes to the advert whose lines hold it (the last one of
 * its file that starts at or before it). Findings before every advert (a file's own) stay apart.
 */
export function casesOfAdverts(adverts: readonly { file: string; line: number; reference: string | null }[], findings: readonly Finding[]): ReportCase[] {
  const cases = adverts.map((a) => ({ file: a.file, name: a.reference ?? '(no reference)', line: a.line, findings: [] as Finding[] }));
  const byFile = new Map<string, typeof cases>();
  for (const c of cases) {
    const list = byFile.get(c.file);
    if (list) list.push(c);
    else byFile.set(c.file, [c]);
  }
  for (const f of findings) {
    if (f.kind === 'file') continue;
    const owner = (byFile.get(f.file) ?? []).filter((c) => c.line <= (f.line ?? 0)).at(-1);
    owner?.findings.push(f);
  }
  return cases;
}

/** For `.catch`: advert files a core step refused are shown as findings (exit 3); other errors pass. */
export function invalidAdvertsReported(ctx: Context): (error: unknown) => never {
  return (error) => {
    throw error instanceof InvalidAdvertsError ? invalidInput(ctx, error.findings, error.message) : error;
  };
}
