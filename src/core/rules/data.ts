/**
 * The rules data a run checks with: a test's data set when the settings carry one (settings.ts),
 * else the tool's own (src/core/rules/data/, built in), parsed at its first use in each thread. Most
 * adverts are in no country with rules: a run of only those asks which countries have some, which
 * the build lists apart, and never parses the data.
 */
import { placesWithRules, ruleFiles } from '../generated/rules-data.js';
import { countriesOfPlaces, ruleCountries } from './compile.js';
import type { RuleFile, RuleSettings } from './types.js';

export type RuleFiles = { file: string; data: RuleFile }[];

/** The tool's own rules by place (checked against the schema when it was built). */
export function builtInRules(): RuleFiles {
  return ruleFiles() as RuleFiles;
}

/** The data of these settings. */
export function rulesOf(settings: Pick<RuleSettings, 'files'>): RuleFiles {
  return settings.files ?? builtInRules();
}

let builtInCountries: Set<string> | undefined;

/** The countries (ISO 3166-1) with places that have rules in these settings' data. */
export function countriesWithRules(settings: Pick<RuleSettings, 'files'>): Set<string> {
  return settings.files ? ruleCountries(settings.files) : (builtInCountries ??= countriesOfPlaces(placesWithRules));
}
