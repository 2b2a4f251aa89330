import type { CommandSetup } from '../program.js';
import { jsonText } from '../output/json-output.js';
import type { Context } from '../context.js';

interface UpdateFlags {
  set: string[];
  dryRun?: boolean;
  allowUnknownFields?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export default function update({ program, name, action }: CommandSetup): void {
  program
    .command('update')
    .description('change some fields of a published advert (PUT /jobs/<reference>)')
    .argument('<reference>', 'the reference of the advert to change')
    .argument('[file]', 'a YAML file holding only the fields to change (- for stdin)')
    .option('--set <path=value>', 'set one field, by dotted path; repeatable', collect, [])
    .option('--dry-run', 'validate and show what would be sent; send nothing')
    .option('--allow-unknown-fields', 'send fields the schema does not know instead of refusing them')
    .addHelpText(
      'after',
      `
Only the given fields change; nested objects may be partial (recruiter.phone alone is fine). The
reference is immutable: it is never sent, and a file naming another reference is refused.
--set values follow the file rules: text fields keep the text as written, numbers only for number
fields, lists as [a, b].

Examples:
  $ ${name} update ACME-0042 --set location.city=Lyon --set seniority=3
  $ ${name} update ACME-0042 changes.yaml
  $ ${name} update ACME-0042 --set 'skills=[Go, Rust]' --dry-run`,
    )
    .action(action((ctx, reference: string, file: string | undefined, flags: UpdateFlags) => runUpdate(ctx, reference, file, flags)));
}

async function runUpdate(ctx: Context, reference: string, file: string | undefined, flags: UpdateFlags): Promise<number> {
  const [{ loadAdverts }, { parseSetFlag, applySet }, { findingFromProblem, findingsFromTree, sortFindings }, { invalidInput }, errors, { sanitize }, report] =
    await Promise.all([
      import('../../core/adverts/load.js'),
      import('../../core/publishing/patch.js'),
      import('../../core/errors/findings.js'),
      import('../output/findings-report.js'),
      import('../../core/errors/failures.js'),
      import('../../core/util/sanitize.js'),
      import('../output/publish-report.js'),
    ]);
  const [{ checkAdvert }, { refuseUnusableReferences }] = await Promise.all([import('../../core/validation/check.js'), import('../../core/validation/reference.js')]);
  if (!file && flags.set.length === 0) throw new errors.UsageError('nothing to update: give a file of fields to change and/or --set path=value');
  if (reference.trim() === '') throw new errors.UsageError('the reference must not be empty');
  reference = refuseUnusableReferences([reference])[0]!;
  const sets = flags.set.map(parseSetFlag);

  let patch: Record<string, unknown> = {};
  let source: import('../../core/adverts/types.js').AdvertSource | undefined;
  if (file) {
    const loaded = await loadAdverts([file], { cwd: ctx.cwd, stdin: () => ctx.io.stdin, uniqueReferences: false });
    if (loaded.problems.length > 0) {
      const findings = sortFindings(loaded.problems.map(findingFromProblem));
      throw invalidInput(ctx, findings, `${file} cannot be read as an update; nothing was sent`);
    }
    let adverts = loaded.adverts;
    const { expansionOf } = await import('../../core/adverts/locations.js');
    if (adverts.length > 1 && adverts.every((a) => expansionOf(a) && a.index === adverts[0]!.index)) {
      // An advert for several places: the update is that of the place named.
      const place = adverts.filter((a) => a.value.reference === reference);
      if (place.length === 0) {
        throw new errors.InvalidInputError(`${file} is an advert for several places, and none of them is ${JSON.stringify(sanitize(reference))}: its places are ${adverts.map((a) => sanitize(String(a.value.reference))).join(', ')}`);
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
  const { constants } = await ctx.config();
  const checked = checkAdvert({ file: source?.file ?? '', index: 0, value: patch, locate: source?.locate ?? (() => ({ line: 1, column: 1 })) }, { defaults: {}, constants }, 'update', {
    allowUnknownFields: Boolean(flags.allowUnknownFields),
  });
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
  const path = `/jobs/${(await import('../../core/api/url.js')).encodeSegment(reference)}`;
  if (flags.dryRun) {
    if (ctx.globals.output === 'json') ctx.io.stdout.write(jsonText({ dry_run: true, requests: [{ method: 'PUT', path, body: patch }] }));
    else ctx.io.stdout.write(`PUT ${sanitize(path)}\n${JSON.stringify(patch, null, 2).replace(/^/gm, '  ')}\n`);
    return 0;
  }
  const client = await ctx.client();
  // Without a file the fields came from --set flags: there is no file position to point at.
  const advert = { source: source ?? { file: '', index: 0, value: patch, locate: () => ({ line: 1, column: 1 }) }, reference, payload: patch, tree: {} };
  let outcome: import('../output/publish-report.js').SendOutcome;
  try {
    await client.update(reference, patch, { signal: ctx.signal });
    outcome = { advert, status: 'updated' };
    // It exists on the service: stats --all and report know it, by its new title when it has one.
    const { rememberPublished, sentAdvert } = await import('../published.js');
    await rememberPublished(ctx, [sentAdvert(reference, patch)]);
  } catch (error) {
    if (!(error instanceof errors.JobsError)) throw error;
    outcome = { advert, status: 'failed', error };
  }
  if (ctx.globals.output === 'json') ctx.io.stdout.write(jsonText(report.outcomeJson(outcome)));
  else report.writeOutcome(ctx, outcome);
  return outcome.error ? outcome.error.exitCode : 0;
}
