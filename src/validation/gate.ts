/**
 * The check every sending command does first: load the adverts, apply config, validate. When
 * anything is wrong, every error is reported and the run stops with exit 3 before a request is sent.
 */
import type { Context } from '../context.js';
import { loadAdverts } from '../adverts/load.js';
import { findingFromProblem, findingsFromTree, sortFindings } from '../errors/findings.js';
import { invalidInput } from '../output/findings-report.js';
import { plural } from '../util/plural.js';
import { checkAdvert, isValid, type CheckedAdvert } from './check.js';
import type { AdvertMode, ValidateOptions } from './validate.js';

export async function loadValidAdverts(
  ctx: Context,
  paths: readonly string[],
  mode: AdvertMode,
  { exclude, ...options }: ValidateOptions & { /** Absolute paths a folder walk leaves out (the sync state). */ exclude?: ReadonlySet<string> } = {},
): Promise<CheckedAdvert[]> {
  const config = await ctx.config();
  const loaded = await loadAdverts(paths, { cwd: ctx.cwd, stdin: () => ctx.io.stdin, uniqueReferences: mode === 'create', exclude });
  const checked = loaded.adverts.map((a) => checkAdvert(a, config, mode, options));
  const findings = sortFindings([
    ...loaded.problems.map(findingFromProblem),
    ...checked.flatMap((c) => findingsFromTree(c.tree, c.source, c.reference, { value: c.payload, constants: config.constants })),
  ]);
  if (findings.length === 0) return checked;
  const invalid = checked.filter((c) => !isValid(c)).length;
  // A file that could not be read is said so, not counted as "0 of 0 adverts invalid".
  const duplicates = loaded.problems.filter((p) => p.code === 'duplicate_reference').length;
  const unreadable = new Set(loaded.problems.filter((p) => p.code !== 'duplicate_reference').map((p) => p.file)).size;
  const counts = [
    ...(checked.length > 0 ? [`${invalid} of ${plural(checked.length, 'advert')} invalid`] : []),
    ...(unreadable > 0 ? [`${plural(unreadable, 'file')} could not be read`] : []),
    ...(duplicates > 0 ? [plural(duplicates, 'duplicate reference')] : []),
  ];
  throw invalidInput(ctx, findings, `${plural(findings.length, 'error')} in the advert files (${counts.join(', ')}); nothing was sent`);
}
