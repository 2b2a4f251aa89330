/**
 * Sentences that say what to write instead. The catalogue words an identifier alone ("is invalid");
 * here the identifier meets the value that was written, the schema and the config, so the message
 * can name the fix: the date format and whether the day exists, the country code meant, why a field
 * is required, the constant name meant, where a misplaced field belongs. Used only for messages
 * that are shown (local or the service's), so a valid advert never pays for it. Which sentence goes
 * with which identifier is the rule registry's (local-rules.ts); this file holds the sentences.
 */
import { advertFacts } from '../generated/advert-facts.js';
import { advertFieldTypes } from '../generated/validators.js';
import type { Position } from '../adverts/types.js';
import { constantFamilyAt, type Constants } from '../config/advert-settings.js';
import { didYouMean } from '../util/did-you-mean.js';
import { getPath, isPlainObject } from '../config/plain.js';
import { sanitize } from '../util/sanitize.js';
import { utcMs } from '../adverts/dates.js';
import { suggestCountry } from './countries.js';
import { plural } from '../util/plural.js';

export interface AdviceContext {
  /** The advert as checked or sent (config defaults and constant names applied). */
  value?: unknown;
  /** The config's constant names, for "did you mean". */
  constants?: Constants;
  /** Where a path is written, for "indent it like ...". */
  locate?: (path: readonly (string | number)[]) => Position;
}

export const DATE_EXAMPLE = '2027-01-15';

// ---- dates -------------------------------------------------------------------------------------

const FORMAT = `write the date as YYYY-MM-DD, e.g. ${DATE_EXAMPLE}`;

function monthName(month: number): string {
  return new Date(Date.UTC(2000, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
}

function daysIn(year: number, month: number): number {
  return new Date(utcMs(year, month, 0)).getUTCDate();
}

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
const isDay = (y: number, m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);

export function adviseDate(text: string): string {
  const shown = sanitize(text);
  const ymd = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})$/.exec(text.trim());
  if (ymd) {
    const [y, m, d] = [Number(ymd[1]), Number(ymd[3]), Number(ymd[4])];
    if (m < 1 || m > 12) return `${shown} is not a date: there is no month ${m}; ${FORMAT}`;
    if (d < 1 || d > daysIn(y, m)) return `${shown} is not a day: ${monthName(m)} ${y} has ${daysIn(y, m)} days; ${FORMAT}`;
    return `${shown} is not in the YYYY-MM-DD format: write ${iso(y, m, d)}`;
  }
  const dmy = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4})$/.exec(text.trim());
  if (dmy) {
    const [a, b, y] = [Number(dmy[1]), Number(dmy[3]), Number(dmy[4])];
    const dayFirst = isDay(y, b, a) ? iso(y, b, a) : undefined;
    const monthFirst = isDay(y, a, b) ? iso(y, a, b) : undefined;
    if (dayFirst && monthFirst && dayFirst !== monthFirst) {
      return `${shown} is not in the YYYY-MM-DD format: write ${dayFirst} for ${a} ${monthName(b)} ${y}, or ${monthFirst} for ${b} ${monthName(a)} ${y}`;
    }
    const meant = dayFirst ?? monthFirst;
    if (meant) return `${shown} is not in the YYYY-MM-DD format: write ${meant}`;
  }
  return `${shown} is not a date in the YYYY-MM-DD format; ${FORMAT}`;
}

// ---- e-mail addresses --------------------------------------------------------------------------

/** What is wrong with an address the schema refused, in the words of the usual slips. */
export function adviseEmail(text: string): string {
  const shown = sanitize(text);
  const at = text.indexOf('@');
  if (/\s/.test(text.trim())) return `${shown} has a space in it: an e-mail address has none; write ${sanitize(text.replace(/\s+/g, ''))}`;
  if (at < 0) return `${shown} has no @: write the address as name@domain, e.g. hiring@example.com`;
  if (text.indexOf('@', at + 1) >= 0) return `${shown} has more than one @: write one address, as name@domain`;
  const domain = text.slice(at + 1);
  if (/[,;]/.test(domain))
    return `${shown} has a ${domain.includes(',') ? 'comma' : 'semicolon'} where a dot belongs: write ${sanitize(text.slice(0, at + 1) + domain.replace(/[,;]/g, '.'))}`;
  if (domain !== '' && !domain.includes('.'))
    return `${shown} has no top-level domain after ${sanitize(domain)}: write the whole domain, e.g. ${sanitize(text)}.com`;
  return `${shown} is not an e-mail address: write it as name@domain, e.g. hiring@example.com`;
}

// ---- lists ---------------------------------------------------------------------------------------

/** A YAML list item as written in a flow list: quoted when plain text would read differently. */
const flowItem = (item: string) => (/^[\p{L}\p{N}][\p{L}\p{N} .+#/_-]*$/u.test(item) ? item : JSON.stringify(item));

/** `skills: Node.js, TypeScript` is one text; the field takes a list: show the list to write. */
export function adviseList(path: readonly string[], text: string): string {
  const items = text
    .split(/\s*[,;]\s*/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const field = path[path.length - 1]!;
  const list = `${field}: [${items.map((i) => sanitize(flowItem(i))).join(', ')}]`;
  return `is a list, not one text: write ${list}, or each item on its own line under ${field}: as "- item"`;
}

// ---- objects -------------------------------------------------------------------------------------

/** What each object field holds, and an example made from the text written where it fits. */
const OBJECTS: Record<string, { holds: string; example: (text: string) => string }> = {
  location: {
    holds: 'country (a two-letter code), city, and state for US, CA and MX',
    example: (text) => `location: {country: DE, city: ${/^[\p{L} .'-]+$/u.test(text) ? text : 'Berlin'}}`,
  },
  recruiter: {
    holds: 'email (required), phone, first_name, last_name, organization_name and organization_type',
    example: (text) => `recruiter: {email: ${/^[^\s@,;]+@[^\s@,;]+$/.test(text) ? text : 'hiring@example.com'}}`,
  },
};

/** `location: Berlin`, `recruiter: hiring@acme.example`: one text where an object of fields goes. */
export function adviseObject(path: readonly string[], text: string): string {
  const field = path.join('.');
  const known = OBJECTS[field];
  const fields = Object.keys(advertFieldTypes)
    .filter((k) => k.startsWith(`${field}.`) && !k.slice(field.length + 1).includes('.'))
    .map((k) => k.slice(field.length + 1));
  const holds = known?.holds ?? fields.join(', ');
  const example = known ? `: ${sanitize(known.example(text.trim()))}` : '';
  return `is an object of fields, not one text: ${field} holds ${holds}; write them indented under ${field}: on lines of their own, or on one line${example}`;
}

// ---- several cities in one -----------------------------------------------------------------------

/** Parts of a city's text that read as several cities (`Berlin, Munich`), or undefined: each part has 3 letters or more (`Washington, D.C.` is one). */
export function citiesIn(text: string): string[] | undefined {
  // Every advert's city is asked: most have no separator at all.
  if (!text.includes(',') && !text.includes(';')) return undefined;
  const parts = text
    .split(/\s*[,;]\s*/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length < 2 || !parts.every((p) => (p.match(/\p{L}/gu) ?? []).length >= 3)) return undefined;
  return parts;
}

/** `city: Berlin, Munich, Hamburg` is sent as one city: one advert per city is `locations:`. */
export function adviseCities(path: readonly string[], text: string, advert: unknown): string | undefined {
  const cities = citiesIn(text);
  if (!cities) return undefined;
  const country = getPath(advert, [...path.slice(0, -1), 'country']);
  const code = typeof country === 'string' ? sanitize(country) : 'DE';
  const places = cities.map((c) => `{country: ${code}, city: ${sanitize(flowItem(c))}}`).join(', ');
  return `is sent as one city, "${sanitize(text)}": for an advert in each, replace location: with locations: [${places}] (see "Several places" in docs/adverts.md)`;
}

// ---- numbers -------------------------------------------------------------------------------------

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
];

/** A name where an id goes (`contract_id: permanent`), or words where a number goes (`seniority: three years`). */
export function adviseNumber(path: readonly string[], value: unknown, context: AdviceContext): string | undefined {
  if (typeof value !== 'string') return undefined;
  const shown = sanitize(value);
  const family = constantFamilyAt(path);
  // `salary_id: 45,000`: an amount where the id of a salary band goes.
  if (family === 'salary' && /\d/.test(value) && !/^\s*-?\d+\s*$/.test(value))
    return `${shown} is an amount, not an id: salary_id is the id of a salary band (one of the service's constants), and the amount goes in salary_text, shown to candidates as written (salary_text: ${shown} EUR a year)`;
  if (family) {
    const field = path.join('.');
    // Names are the config's: without constants.<family> there are none to look up.
    if (!isPlainObject(context.constants?.[family]) && !/^\s*-?\d/.test(value)) {
      const key = /^[\w-]+$/.test(value) ? value : JSON.stringify(value);
      return `${shown} is a name, and names need constants.${family} in the config (constants: {${family}: {${sanitize(key)}: <id>}}, or: jobs config set constants.${family}.${sanitize(key)} <id>); or write the id: ${field}: <id>`;
    }
    return undefined;
  }
  if (path.join('.') === 'seniority') {
    const words = value.trim().toLowerCase();
    const digits = /^(\d+)\b/.exec(words)?.[1];
    const word = NUMBER_WORDS.findIndex((w) => new RegExp(`^${w}\\b`).test(words));
    const years = digits ?? (word >= 0 ? String(word) : undefined);
    return `${shown} is not a number: seniority is a number of years (the minimum experience); write ${years ?? 'a whole number, e.g. 3'}`;
  }
  return undefined;
}

// ---- permitted values ----------------------------------------------------------------------------

export function adviseInclusion(path: readonly string[], value: unknown, context: AdviceContext): string | undefined {
  const family = constantFamilyAt(path);
  const names = family && context.constants?.[family];
  if (family && isPlainObject(names) && typeof value === 'string') {
    const known = Object.keys(names);
    const meant = didYouMean(value, known);
    const list = known.length <= 8 ? ` (${known.map((k) => sanitize(k)).join(', ')})` : '';
    return meant !== undefined
      ? `${sanitize(value)} is not a name in constants.${family}; did you mean ${sanitize(meant)}?`
      : `${sanitize(value)} is not a name in constants.${family}${list}, nor an id`;
  }
  const permitted = advertFacts.enums[path.join('.')];
  if (!permitted || value === undefined || value === null) return undefined;
  if (path[path.length - 1] === 'country') {
    const text = sanitize(String(value));
    const meant = suggestCountry(String(value), permitted);
    if (meant) return `${text} is not an ISO 3166-1 alpha-2 country code: write ${meant.code} (${meant.name})${alsoRequired(path, meant.code, context.value)}`;
    return `${text} is not an ISO 3166-1 alpha-2 country code: write the country's two-letter code, e.g. NO, FR, US or GB`;
  }
  if (path.join('.') === 'jobs.pay.currency') {
    const text = sanitize(String(value));
    const upper = String(value).toUpperCase();
    if (upper !== String(value) && permitted.includes(upper)) return `${text} is not an ISO 4217 currency code: write it in capitals, ${upper}`;
    return `${text} is not an ISO 4217 currency code${upper === 'XXX' || upper === 'XTS' ? ' (ISO keeps it for "no currency" and tests)' : ''}: write the pay's currency as its three-letter code, e.g. USD, EUR, GBP or NOK`;
  }
  if (permitted.length <= 10) return `is not one of the permitted values: ${permitted.map((v) => sanitize(String(v))).join(', ')}`;
  return undefined;
}

// ---- conditional requirements -------------------------------------------------------------------

/** `; then add state (required for US)` when writing `value` at `path` makes absent fields required. */
function alsoRequired(path: readonly string[], value: unknown, advert: unknown): string {
  const parent = path.slice(0, -1);
  const field = path[path.length - 1];
  const absent = advertFacts.conditions
    .filter((c) => c.path === parent.join('.') && c.field === field && c.values.includes(value))
    .flatMap((c) => c.required.filter((r) => getPath(advert, [...parent, r]) === undefined));
  return absent.length > 0 ? `, and add ${absent.join(', ')} (required for ${String(value)})` : '';
}

export function adviseMissing(path: readonly string[], advert: unknown): string | undefined {
  const parent = path.slice(0, -1);
  const field = path[path.length - 1];
  for (const c of advertFacts.conditions) {
    if (c.path !== parent.join('.') || !c.required.includes(field!)) continue;
    const value = getPath(advert, [...parent, c.field]);
    if (!c.values.includes(value)) continue;
    const others = c.values.filter((v) => v !== value).map(String);
    const also = others.length > 0 ? ` (also for ${others.join(', ')})` : '';
    return `is missing: it is required because ${[...parent, c.field].join('.')} is ${sanitize(String(value))}${also}`;
  }
  return undefined;
}

// ---- misplaced fields ---------------------------------------------------------------------------

/** Known fields of the object at a dotted parent path ('' for the advert). */
function knownField(parent: string, name: string): boolean {
  return Object.hasOwn(advertFieldTypes, parent ? `${parent}.${name}` : name);
}

export interface Misplacement {
  /** Path of the object the field belongs in. */
  home: string[];
  /** Whether that object is inside the one the field was written in (indent more) or outside (indent less). */
  deeper: boolean;
}

/**
 * Where a field the schema does not know at `path` belongs: a field of a nested object written one
 * level too far out (`city` beside `location`), or a field of the enclosing object written one level
 * too far in (`title` inside `location`). Typically an indentation mistake.
 */
export function misplacement(path: readonly string[]): Misplacement | undefined {
  const name = path[path.length - 1]!;
  const parent = path.slice(0, -1);
  const prefix = parent.join('.');
  for (const [key, type] of Object.entries(advertFieldTypes)) {
    const child = prefix ? (key.startsWith(`${prefix}.`) ? key.slice(prefix.length + 1) : undefined) : key;
    if (child === undefined || child.includes('.') || type !== 'object') continue;
    if (knownField(prefix ? `${prefix}.${child}` : child, name)) return { home: [...parent, child], deeper: true };
  }
  if (parent.length > 0 && knownField(parent.slice(0, -1).join('.'), name)) return { home: parent.slice(0, -1), deeper: false };
  return undefined;
}

function objectName(path: readonly string[]): string {
  return path.length === 0 ? 'the advert' : `\`${path.join('.')}\``;
}

export function adviseMisplaced(path: readonly string[], context: AdviceContext): string | undefined {
  const place = misplacement(path);
  if (!place) return undefined;
  const written = path.slice(0, -1);
  const home = getPath(context.value, place.home);
  const belongs = `is a field of ${objectName(place.home)}, not of ${objectName(written)}`;
  // Line it up with the fields already in the object it belongs to (locate gives a mapping's first key).
  const first = isPlainObject(home) ? Object.keys(home)[0] : undefined;
  const at = first !== undefined && context.locate ? context.locate(place.home) : undefined;
  const lineUp = at && first !== undefined ? `, lined up with \`${sanitize(first)}\` (${plural(at.column - 1, 'space')})` : '';
  if (place.deeper) return `${belongs}: indent it under \`${place.home[place.home.length - 1]}\`${lineUp}`;
  return `${belongs}: indent it less${lineUp}`;
}
