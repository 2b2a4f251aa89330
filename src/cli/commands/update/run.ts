/** update: check the fields to change (from a file and --set) and send them with PUT /jobs/<reference>. */
import type { Context } from '../../context.js';
import { loadAdverts } from '../../../core/adverts/load.js';
import type { AdvertSource } from '../../../core/adverts/types.js';
import { encodeSegment } from '../../../core/config/base-url.js';
import * as errors from '../../../core/errors/failures.js';
import { findingFromProblem, sortFindings } from '../../../core/errors/findings.js';
import { findingsFromTree } from '../../../core/validation/tree-findings.js';
import { applySet, parseSetFlag } from '../../../core/publishing/patch.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { checkAdvert } from '../../../core/validation/check.js';
import { advertRules } from '../../rules.js';
import { refuseUnusableReferences } from '../../../core/adverts/reference.js';
import { invalidInput } from '../../output/findings-report.js';
import { jsonText } from '../../output/json-output.js';
import { expansionOf } from '../../../core/adverts/locations.js';
import { rememberPublished, sentAdvert } from '../../published.js';
import * as report from '../publish/report.js';
import { isJson } from '../../output/command-io.js';

export interface UpdateFlags {
  set: string[];
  dryRun?: boolean;
  allowUnknownFields?: boolean;
}

export async function runUpdate(ctx: Context, reference: string, file: string | undefined, flags: UpdateFlags): Promise<number> {
  if (!file && flags.set.length === 0) throw new errors.UsageError('nothing to update: give a file of fields to change and/or --set path=value');
  if (reference.trim() === '') throw new errors.UsageError('the reference must not be empty');
  reference = refuseUnusableReferences([reference])[0]!;
  const sets = flags.set.map(parseSetFlag);

  let patch: Record<string, unknown> = {};
  let source: AdvertSource | undefined;
  if (file) {
    const loaded = await loadAdverts([file], { cwd: ctx.cwd, stdin: () => ctx.io.stdin, uniqueReferences: false });
    if (loaded.problems.length > 0) {
      const findings = sortFindings(loaded.problems.map(findingFromProblem));
      throw invalidInput(ctx, findings, `${file} cannot be read as an update; nothing was sent`);
    }
    let adverts = loaded.adverts;
    if (adverts.length > 1 && adverts.every((a) => expansionOf(a) && a.index === adverts[0]!.index)) {
      // An advert for several places: the update is that of the place named.
      const place = adverts.filter((a) => a.value.reference === reference);
      if (place.length === 0) {
        throw new errors.InvalidInputError(
          `${file} is an advert for several places, and none of them is ${JSON.stringify(sanitize(reference))}: its places are ${adverts.map((a) => sanitize(String(a.value.reference))).join(', ')}`,
        );
      }
      adverts = place;
    }
    if (adverts.length !== 1) throw new errors.InvalidInputError(`${file} holds ${adverts.length} documents; an update file holds one`);
    source = adverts[0]!;
    patch = structuredClone(source.value);
    if ('reference' in patch) {
      if (patch.reference !== reference) {
        const at = source.locate(['reference']);
        throw new errors.InvalidInputError(
          `${source.file}:${at.line}:${at.column}: the file is for reference ${JSON.stringify(patch.reference)}, not ${JSON.stringify(reference)}; the reference cannot be changed`,
        );
      }
      delete patch.reference;
    }
  }
  for (const set of sets) applySet(patch, set);

  // Constant names (contract_id: permanent) as in every other command; defaults are for whole adverts only.
  const config = await ctx.config();
  const { constants } = config;
  const checked = checkAdvert(
    { file: source?.file ?? '', index: 0, value: patch, locate: source?.locate ?? (() => ({ line: 1, column: 1 })) },
    // The rules by place judge an update that carries a whole advert's location, salary_text and job_description (local-rules.ts).
    { defaults: {}, constants, rules: await advertRules(ctx, config) },
    'update',
    {
      allowUnknownFields: Boolean(flags.allowUnknownFields),
    },
  );
  patch = checked.payload;
  const tree = checked.tree;
  if (Object.keys(tree).length > 0) {
    // Errors on fields given with --set point at the flag; the rest at the file.
    const bySet = new Set(sets.map((s) => s.path.join('.')));
    const order = sets.map((s) => s.path.join('.'));
    const findings = findingsFromTree(tree, source, reference, { value: patch, constants })
      .map((f) => (bySet.has(f.path) || !source ? { ...f, file: '', line: undefined, column: undefined, path: `--set ${f.path}` } : f))
      .sort((a, b) => order.indexOf(a.path.slice(6)) - order.indexOf(b.path.slice(6)));
    throw invalidInput(ctx, findings, 'the update is invalid; nothing was sent');
  }
  if (Object.keys(patch).length === 0) throw new errors.UsageError('nothing to update: the file holds no field besides the reference');

  // The path as the client sends it (one encoded segment), so a dry run shows what would go out.
  const path = `/jobs/${encodeSegment(reference)}`;
  if (flags.dryRun) {
    if (isJson(ctx)) ctx.io.stdout.write(jsonText({ dry_run: true, requests: [{ method: 'PUT', path, body: patch }] }));
    else ctx.io.stdout.write(`PUT ${sanitize(path)}\n${JSON.stringify(patch, null, 2).replace(/^/gm, '  ')}\n`);
    return 0;
  }
  const client = await ctx.client();
  // Without a file the fields came from --set flags: there is no file position to point at.
  const advert = {
    source: source ?? { file: '', index: 0, value: patch, locate: () => ({ line: 1, column: 1 }) },
    reference,
    payload: patch,
    validated: patch,
    tree: {},
  };
  let outcome: report.SendOutcome;
  try {
    await client.update(reference, patch, { signal: ctx.signal });
    outcome = { advert, status: 'updated' };
    // It exists on the service: stats --all and report know it, by its new title when it has one.
    await rememberPublished(ctx, [sentAdvert(reference, patch)]);
  } catch (error) {
    if (!(error instanceof errors.JobsError)) throw error;
    outcome = { advert, status: 'failed', error };
  }
  if (isJson(ctx)) ctx.io.stdout.write(jsonText(report.outcomeJson(outcome)));
  else report.writeOutcome(ctx, outcome);
  return outcome.error ? outcome.error.exitCode : 0;
}
