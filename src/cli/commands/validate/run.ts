/** validate: check advert files locally, many at once, and report every finding; nothing is sent. */
import type { Context } from '../../context.js';
import { AdvertFileWalk } from '../../../core/adverts/files.js';
import { checkFiles } from '../../../core/bulk/run-files.js';
import { findingFromProblem, sortFindings } from '../../../core/errors/findings.js';
import { duplicatesNote, problemParts } from '../../../core/validation/invalid-adverts.js';
import { plural } from '../../../core/util/plural.js';
import { casesOfAdverts, writeFindings } from '../../output/findings-report.js';
import { formatEntry } from '../../output/format-registry.js';
import { paint } from '../../output/summary.js';
import { todayFor } from '../../../core/sync/today.js';
import { advertRules } from '../../rules.js';

export interface ValidateFlags {
  update?: boolean;
  allowUnknownFields?: boolean;
  /** --wording / --no-wording; undefined: the default (WORDING_BY_DEFAULT). */
  wording?: boolean;
}

/** Whether validate checks wording without --wording (docs/wording.md says why: the cost measured in bench/). */
export const WORDING_BY_DEFAULT = false;

export async function runValidate(ctx: Context, paths: string[], flags: ValidateFlags): Promise<number> {
  const format = formatEntry(ctx.globals.output);
  const mode = flags.update ? 'update' : 'create';
  // It sends nothing: a token in the OS keyring is not read.
  const config = await ctx.config({ token: false });
  // An advert whose jobs.closes has passed is warned of, and the rules in force are today's (the sandbox's date with --sandbox).
  const today = await todayFor({ sandbox: ctx.globals.sandbox, env: ctx.env, warn: (text) => ctx.io.stderr.write(`${ctx.name}: warning: ${text}\n`) });
  // Each file is checked as the walk finds it; only counts and findings are kept (and, for --json, a record per advert).
  const found = new AdvertFileWalk(paths, ctx.cwd);
  const checked = await checkFiles(
    found,
    () => ctx.io.stdin,
    {
      // An advert whose jobs.closes has passed is warned of (the sandbox's date with --sandbox).
      settings: {
        defaults: config.defaults,
        constants: config.constants,
        today,
        rules: await advertRules(ctx, config, today),
        ...((flags.wording ?? WORDING_BY_DEFAULT) ? { wording: config.wording ?? { off: [], allow: [] } } : {}),
      },
      mode,
      options: { allowUnknownFields: Boolean(flags.allowUnknownFields) },
      // JSON lists every advert, and JUnit has a testcase for each.
      records: format.name === 'json' || Boolean(format.everyCase),
    },
    { env: ctx.env, signal: ctx.signal, ...(ctx.globals.verbose ? { trace: (line: string) => ctx.io.stderr.write(`${line}\n`) } : {}) },
  );
  const problems = found.problems.concat(checked.problems);
  const findings = sortFindings(found.problems.map(findingFromProblem).concat(checked.findings));
  const { adverts, invalid } = checked;
  const warnings = sortFindings(checked.warnings);
  const ok = findings.length === 0;

  writeFindings(
    ctx,
    findings,
    () => ({
      valid: ok,
      summary: {
        files: checked.files,
        adverts,
        valid: adverts - invalid,
        invalid,
        problems: problems.length,
        errors: findings.length,
        warnings: warnings.length,
      },
      adverts: checked.records ?? [],
      findings,
      warnings,
    }),
    checked.records && casesOfAdverts(checked.records, findings),
    warnings,
  );
  if (!format.document && !(ctx.globals.quiet && ok)) {
    const c = paint(ctx, ctx.io.stderr);
    const counted = `${plural(adverts, 'advert')} in ${plural(checked.files, 'file')}`;
    // A file with YAML errors, or one that could not be read, is counted as such, not as "0 invalid".
    const { files, duplicates } = problemParts(problems);
    const failed = [...(invalid > 0 || files.length === 0 ? [`${invalid} invalid${duplicatesNote(duplicates)}`] : []), ...files].join(', ');
    const warned = warnings.length > 0 ? ` (${plural(warnings.length, 'warning')})` : '';
    const line = ok ? c.green(`✔ ${counted}: all valid${warned}`) : c.red(`✖ ${plural(findings.length, 'error')}: ${counted} checked, ${failed}${warned}`);
    ctx.io.stderr.write(`${line}\n`);
  }
  return ok ? 0 : 3;
}
