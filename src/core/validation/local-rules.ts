/**
 * The registry of local rules: for each message identifier the tool says something about itself,
 * what finds it in an advert (detect), the sentence that names it (describe) and the sentence that
 * says what to write instead (advise). Adding a rule with advice is one entry here.
 *
 * One table rather than a file per rule: the rules are few and short, several share helpers
 * (misplacement() both detects and advises `unknown_field`), and a reader sees every identifier the
 * tool produces or explains in one screen. The sentence builders they call live in advice.ts.
 *
 * Rules run in table order, after the schema and the config's constant names; the order is the
 * order of their findings in a file, so new rules go at the end.
 *
 * A rule's `severity` says what its findings do: an error makes the advert invalid (exit 3, nothing
 * sent); a warning is reported beside it and makes nothing invalid. checkAdvert moves a warning
 * rule's messages out of the error tree (splitWarnings), so a detect adds every finding the same way.
 */
import { advertFacts } from '../generated/advert-facts.js';
import { advertFieldTypes } from '../generated/validators.js';
import { getPath, isPlainObject } from '../config/plain.js';
import { addError, clearErrors, flattenTree, type ErrorEntry, type ErrorTree } from '../errors/tree.js';
import { describeMessage, parseMessage } from '../errors/messages.js';
import {
  adviseCities,
  adviseDate,
  adviseEmail,
  adviseInclusion,
  adviseList,
  adviseMisplaced,
  adviseMissing,
  adviseNumber,
  adviseObject,
  citiesIn,
  misplacement,
  type AdviceContext,
} from './advice.js';
import { LISTED_UNKNOWN_FIELDS, MORE_UNKNOWN_FIELDS, UNKNOWN_FIELD } from './ajv-errors.js';
import { unusableReference } from '../adverts/reference.js';
import type { AdvertMode } from './validate.js';
import { checkDates, dateOf, datesOf, dayOf, DATES_BLOCK } from '../adverts/dates.js';
import type { AdvertSettings } from './check.js';
import { checkPlaceRules, PLACE_RULE, remotePlaces } from '../rules/check-rules.js';
import { describePlaceRule, ruleOfSlug } from '../rules/describe.js';
import { payDisagreement } from '../rules/pay-facts.js';
import { readSalaryText } from '../rules/pay.js';
import { compiledRules } from '../rules/compile.js';
import { rulesOf } from '../rules/data.js';
import { isKnownPlace } from '../rules/places.js';
import { checkWording, WORDING_RULES, WORDING_RULE_IDS } from '../wording/check.js';
import { adviseWording, describeWording } from '../wording/advice.js';

/** What a rule's detect sees: the advert as validated (defaults and constants applied) and its tree so far. */
export interface DetectContext {
  advert: Record<string, unknown>;
  mode: AdvertMode;
  /** The reference, when the advert has a usable one (read before an update body drops it). */
  reference?: string;
  /** Errors so far; detect adds to it or clears from it. */
  tree: ErrorTree;
  /** What the advert is checked with: today's date, the rules by place and the employer's facts, where the command gives them. */
  settings?: AdvertSettings;
}

export type Severity = 'error' | 'warning';

export interface LocalRule {
  /** The message identifier (`too_long` in `too_long:80`). */
  id: string;
  /** Adds this rule's errors to the tree (or folds others away). Absent: the schema detects it. */
  detect?: (context: DetectContext) => void;
  /** The end of a sentence about the field, from the identifier's data. Absent: errors/messages.ts's catalogue. */
  describe?: (data: string[]) => string | undefined;
  /** A better sentence naming the fix, given the value written; undefined keeps the description. */
  advise?: (path: readonly string[], value: unknown, context: AdviceContext, data: string[]) => string | undefined;
  /** 'warning': reported, makes nothing invalid. Default 'error'. A function when the settings decide (a rule by place lowered in the config). */
  severity?: Severity | ((data: string[], settings: AdvertSettings | undefined) => Severity);
  /** One sentence on what the rule checks: SARIF's description of the rule. */
  summary?: string;
  /** An address that explains the rule (SARIF's helpUri). */
  help?: string;
  /** The finding's rule id when it is not the identifier (a rule by place: `US-CO/pay-range`), its own help address and summary; `shown`: what a finding shows in place of the identifier and its data. */
  finding?: (data: string[]) => { rule: string; help?: string; summary?: string; shown?: string } | undefined;
  /** Where in the field's text the finding is (an offset), when it is a word inside a string: the finding is at that word's line and column. */
  offset?: (data: string[]) => number | undefined;
}

export const LOCAL_RULES: LocalRule[] = [
  {
    id: 'invalid',
    // A reference that could never be used in a URL (see reference.ts); an update names its advert, it does not create one.
    detect: ({ mode, reference, tree }) => {
      if (mode === 'create' && reference !== undefined && unusableReference(reference)) addError(tree, ['reference'], 'invalid');
    },
    advise: (path, value) => {
      const dotted = path.join('.');
      if (advertFacts.formats[dotted] === 'date' && typeof value === 'string') return adviseDate(value);
      if (advertFacts.formats[dotted] === 'email' && typeof value === 'string') return adviseEmail(value);
      if (dotted === 'reference' && typeof value === 'string') return unusableReference(value);
      if (advertFieldTypes[dotted] === 'array' && typeof value === 'string') return adviseList(path, value);
      if (advertFieldTypes[dotted] === 'object' && typeof value === 'string') return adviseObject(path, value);
      return undefined;
    },
  },
  { id: 'not_a_number', advise: (path, value, context) => adviseNumber(path, value, context) },
  { id: 'inclusion', advise: (path, value, context) => adviseInclusion(path, value, context) },
  { id: 'missing', advise: (path, _value, context) => adviseMissing(path, context.value) },
  {
    id: UNKNOWN_FIELD,
    // The schema finds the field (ajv-errors.ts). A field written one level off (`city` beside
    // `location`) is unknown where it is and missing where it belongs: one mistake, reported once,
    // at the line written.
    detect: ({ advert, tree }) => {
      if (Object.keys(tree).length === 0) return;
      for (const entry of flattenTree(tree)) {
        if (entry.message.split(':')[0] !== UNKNOWN_FIELD || entry.path.length === 0) continue;
        const place = misplacement(entry.path);
        if (!place) continue;
        const home = [...place.home, entry.path[entry.path.length - 1]!];
        if (getPath(advert, home) === undefined) clearErrors(tree, home);
      }
    },
    advise: (path, _value, context) => adviseMisplaced(path, context),
  },
  {
    // The tool's own `jobs:` block (adverts/dates.ts): an advert that closes before it opens would never be up.
    id: 'before_opens',
    detect: ({ advert, tree }) => checkDates(datesOf(advert), tree),
    describe: () => 'is before jobs.opens: the advert would never be up',
  },
  {
    // Only where the command gives today's date (validate): sync acts on it instead (deletes the advert).
    id: 'closed',
    severity: 'warning',
    summary: "The advert's closing date (jobs.closes) has passed: sync deletes it from the service.",
    detect: ({ advert, settings, tree }) => {
      const closes = settings?.today === undefined ? undefined : jobsBlock(advert)?.closes;
      // YYYY-MM-DD strings compare as the days they name; one not a calendar date is the schema's to report.
      if (typeof closes === 'string' && closes < todayText(settings!.today!) && dayOf(closes) !== undefined) addError(tree, [DATES_BLOCK, 'closes'], 'closed');
    },
    describe: () => 'has passed: the advert is closed, and sync deletes it from the service',
  },
  {
    // Found with unknown_field (ajv-errors.ts): past the first few, unknown fields are counted, not listed.
    id: MORE_UNKNOWN_FIELDS,
    describe: ([count]) => {
      const others = Number(count) - 1;
      const after = others > 0 ? `, nor are the ${others} fields after it in this mapping` : '';
      return `is not a known field${after} (only the first ${LISTED_UNKNOWN_FIELDS} unknown fields are listed): remove them, or check that this is an advert file`;
    },
  },
  {
    // jobs.pay (rules/pay-facts.ts): a bottom above the top is one mistake, at the bottom.
    id: 'greater_than',
    detect: ({ advert, tree }) => {
      const pay = jobsBlock(advert)?.pay as Record<string, unknown> | undefined;
      if (typeof pay?.min === 'number' && typeof pay.max === 'number' && pay.min > pay.max)
        addError(tree, [DATES_BLOCK, 'pay', 'min'], `greater_than:${pay.max}`);
    },
    advise: (path, _value, _context, [max]) =>
      path.join('.') === 'jobs.pay.min' ? `is above jobs.pay.max (${max}): swap them, or correct the one that is wrong` : undefined,
  },
  {
    // The sent salary_text and the never-sent jobs.pay must tell the candidate and the checks one pay.
    id: 'salary_mismatch',
    summary: 'salary_text must show the pay that jobs.pay declares.',
    detect: ({ advert, tree }) => {
      const what = payDisagreement(advert);
      if (what) addError(tree, ['salary_text'], `salary_mismatch:${what}`);
    },
    describe: ([what]) =>
      what === 'unread'
        ? 'does not show the pay of jobs.pay in a form that can be read: write both as the same pay, or leave salary_text out and it is written from jobs.pay'
        : `does not agree with jobs.pay: its ${what ?? 'pay'} differs; correct the one that is wrong, or leave salary_text out and it is written from jobs.pay`,
  },
  {
    // jobs.remote.from: the places a remote job may be done from (rules/places.ts).
    id: 'unknown_place',
    detect: ({ advert, settings, tree }) => {
      const places = remotePlaces(advert);
      if (places.length === 0) return;
      const cities = new Set(settings?.rules ? compiledRules(rulesOf(settings.rules)).places.keys() : []);
      places.forEach((place, i) => {
        if (!isKnownPlace(place, cities)) addError(tree, [DATES_BLOCK, 'remote', 'from', String(i)], 'unknown_place');
      });
    },
    describe: () =>
      'is not a place jobs knows: write an ISO 3166-1 code (US), an ISO 3166-2 code (US-CO), or a city place that `jobs rules` lists (US-NY/new-york-city)',
  },
  {
    // jobs.disclosures.deadline: true writes jobs.closes into the job description (rules/disclosures.ts).
    id: 'needs_closes',
    detect: ({ advert, tree }) => {
      const block = jobsBlock(advert);
      const disclosures = block?.disclosures as Record<string, unknown> | undefined;
      if (disclosures?.deadline === true && block!.closes === undefined) addError(tree, [DATES_BLOCK, 'disclosures', 'deadline'], 'needs_closes');
    },
    describe: () => 'is true, but there is no jobs.closes to write: add jobs.closes, or write the deadline as a text',
  },
  {
    // The rules by place (src/core/rules/): an error unless the config lowers the rule to a warning.
    id: PLACE_RULE,
    summary: 'The advert must show what the rules by place in force today ask (jobs rules lists them).',
    severity: ([slug], settings) => {
      const rule = ruleOfSlug(slug);
      return rule && settings?.rules?.levels[rule.id] === 'warning' ? 'warning' : 'error';
    },
    detect: ({ advert, mode, settings, tree }) => {
      if (!settings?.rules) return;
      // A partial update is judged only when it carries a whole advert's worth of what rules read.
      if (mode === 'update' && !(advert.location && advert.salary_text !== undefined && advert.job_description !== undefined)) return;
      for (const b of checkPlaceRules(advert, settings.rules)) addError(tree, b.path, b.message);
    },
    describe: (data) => describePlaceRule(data),
    advise: (_path, _value, context, data) => {
      if (data[1] !== 'pay_unread' || !isObject(context.value) || typeof context.value.salary_text !== 'string') return undefined;
      const read = readSalaryText(context.value.salary_text);
      return read.kind === 'unread' ? describePlaceRule(data, read.why) : undefined;
    },
    finding: ([slug]) => {
      const rule = ruleOfSlug(slug);
      return rule && { rule: rule.id, help: rule.source.url, summary: `${rule.place.name}: ${rule.summary} (${rule.source.title}).` };
    },
  },
  {
    // The service takes it, as one city: a warning that shows the locations: list to write instead.
    id: 'several_cities',
    severity: 'warning',
    summary: 'A city that names several cities is sent as one: list them under locations: (one advert per place).',
    detect: ({ advert, tree }) => {
      const location = advert.location;
      const city = isPlainObject(location) ? location.city : undefined;
      if (typeof city === 'string' && citiesIn(city)) addError(tree, ['location', 'city'], 'several_cities');
    },
    describe: () => 'reads as several cities, but is sent as one',
    advise: (path, value, context) => (typeof value === 'string' ? adviseCities(path, value, context.value) : undefined),
  },
  {
    // The service's too_short counts characters; a list too short (jobs.remote.from: []) counts items.
    id: 'too_short',
    advise: (path, value, _context, [min]) =>
      advertFieldTypes[path.join('.')] === 'array'
        ? `lists ${Array.isArray(value) && value.length > 0 ? `only ${value.length}` : 'nothing'}: write at least ${min ?? 1} item${min === '1' ? '' : 's'}`
        : undefined,
  },
  // The wording checks (src/core/wording/, docs/wording.md): warnings, each its own rule id. The first
  // entry's detect finds them all (one pass over the advert's text); every entry describes its own.
  ...WORDING_RULE_IDS.map((rule, i): LocalRule => ({
    id: WORDING_RULES[rule].message,
    severity: 'warning',
    summary: WORDING_RULES[rule].summary,
    ...(i === 0
      ? {
          detect: ({ advert, settings, tree }: DetectContext) => {
            if (!settings?.wording) return;
            for (const b of checkWording(advert, settings.wording, settings.today)) addError(tree, b.path, b.message);
          },
        }
      : {}),
    describe: (data) => describeWording(WORDING_RULES[rule].message, data),
    advise: (_path, value, _context, data) => adviseWording(WORDING_RULES[rule].message, value, data),
    finding: () => ({ rule, shown: rule }),
    offset: (data) => (Number.isInteger(Number(data[0])) ? Number(data[0]) : undefined),
  })),
];

let today: [number, string] | undefined;
/** YYYY-MM-DD of a day number, kept for the run's one today. */
function todayText(day: number): string {
  if (today?.[0] !== day) today = [day, dateOf(day)];
  return today[1];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const jobsBlock = (advert: Record<string, unknown>) => (isObject(advert[DATES_BLOCK]) ? (advert[DATES_BLOCK] as Record<string, unknown>) : undefined);

/** The table entry of a message identifier (`too_long`). */
export function ruleFor(id: string): LocalRule | undefined {
  return LOCAL_RULES.find((r) => r.id === id);
}

/** Whether a message is an error or a warning, from its rule's entry (an error when no entry says otherwise). */
export function severityOf(message: string, settings?: AdvertSettings): Severity {
  const parsed = parseMessage(message);
  const severity = parsed && ruleFor(parsed.id)?.severity;
  return typeof severity === 'function' ? severity(parsed!.data, settings) : (severity ?? 'error');
}

/** Takes the warnings out of an error tree: the tree keeps the errors; the warnings are returned (undefined when none). */
export function splitWarnings(tree: ErrorTree, settings?: AdvertSettings): ErrorTree | undefined {
  const entries = flattenTree(tree);
  let warnings: ErrorTree | undefined;
  const errors: ErrorEntry[] = [];
  for (const entry of entries) {
    if (severityOf(entry.message, settings) === 'warning') addError((warnings ??= {}), entry.path, entry.message);
    else errors.push(entry);
  }
  if (!warnings) return undefined;
  // The errors left, rebuilt in one pass: removing the warnings one by one cost a walk of the tree each (an advert with thousands of findings took minutes).
  for (const key of Object.keys(tree)) delete tree[key];
  for (const e of errors) addError(tree, e.path, e.message);
  return warnings;
}

/** Runs every rule's detect over an advert the schema has checked (warnings too: see splitWarnings). */
export function detectLocalRules(context: DetectContext): void {
  for (const rule of LOCAL_RULES) rule.detect?.(context);
}

/** Human text for a message: the rule's description, else the catalogue's; undefined when neither knows it. */
export function describeLocal(message: string): string | undefined {
  const parsed = parseMessage(message);
  const own = parsed && ruleFor(parsed.id)?.describe?.(parsed.data);
  return own ?? describeMessage(message);
}

/** A better sentence for one message at `path`, or undefined to keep the description. */
export function adviseLocal(path: readonly string[], message: string, context: AdviceContext): string | undefined {
  const parsed = parseMessage(message);
  const rule = parsed && ruleFor(parsed.id);
  if (!parsed || !rule?.advise) return undefined;
  return rule.advise(path, getPath(context.value, path), context, parsed.data);
}
