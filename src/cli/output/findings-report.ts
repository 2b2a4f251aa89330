/**
 * Writes findings in the selected output format: human lines, GitHub annotations or SARIF on
 * stdout. JSON documents are shaped by each command, which passes `json` for that case.
 */
import type { Context } from '../context.js';
import { formatFinding, type Finding } from '../../core/errors/findings.js';
import { githubAnnotation, sarifLog } from './formats.js';
import { paint } from './summary.js';
import { sanitize } from '../../core/util/sanitize.js';
import { VERSION } from '../../core/version.js';
import { ExitCode, InvalidInputError } from '../../core/errors/failures.js';
import { InvalidAdvertsError } from '../../core/validation/invalid-adverts.js';

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

export function writeFindings(ctx: Context, findings: readonly Finding[], json: () => unknown): void {
  const out = ctx.io.stdout;
  switch (ctx.globals.output) {
    case 'json':
      out.write(`${JSON.stringify(json())}\n`);
      return;
    case 'sarif':
      out.write(`${JSON.stringify(sarifLog(findings, VERSION))}\n`);
      return;
    case 'github':
      for (const f of findings) out.write(`${githubAnnotation(f)}\n`);
      return;
    default: {
      const c = paint(ctx, out);
      for (const f of findings) {
        out.write(`${c.red('✖')} ${formatFinding(f)}\n`);
        // The source lines the parser drew, as lines: the message above already says where and what.
        for (const line of f.context ?? []) out.write(line.trim() === '' ? '\n' : `    ${c.dim(sanitize(line))}\n`);
      }
    }
  }
}

/** For `.catch`: advert files a core step refused are shown as findings (exit 3); other errors pass. */
export function invalidAdvertsReported(ctx: Context): (error: unknown) => never {
  return (error) => {
    throw error instanceof InvalidAdvertsError ? invalidInput(ctx, error.findings, error.message) : error;
  };
}
