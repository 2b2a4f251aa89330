/**
 * An advert as it will be sent: config defaults merged under it, constant names turned into ids,
 * then checked against the schema. The result keeps the source so errors point at YAML lines.
 */
import type { AdvertSource } from '../adverts/types.js';
import { applyConstants, applyDefaults } from '../config/advert-settings.js';
import type { ResolvedConfig } from '../config/types.js';
import { addError, clearErrors, type ErrorTree } from '../errors/tree.js';
import { detectLocalRules, splitWarnings } from './local-rules.js';
import { validateAdvert, type AdvertMode, type ValidateOptions } from './validate.js';
import { splitDates, type AdvertDates } from '../adverts/dates.js';
import type { RuleSettings } from '../rules/types.js';
import type { WordingSettings } from '../wording/types.js';
import { withSalaryText } from '../rules/pay-facts.js';
import { withDisclosures } from '../rules/disclosures.js';

/**
 * What an advert is checked with: the config's defaults and constant names, and where the command
 * gives it, today's UTC day number (a closing date that has passed is a warning) and the rules by
 * place to check (rules/settings.ts), and the wording checks' settings when they are on (wording/). Plain data: it is
 * handed to worker threads whole.
 */
export type AdvertSettings = Pick<ResolvedConfig, 'defaults' | 'constants'> & { today?: number; rules?: RuleSettings; wording?: WordingSettings };

export const NO_SETTINGS: AdvertSettings = { defaults: {}, constants: {} };

export interface CheckedAdvert {
  source: AdvertSource;
  /** The reference, when the advert has a usable one. */
  reference?: string;
  /** The payload that would be sent (defaults and constants applied). */
  payload: Record<string, unknown>;
  /** The advert as validated, its `jobs:` block included: what a message's advice reads (the payload has no block). */
  validated: Record<string, unknown>;
  /** The service's error vocabulary; empty when valid. */
  tree: ErrorTree;
  /** The dates of its `jobs:` block (never sent; see adverts/dates.ts). */
  dates?: AdvertDates;
  /** Findings of the rules whose severity is warning (local-rules.ts): they make nothing invalid. */
  warnings?: ErrorTree;
}

export function checkAdvert(source: AdvertSource, settings: AdvertSettings, mode: AdvertMode = 'create', options: ValidateOptions = {}): CheckedAdvert {
  const merged = mode === 'create' && Object.keys(settings.defaults).length > 0 ? applyDefaults(source.value, settings.defaults) : source.value;
  // Without a constants map nothing is renamed: skip the copy applyConstants makes.
  const constant = Object.keys(settings.constants).length > 0 ? applyConstants(merged, settings.constants) : { advert: merged, errors: [] };
  const errors = constant.errors;
  // A salary_text left out is written from jobs.pay, in the advert's language (rules/pay-facts.ts).
  const advert = mode === 'create' ? withSalaryText(constant.advert) : constant.advert;
  const reference = typeof advert.reference === 'string' && advert.reference.trim() !== '' ? advert.reference : undefined;
  let toValidate = advert;
  if (mode === 'update' && 'reference' in advert) {
    // An update file may name its advert; the reference itself is never part of an update body.
    const { reference: _omit, ...rest } = advert;
    toValidate = rest;
  }
  const tree = validateAdvert(toValidate, mode, options);
  for (const e of errors) {
    // A name that is not in the config is one mistake: not also "must be a number".
    clearErrors(tree, e.path);
    addError(tree, e.path, e.message);
  }
  // The tool's own rules (an unusable reference, a field written one level off): local-rules.ts.
  detectLocalRules({ advert: toValidate, mode, ...(reference === undefined ? {} : { reference }), tree, settings });
  const warnings = splitWarnings(tree, settings);
  // The `jobs:` block is checked with the rest (the schema and the rules know it), then taken off: it is never sent.
  // Its disclosures are added to the job description: what a rule asks reaches the candidate (rules/disclosures.ts).
  const { advert: sent, dates } = splitDates(toValidate);
  const payload = withDisclosures(sent, toValidate);
  return {
    source,
    ...(reference === undefined ? {} : { reference }),
    payload,
    validated: toValidate,
    tree,
    ...(dates ? { dates } : {}),
    ...(warnings ? { warnings } : {}),
  };
}

export function isValid(checked: CheckedAdvert): boolean {
  return Object.keys(checked.tree).length === 0;
}
