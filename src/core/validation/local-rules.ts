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
 */
import { advertFacts } from '../generated/advert-facts.js';
import { advertFieldTypes } from '../generated/validators.js';
import { getPath } from '../config/plain.js';
import { addError, clearErrors, flattenTree, type ErrorTree } from '../errors/tree.js';
import { describeMessage, parseMessage } from '../errors/messages.js';
import {
  adviseDate,
  adviseEmail,
  adviseInclusion,
  adviseList,
  adviseMisplaced,
  adviseMissing,
  adviseNumber,
  misplacement,
  type AdviceContext,
} from './advice.js';
import { LISTED_UNKNOWN_FIELDS, MORE_UNKNOWN_FIELDS, UNKNOWN_FIELD } from './ajv-errors.js';
import { unusableReference } from '../adverts/reference.js';
import type { AdvertMode } from './validate.js';
import { checkDates, splitDates } from '../adverts/dates.js';

/** What a rule's detect sees: the advert as validated (defaults and constants applied) and its tree so far. */
export interface DetectContext {
  advert: Record<string, unknown>;
  mode: AdvertMode;
  /** The reference, when the advert has a usable one (read before an update body drops it). */
  reference?: string;
  /** Errors so far; detect adds to it or clears from it. */
  tree: ErrorTree;
}

export interface LocalRule {
  /** The message identifier (`too_long` in `too_long:80`). */
  id: string;
  /** Adds this rule's errors to the tree (or folds others away). Absent: the schema detects it. */
  detect?: (context: DetectContext) => void;
  /** The end of a sentence about the field, from the identifier's data. Absent: errors/messages.ts's catalogue. */
  describe?: (data: string[]) => string | undefined;
  /** A better sentence naming the fix, given the value written; undefined keeps the description. */
  advise?: (path: readonly string[], value: unknown, context: AdviceContext, data: string[]) => string | undefined;
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
    detect: ({ advert, tree }) => checkDates(splitDates(advert).dates, tree),
    describe: () => 'is before jobs.opens: the advert would never be up',
  },
  // A warning, not an error: added by the check that knows today's date (see FileCheck.warnings), never by detect.
  { id: 'closed', describe: () => 'has passed: the advert is closed, and sync deletes it from the service' },
  {
    // Found with unknown_field (ajv-errors.ts): past the first few, unknown fields are counted, not listed.
    id: MORE_UNKNOWN_FIELDS,
    describe: ([count]) => {
      const others = Number(count) - 1;
      const after = others > 0 ? `, nor are the ${others} fields after it in this mapping` : '';
      return `is not a known field${after} (only the first ${LISTED_UNKNOWN_FIELDS} unknown fields are listed): remove them, or check that this is an advert file`;
    },
  },
];

function ruleFor(id: string): LocalRule | undefined {
  return LOCAL_RULES.find((r) => r.id === id);
}

/** Runs every rule's detect over an advert the schema has checked. */
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
