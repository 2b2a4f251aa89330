import type { CommandSetup } from '../program.js';
import type { Context } from '../context.js';

export interface ValidateFlags {
  update?: boolean;
  allowUnknownFields?: boolean;
}

export default function validate({ program, name, action }: CommandSetup): void {
  program
    .command('validate')
    .description('check advert files locally against the schema; nothing is sent')
    .argument('<paths...>', 'files, folders (searched recursively for .yaml, .yml, .json, .md) or - for stdin')
    .option('--update', 'check partial update files (any subset of fields) instead of full adverts')
    .option('--allow-unknown-fields', 'accept fields the schema does not know instead of reporting them')
    .addHelpText(
      'after',
      `
Every error of every file is reported with file:line:column; exits 0 when all are valid, 3 when
any is invalid, 2 on a usage error. Config defaults and constants apply as they would on publish.

Examples:
  $ ${name} validate adverts/
  $ ${name} validate --output github adverts/     # annotations in a GitHub Actions job
  $ cat advert.yaml | ${name} validate - --json`,
    )
    .action(action((ctx, paths: string[], flags: ValidateFlags) => runValidate(ctx, paths, flags)));
}

export async function runValidate(ctx: Context, paths: string[], flags: ValidateFlags): Promise<number> {
  const [{ AdvertFileWalk }, { checkFiles }, { findingFromProblem, sortFindings }, { writeFindings, casesOfAdverts }, { paint }, { plural }, { formatEntry }, { problemParts, duplicatesNote }] =
    await Promise.all([
    import('../../core/adverts/files.js'),
    import('../../core/validation/check-files.js'),
    import('../../core/errors/findings.js'),
    import('../output/findings-report.js'),
    import('../output/summary.js'),
    import('../../core/util/plural.js'),
    import('../output/format-registry.js'),
    import('../../core/validation/invalid-adverts.js'),
  ]);
  const format = formatEntry(ctx.globals.output);
  const mode = flags.update ? 'update' : 'create';
  // It sends nothing: a token in the OS keyring is not read.
  const config = await ctx.config({ token: false });
  // Each file is checked as the walk finds it; only counts and findings are kept (and, for --json, a record per advert).
  const found = new AdvertFileWalk(paths, ctx.cwd);
  const checked = await checkFiles(
    found,
    () => ctx.io.stdin,
    {
      settings: { defaults: config.defaults, constants: config.constants },
      mode,
      options: { allowUnknownFields: Boolean(flags.allowUnknownFields) },
      // JSON lists every advert, and JUnit has a testcase for each.
      records: format.name === 'json' || format.name === 'junit',
    },
    { env: ctx.env, signal: ctx.signal, ...(ctx.globals.verbose ? { trace: (line: string) => ctx.io.stderr.write(`${line}\n`) } : {}) },
  );
  const problems = found.problems.concat(checked.problems);
  const findings = sortFindings(found.problems.map(findingFromProblem).concat(checked.findings));
  const { adverts, invalid } = checked;
  const ok = findings.length === 0;

  writeFindings(
    ctx,
    findings,
    () => ({
      valid: ok,
      summary: { files: checked.files, adverts, valid: adverts - invalid, invalid, problems: problems.length, errors: findings.length },
      adverts: checked.records ?? [],
      findings,
    }),
    checked.records && casesOfAdverts(checked.records, findings),
  );
  if (!format.document && !(ctx.globals.quiet && ok)) {
    const c = paint(ctx, ctx.io.stderr);
    const counted = `${plural(adverts, 'advert')} in ${plural(checked.files, 'file')}`;
    // A file with YAML errors, or one that could not be read, is counted as such, not as "0 invalid".
    const { files, duplicates } = problemParts(problems);
    const failed = [...(invalid > 0 || files.length === 0 ? [`${invalid} invalid${duplicatesNote(duplicates)}`] : []), ...files].join(', ');
    const line = ok ? c.green(`✔ ${counted}: all valid`) : c.red(`✖ ${plural(findings.length, 'error')}: ${counted} checked, ${failed}`);
    ctx.io.stderr.write(`${line}\n`);
  }
  return ok ? 0 : 3;
}
