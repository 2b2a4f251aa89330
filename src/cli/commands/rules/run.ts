/** rules: the rules by place in this build, by place; --stale those checked more than 12 months ago. */
import type { Context } from '../../context.js';
import { ruleData } from '../../../core/rules/settings.js';
import { compiledRules, inForce, type CompiledRule } from '../../../core/rules/compile.js';
import { isKnownPlace, within } from '../../../core/rules/places.js';
import { todayFor } from '../../../core/sync/today.js';
import { dateOf, dayOf } from '../../../core/adverts/dates.js';
import { UsageError } from '../../../core/errors/failures.js';
import { didYouMean } from '../../../core/util/did-you-mean.js';
import { isJson } from '../../output/command-io.js';
import { jsonText } from '../../output/json-output.js';
import { writeRules, writeWordingChecks, type ListedRule } from './report.js';
import { wordingChecks } from '../../../core/wording/list.js';

/** The day twelve months before `today` (a day number): a rule last checked before it is stale. */
export function staleBefore(today: number): number {
  const d = new Date(today * 86_400_000);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  return dayOf(d.toISOString().slice(0, 10)) ?? today - 365;
}

export async function runRules(ctx: Context, place: string | undefined, flags: { stale?: boolean }): Promise<number> {
  const config = await ctx.config({ token: false });
  const compiled = compiledRules(await ruleData(ctx.env));
  const today = await todayFor({ sandbox: ctx.globals.sandbox, env: ctx.env });
  let wanted: string | undefined;
  if (place !== undefined) {
    const id = place.includes('/') ? place.replace(/^[^/]*/, (p) => p.toUpperCase()) : place.toUpperCase();
    if (!isKnownPlace(id, new Set(compiled.places.keys()))) {
      const near = didYouMean(place, compiled.places.keys());
      throw new UsageError(
        `${JSON.stringify(place)} is not a place jobs knows${near ? `; did you mean ${near}?` : ''}: write an ISO 3166-1 code (US), an ISO 3166-2 code (US-CO) or a city place (US-NY/new-york-city)`,
      );
    }
    wanted = id;
  }
  const stale = staleBefore(today);
  const listed: ListedRule[] = compiled.rules
    .filter((r) => wanted === undefined || within(r.place.id, wanted) || within(wanted, r.place.id))
    .filter((r) => !flags.stale || dayOf(r.checked)! < stale)
    .map((r) => listedRule(r, today, stale, config.ruleLevels?.[r.id]?.level));
  // The wording checks reach every place and have no dates: listed with the whole list only.
  const off = new Set(config.wording?.off ?? []);
  const wording = wanted === undefined && !flags.stale ? wordingChecks().map((w) => ({ ...w, level: off.has(w.id) ? 'off' : 'warning' })) : [];
  if (isJson(ctx)) ctx.io.stdout.write(jsonText({ today: dateOf(today), rules: listed, ...(wording.length > 0 ? { wording } : {}) }));
  else {
    writeRules(ctx, listed, { place: wanted, stale: Boolean(flags.stale), total: compiled.rules.length });
    writeWordingChecks(ctx, wording);
  }
  return 0;
}

function listedRule(r: CompiledRule, today: number, stale: number, level: string | undefined): ListedRule {
  return {
    id: r.id,
    place: { id: r.place.id, name: r.place.name, kind: r.place.kind },
    summary: r.summary,
    from: r.from,
    ...(r.to === undefined ? {} : { to: r.to }),
    in_force: inForce(r, today),
    covers: r.covers,
    requires: r.requires,
    not_checked: r.not_checked ?? [],
    source: r.source,
    checked: r.checked,
    stale: dayOf(r.checked)! < stale,
    level: (level ?? 'error') as ListedRule['level'],
    ...(r.unsettled === undefined ? {} : { unsettled: r.unsettled }),
    ...(r.note === undefined ? {} : { note: r.note }),
  };
}
