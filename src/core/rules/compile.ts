/**
 * The rules data compiled for checking: indexed by place, dates as day numbers, each rule's message
 * slug. Done once per run (per worker thread): kept by the identity of the files it was made from.
 * Checks the schema cannot express, each failure naming the file: the file's name from its place,
 * every rule's id under its place, ids unique across files, cities for city places only, from <= to.
 */
import { dayOf } from '../adverts/dates.js';
import { foldName, parentOf } from './places.js';
import type { Rule, RuleFile } from './types.js';

export interface CompiledRule extends Rule {
  place: RuleFile['place'];
  /** The data file it came from. */
  file: string;
  /** The id as a message's data segment (`US_CO_pay_range`): letters, digits and `_`. */
  slug: string;
  fromDay: number;
  toDay?: number;
}

export interface CompiledRules {
  rules: CompiledRule[];
  byId: Map<string, CompiledRule>;
  bySlug: Map<string, CompiledRule>;
  /** place id -> its rules. */
  byPlace: Map<string, CompiledRule[]>;
  /** The places the data has (with rules or not). */
  places: Map<string, RuleFile['place']>;
  /** parent (ISO 3166-2) -> its city places and their folded spellings. */
  cities: Map<string, { id: string; names: Set<string> }[]>;
  /** The countries (ISO 3166-1) of the places with rules: an advert in none of them, not remote, has no rule to check. */
  countries: Set<string>;
}

export class RulesDataError extends Error {}

/** `US-NY/new-york-city` -> `us-ny--new-york-city.yaml`. */
export function placeFileName(id: string): string {
  return `${id.toLowerCase().replace(/\//g, '--')}.yaml`;
}

export const slugOf = (id: string) => id.replace(/[^A-Za-z0-9]+/g, '_');

export function compileRules(files: readonly { file: string; data: RuleFile }[]): CompiledRules {
  const out: CompiledRules = { rules: [], byId: new Map(), bySlug: new Map(), byPlace: new Map(), places: new Map(), cities: new Map(), countries: new Set() };
  for (const { file, data } of files) {
    const fail = (what: string) => {
      throw new RulesDataError(`${file}: ${what}`);
    };
    const place = data.place;
    if (file.split('/').at(-1) !== placeFileName(place.id)) fail(`a file for ${place.id} is named ${placeFileName(place.id)}`);
    if (out.places.has(place.id)) fail(`${place.id} has another file`);
    if ((place.kind === 'city') !== place.id.includes('/')) fail(`place.kind ${place.kind} does not fit the id ${place.id}`);
    if ((place.kind === 'city') !== (place.cities !== undefined)) fail(`place.cities is for a city place, and a city place needs it`);
    out.places.set(place.id, place);
    if (place.cities) {
      const parent = parentOf(place.id)!;
      const list = out.cities.get(parent) ?? [];
      list.push({ id: place.id, names: new Set(place.cities.map(foldName)) });
      out.cities.set(parent, list);
    }
    const own: CompiledRule[] = [];
    for (const rule of data.rules) {
      if (!rule.id.startsWith(`${place.id}/`) || rule.id.slice(place.id.length + 1).includes('/'))
        fail(`rule ${rule.id}: its id starts with ${place.id}/ and a slug`);
      if (out.byId.has(rule.id)) fail(`rule ${rule.id} is also in ${out.byId.get(rule.id)!.file}`);
      const fromDay = dayOf(rule.from);
      const toDay = rule.to === undefined ? undefined : dayOf(rule.to);
      if (fromDay === undefined || (rule.to !== undefined && toDay === undefined) || dayOf(rule.checked) === undefined)
        fail(`rule ${rule.id}: a date is not a calendar date`);
      if (toDay !== undefined && toDay < fromDay!) fail(`rule ${rule.id}: to is before from`);
      const slug = slugOf(rule.id);
      if (out.bySlug.has(slug)) fail(`rule ${rule.id}: its slug ${slug} is also ${out.bySlug.get(slug)!.id}'s`);
      const compiled: CompiledRule = { ...rule, place, file, slug, fromDay: fromDay!, ...(toDay === undefined ? {} : { toDay }) };
      out.rules.push(compiled);
      out.byId.set(rule.id, compiled);
      out.bySlug.set(slug, compiled);
      own.push(compiled);
    }
    out.byPlace.set(place.id, own);
  }
  out.countries = ruleCountries(files);
  return out;
}

const countriesOf = new WeakMap<object, Set<string>>();

/**
 * The countries (ISO 3166-1) of the places with rules, without compiling the rules: most adverts are
 * in none of them, and a run of only those never compiles (its dates and indexes cost every start).
 */
export function ruleCountries(files: readonly { file: string; data: RuleFile }[]): Set<string> {
  let countries = countriesOf.get(files);
  if (!countries) {
    countries = countriesOfPlaces(files.filter(({ data }) => data.rules.length > 0).map(({ data }) => data.place.id));
    countriesOf.set(files, countries);
  }
  return countries;
}

/** The countries of these place ids (US-NY/new-york-city -> US). */
export function countriesOfPlaces(ids: readonly string[]): Set<string> {
  return new Set(ids.map(countryOf));
}

/** The country of a place id (US-NY/new-york-city -> US). */
function countryOf(id: string): string {
  let country = id;
  for (let p = parentOf(id); p !== undefined; p = parentOf(p)) country = p;
  return country;
}

const cache = new WeakMap<object, CompiledRules>();
let last: CompiledRules | undefined;

/** The compiled form of these files, made once per thread for the same files. */
export function compiledRules(files: readonly { file: string; data: RuleFile }[]): CompiledRules {
  let c = cache.get(files);
  if (!c) cache.set(files, (c = compileRules(files)));
  return (last = c);
}

/** The rules the thread last checked with: what a finding's description reads its rule from. */
export function lastCompiledRules(): CompiledRules | undefined {
  return last;
}

/** In force on a day (a UTC day number). */
export function inForce(rule: CompiledRule, today: number): boolean {
  return rule.fromDay <= today && (rule.toDay === undefined || today <= rule.toDay);
}
