/**
 * The rules-by-place data format (schemas/rules.schema.json; docs/rules.md): one file per
 * jurisdiction in src/core/rules/data/, shared with the helpers who research the law and who export
 * adverts. The check kinds below are exactly those the engine (check.ts) knows: a new kind is a code
 * change, a new jurisdiction is a data file.
 */

export type PlaceKind = 'country' | 'state' | 'province' | 'city';

export interface Money {
  amount: number;
  currency: string;
}

export interface PayRangeOptions {
  open_ended?: 'refused' | 'allowed';
  link?: 'refused' | 'allowed';
  max_spread?: Money;
  applies_below?: Money;
  per_time_unit?: 'required';
}

export type Requirement =
  | { pay_range: PayRangeOptions }
  | { benefits: Record<string, never> }
  | { deadline: Record<string, never> }
  | { ai_screening: Record<string, never> }
  | { vacancy_status: Record<string, never> }
  | { overpayment: Record<string, never> }
  | { neutral_title: Record<string, never> }
  | { forbidden_text: { phrases: string[]; why: string } };

export type CheckKind = 'pay_range' | 'benefits' | 'deadline' | 'ai_screening' | 'vacancy_status' | 'overpayment' | 'neutral_title' | 'forbidden_text';

export interface Rule {
  id: string;
  summary: string;
  from: string;
  to?: string;
  covers: { employees_min: number; counted: 'anywhere' | 'in_place'; remote: 'covered' | 'not_covered' | 'unsettled'; remote_note?: string };
  requires: Requirement[];
  not_checked?: string[];
  source: { title: string; url: string; also?: { title: string; url: string }[] };
  checked: string;
  unsettled?: string;
  note?: string;
}

export interface RuleFile {
  place: { id: string; name: string; kind: PlaceKind; cities?: string[] };
  rules: Rule[];
}

/** A severity a config may give a rule: `rules: { US-CO/pay-range: warning }`. */
export type RuleLevel = 'error' | 'warning' | 'off';

/** Employer facts from the config (`employer:`), which rules that depend on headcount read. */
export interface EmployerFacts {
  employees?: number;
  employees_in?: Record<string, number>;
}

/**
 * What a run checks the rules with. Plain data: handed to worker threads whole, and compiled once
 * per thread (compile.ts keeps the compiled form by the files' identity).
 */
export interface RuleSettings {
  /** Today's UTC day number (sync/today.ts): the rules in force on it apply. */
  today: number;
  employer: EmployerFacts;
  /** Levels the config sets, by rule id (only ids that exist). */
  levels: Record<string, RuleLevel>;
  /** A test's data, one entry per file; absent, the tool's own (rules/data.ts: rulesOf). */
  files?: { file: string; data: RuleFile }[];
}
