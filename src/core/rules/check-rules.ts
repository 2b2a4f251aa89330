/**
 * The rules by place that an advert breaks: the places it is in (its location: country, state,
 * city) and, for a remote job, the places it could be done from (`jobs.remote.from`); of their rules,
 * those in force today, not turned off in the config, covering the employer (by the headcount the
 * config declares; unknown, the rule applies and says how to declare it), and, for a place reached
 * only remotely, reaching remote jobs (covered, or unsettled: the finding says so). Each requirement
 * the advert does not meet is one finding: `place_rule:<rule slug>:<reason>[:remote][:size_unknown]`,
 * at the location (each place of a `locations:` advert is its own advert) or at the remote place.
 *
 * What the advert shows is what is sent: the pay in salary_text (or jobs.pay, which salary_text must
 * agree with: pay-facts.ts), statements in the sent text or added by jobs.disclosures.
 */
import { compiledRules, inForce, type CompiledRule, type CompiledRules } from './compile.js';
import { countriesWithRules, rulesOf } from './data.js';
import { foldName, subdivisionOf, within } from './places.js';
import { forbiddenPhrase, states } from './statements.js';
import { disclosuresOf } from './disclosures.js';
import { shownPay, type ShownPay } from './pay-facts.js';
import { sameCurrency } from './pay.js';
import type { PayRangeOptions, Requirement, RuleSettings } from './types.js';
import { genderedTitle } from '../wording/neutral-title.js';
import { languageOf } from '../adverts/language.js';

export const PLACE_RULE = 'place_rule';

export interface RuleBreach {
  path: (string | number)[];
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The data places a location is in, widest first: its country, its state or province, its city place. */
export function placesOfLocation(location: unknown, c: CompiledRules): string[] {
  if (!isObject(location) || typeof location.country !== 'string') return [];
  const country = location.country;
  const out = [country];
  const sub = subdivisionOf(country, location.state);
  if (sub) out.push(sub);
  const city = typeof location.city === 'string' ? cityName(location.city, country, sub) : undefined;
  if (city !== undefined)
    for (const parent of sub ? [sub, country] : [country]) for (const place of c.cities.get(parent) ?? []) if (place.names.has(city)) out.push(place.id);
  return out;
}

/**
 * A location.city folded for matching, without a tail that only repeats its state or country:
 * `New York, NY` and `Brooklyn, New York` are written as often as `New York` and are that city.
 */
function cityName(written: string, country: string, sub: string | undefined): string {
  const comma = written.indexOf(',');
  if (comma < 0) return foldName(written);
  const tail = written.slice(comma + 1).trim();
  const repeats = tail === '' || subdivisionOf(country, tail) === sub || foldName(tail) === foldName(country) || /^(?:usa|u\.s\.a?\.?)$/i.test(tail);
  return foldName(repeats && sub !== undefined ? written.slice(0, comma) : written);
}

/** The remote places an advert declares (`jobs.remote.from`), as written. */
export function remotePlaces(advert: Record<string, unknown>): string[] {
  const block = isObject(advert.jobs) ? advert.jobs : undefined;
  const remote = block && isObject(block.remote) ? block.remote : undefined;
  return Array.isArray(remote?.from) ? remote.from.filter((p): p is string => typeof p === 'string') : [];
}

/** The employer's headcount as a rule counts it, or undefined when the config does not say. */
export function headcount(rule: CompiledRule, settings: Pick<RuleSettings, 'employer'>): number | undefined {
  const { employees, employees_in: byPlace } = settings.employer;
  if (rule.covers.counted === 'in_place') {
    const here = byPlace?.[rule.place.id];
    if (here !== undefined) return here;
    // Fewer in the place than in all: a small employer overall is small here too.
    return employees !== undefined && employees < rule.covers.employees_min ? employees : undefined;
  }
  return employees;
}

/** The advert's sent text: every string sent, with its disclosures (joined only when a check reads it). */
function sentText(advert: Record<string, unknown>, disclosed: readonly { text: string }[]): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(advert)) if (key !== 'jobs' && typeof value === 'string') parts.push(value);
  for (const d of disclosed) parts.push(d.text);
  return parts.join('\n');
}

/** What the pay requirement finds wrong, or undefined when the pay shown meets it. */
function payReason(o: PayRangeOptions, shown: ShownPay): string | undefined {
  if (shown.kind === 'link') return o.link === 'allowed' ? undefined : 'pay_link';
  if (shown.kind === 'none') return 'pay_missing';
  if (shown.kind === 'unread') return 'pay_unread';
  const pay = shown.pay;
  const top = pay.max ?? pay.min;
  if (o.applies_below && top !== undefined && sameCurrency(pay.currency, o.applies_below.currency) && top > o.applies_below.amount) return undefined;
  if ((pay.min === undefined || pay.max === undefined) && o.open_ended !== 'allowed') return 'pay_open_ended';
  if (o.max_spread && pay.min !== undefined && pay.max !== undefined && pay.max - pay.min > o.max_spread.amount) return 'pay_spread';
  if (o.per_time_unit === 'required' && pay.per === undefined) return 'pay_per';
  return undefined;
}

interface Shown {
  pay: () => ShownPay;
  /** The statements jobs.disclosures makes (each states its kind, whatever its words). */
  disclosed: () => Set<string>;
  text: () => string;
  /** Whether the title names one gender (wording/neutral-title.ts), in the advert's language. */
  gendered: () => boolean;
}

function reasonsOf(requires: readonly Requirement[], shown: Shown): string[] {
  const out: string[] = [];
  for (const r of requires) {
    if ('pay_range' in r) {
      const why = payReason(r.pay_range, shown.pay());
      if (why) out.push(why);
    } else if ('neutral_title' in r) {
      if (shown.gendered()) out.push('neutral_title');
    } else if ('forbidden_text' in r) {
      const found = forbiddenPhrase(r.forbidden_text.phrases, shown.text());
      if (found !== undefined) out.push(`forbidden_${r.forbidden_text.phrases.indexOf(found)}`);
    } else {
      const kind = Object.keys(r)[0] as 'benefits';
      if (!shown.disclosed().has(kind) && !states(kind, shown.text())) out.push(kind);
    }
  }
  return out;
}

/** The breaches of the rules in force for an advert (as checked: defaults applied, the jobs: block still on). */
export function checkPlaceRules(advert: Record<string, unknown>, settings: RuleSettings): RuleBreach[] {
  const remote = remotePlaces(advert);
  // Most adverts are in a country without rules and not remote: nothing to look up (no city name
  // folded, and the rules not even compiled).
  const country = isObject(advert.location) ? advert.location.country : undefined;
  if (remote.length === 0 && !(typeof country === 'string' && countriesWithRules(settings).has(country))) return [];
  const c = compiledRules(rulesOf(settings));
  if (c.rules.length === 0) return [];
  const reached: { rule: CompiledRule; path: (string | number)[]; remote: boolean }[] = [];
  const seen = new Set<string>();
  const reach = (place: string, path: (string | number)[], remote: boolean) => {
    for (const rule of c.byPlace.get(place) ?? []) {
      if (seen.has(rule.id) || !inForce(rule, settings.today) || settings.levels[rule.id] === 'off') continue;
      if (remote && rule.covers.remote === 'not_covered') continue;
      seen.add(rule.id);
      reached.push({ rule, path, remote });
    }
  };
  for (const place of placesOfLocation(advert.location, c)) reach(place, ['location'], false);
  remote.forEach((from, i) => {
    // Done from `from`: the places it is in, and the places inside it (remote from US: every state's rules).
    for (const place of c.places.keys()) if (within(from, place) || within(place, from)) reach(place, ['jobs', 'remote', 'from', i], true);
  });
  if (reached.length === 0) return [];
  let pay: ShownPay | undefined;
  let disclosures: ReturnType<typeof disclosuresOf> | undefined;
  let disclosed: Set<string> | undefined;
  let text: string | undefined;
  const shown: Shown = {
    pay: () => (pay ??= shownPay(advert)),
    disclosed: () => (disclosed ??= new Set((disclosures ??= disclosuresOf(advert)).map((d) => d.kind))),
    text: () => (text ??= sentText(advert, (disclosures ??= disclosuresOf(advert)))),
    gendered: () => typeof advert.title === 'string' && genderedTitle(advert.title, languageOf(advert)) !== undefined,
  };
  const out: RuleBreach[] = [];
  for (const { rule, path, remote } of reached) {
    const size = headcount(rule, settings);
    if (size !== undefined && size < rule.covers.employees_min) continue;
    const flags = [...(remote ? ['remote'] : []), ...(size === undefined && rule.covers.employees_min > 1 ? ['size_unknown'] : [])];
    // A gendered title is a finding at the title, where it is fixed.
    for (const reason of reasonsOf(rule.requires, shown))
      out.push({ path: reason === 'neutral_title' ? ['title'] : path, message: [PLACE_RULE, rule.slug, reason, ...flags].join(':') });
  }
  return out;
}
