/**
 * The rules by place, checked with the fixture data (test/fixtures/rules/places: Colorado, New York
 * City, Ontario, Austria) through checkAdvert, as every command checks: the finding's place, rule,
 * what to add and source; the places an advert is in or may be done from; dates, size, overrides.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAdverts } from '../../../src/core/adverts/parse.js';
import { expandLocations } from '../../../src/core/adverts/locations.js';
import { dayOf } from '../../../src/core/adverts/dates.js';
import { placeFindings } from '../../../src/core/adverts/locations.js';
import { checkAdvert, isValid } from '../../../src/core/validation/check.js';
import { findingsFromTree } from '../../../src/core/validation/tree-findings.js';
import { ruleData } from '../../../src/core/rules/settings.js';
import type { RuleSettings } from '../../../src/core/rules/types.js';

let files: RuleSettings['files'];
beforeAll(async () => {
  files = await ruleData({ JOBS_TEST_RULES: 'places' });
});

const advert = (where: string, extra = '', salary = 'salary_text: "$120,000 - $150,000 a year"', description = 'Build robots.') =>
  `reference: A-1\ntitle: Engineer\norganization_name: ACME\ncompany_description: Robots.\njob_description: ${description}\ncontract_id: 1\nsalary_id: 2\n${salary}\nindustry_id: 3\ndepartment_id: 4\nseniority: 0\neducation: 0\n${where}recruiter:\n  email: hr@acme.example\n${extra}`;

const DENVER = 'location:\n  country: US\n  state: CO\n  city: Denver\n';
const ALL_SAID = 'jobs:\n  closes: 2026-12-31\n  disclosures:\n    benefits: Health and dental insurance.\n    deadline: true\n';

function check(yaml: string, s: Partial<RuleSettings> = {}, today = '2026-11-27') {
  const rules: RuleSettings = { today: dayOf(today)!, employer: {}, levels: {}, files, ...s };
  const out = { errors: [] as string[], warnings: [] as string[], payloads: [] as Record<string, unknown>[], valid: [] as boolean[] };
  for (const source of expandLocations(parseAdverts('a.yaml', yaml)).adverts) {
    const c = checkAdvert(source, { defaults: {}, constants: {}, rules });
    const line = (f: { line?: number; column?: number; path: string; rule: string; text: string; message: string }) =>
      `${f.line}:${f.column} ${f.path} ${f.rule}: ${f.text} [${f.message}]`;
    out.errors.push(...placeFindings(source, findingsFromTree(c.tree, c.source, c.reference, { value: c.payload })).map(line));
    if (c.warnings) out.warnings.push(...findingsFromTree(c.warnings, c.source, c.reference, { value: c.payload }).map(line));
    out.payloads.push(c.payload);
    out.valid.push(isValid(c));
  }
  return out;
}

describe('a state rule (Colorado: a closed range, benefits, the deadline)', () => {
  it('an advert that shows all three passes; its disclosures are added to the job description that is sent', () => {
    const r = check(advert(DENVER, ALL_SAID));
    expect(r.errors).toEqual([]);
    expect(r.payloads[0]!.job_description).toBe('Build robots.\n\nHealth and dental insurance.\n\nApplications close on 2026-12-31.');
  });

  it('each thing missing is a finding at the location, naming the place, the rule, what to add and the source', () => {
    const r = check(advert(DENVER, '', 'salary_text: from $90,000'));
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^14:3 location US-CO\/pay-range: is in Colorado, where US-CO\/pay-range asks for: pay range, .*; the pay is open-ended \(one end alone, as in "from \$90,000"\), which this rule refuses: show the lowest and the highest pay\. source: C\.R\.S\. § 8-5-201, https:\/\/leg\.colorado\.gov\/.* \[place_rule:US_CO_pay_range:pay_open_ended\]$/,
      ),
      expect.stringMatching(
        /add a general description of benefits \(jobs\.disclosures\.benefits adds it to the job description\)\..*\[place_rule:US_CO_pay_range:benefits\]$/,
      ),
      expect.stringMatching(/add the application deadline.*\[place_rule:US_CO_pay_range:deadline\]$/),
    ]);
  });

  it('a link standing in for the range says so; statements in the text itself count', () => {
    const r = check(advert(DENVER, '', 'salary_text: https://acme.example/pay', 'Benefits include health insurance. Apply by 2026-12-31.'));
    expect(r.errors).toEqual([expect.stringContaining('a link stands in for the pay range, which this rule refuses')]);
  });

  it('a salary_text that cannot be read says why, never guessing', () => {
    expect(check(advert(DENVER, ALL_SAID, 'salary_text: Competitive')).errors).toEqual([
      expect.stringContaining('salary_text cannot be read as a pay (it names no amount)'),
    ]);
  });

  it('is not in force before its first day', () => {
    expect(check(advert(DENVER, '', 'salary_text: from $90,000'), {}, '2020-12-31').errors).toEqual([]);
  });

  it('a state may be written by name', () => {
    expect(check(advert('location:\n  country: US\n  state: Colorado\n  city: Boulder\n')).errors).toHaveLength(2);
  });
});

describe('each place of a locations: advert is judged on its own', () => {
  it('Denver and Austin without a range: one finding, for Denver, at its list item', () => {
    const places = 'locations:\n  - country: US\n    state: TX\n    city: Austin\n  - country: US\n    state: CO\n    city: Denver\n';
    const r = check(
      advert(places, 'jobs:\n  disclosures:\n    benefits: Health insurance. Applications are accepted on an ongoing basis.\n', 'salary_text: Competitive'),
    );
    expect(r.errors).toEqual([expect.stringMatching(/^17:5 locations\[1\] US-CO\/pay-range: is in Colorado, .*salary_text cannot be read as a pay/)]);
    expect(r.valid).toEqual([true, false]);
  });
});

describe('a city rule (New York City: a closed range, employers of 4 or more)', () => {
  const BROOKLYN = 'location:\n  country: US\n  state: NY\n  city: Brooklyn\n';

  it('matches the city by its spellings, and says how to declare an unknown employer size', () => {
    expect(check(advert(BROOKLYN, '', 'salary_text: from $90,000')).errors).toEqual([
      expect.stringMatching(
        /^14:3 location US-NY\/new-york-city\/pay-range: is in New York City, .*open-ended.*it covers employers with 4 or more employees; declare yours with employer\.employees in the config\. source: .*\[place_rule:US_NY_new_york_city_pay_range:pay_open_ended:size_unknown\]$/,
      ),
    ]);
  });

  it('does not cover an employer the config declares smaller', () => {
    expect(check(advert(BROOKLYN, '', 'salary_text: from $90,000'), { employer: { employees: 3 } }).errors).toEqual([]);
  });

  it('reaches a remote job that may be done from the city, saying its remote coverage is unsettled', () => {
    const remote = 'jobs:\n  remote:\n    from: [US-NY]\n';
    const r = check(advert('location:\n  country: US\n  state: TX\n  city: Austin\n', remote, 'salary_text: from $90,000'), { employer: { employees: 10 } });
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^21:12 jobs\.remote\.from\.0 US-NY\/new-york-city\/pay-range: may be done remotely from New York City, .*whether it reaches remote jobs is unsettled: The Commission's guidance/,
      ),
    ]);
  });

  it('a config that lowers the rule makes it a warning; off, it is not checked', () => {
    const lowered = check(advert(BROOKLYN, '', 'salary_text: from $90,000'), {
      employer: { employees: 10 },
      levels: { 'US-NY/new-york-city/pay-range': 'warning' },
    });
    expect(lowered.errors).toEqual([]);
    expect(lowered.valid).toEqual([true]);
    expect(lowered.warnings).toEqual([expect.stringContaining('US-NY/new-york-city/pay-range: is in New York City')]);
    const off = check(advert(BROOKLYN, '', 'salary_text: from $90,000'), { employer: { employees: 10 }, levels: { 'US-NY/new-york-city/pay-range': 'off' } });
    expect([off.errors, off.warnings]).toEqual([[], []]);
  });
});

describe('a province rule (Ontario: AI and vacancy statements, a spread, a ceiling, a forbidden phrase)', () => {
  const TORONTO = 'location:\n  country: CA\n  state: ON\n  city: Toronto\n';
  const SAID = 'jobs:\n  disclosures:\n    ai_screening: We do not use AI to screen applicants.\n    vacancy: This posting is for an existing vacancy.\n';
  const employer = { employees: 30, employees_in: { 'CA-ON': 30 } };

  it('passes when it says both, and its range is narrow enough', () => {
    expect(check(advert(TORONTO, SAID, 'salary_text: "CAD 80,000 to 95,000 per year"'), { employer }).errors).toEqual([]);
  });

  it('a range wider than the rule allows, the statements missing, and the forbidden phrase are each a finding', () => {
    const r = check(advert(TORONTO, '', 'salary_text: "$60,000 - $120,000 a year"', 'Canadian experience required.'), { employer });
    expect(r.errors.map((e) => e.replace(/^.*\[place_rule:CA_ON_job_posting:/, ''))).toEqual([
      'pay_spread]',
      'ai_screening]',
      'vacancy_status]',
      'forbidden_0]',
    ]);
    expect(r.errors[0]).toContain('the highest pay at most 50,000 CAD above the lowest');
    expect(r.errors[3]).toContain('remove "Canadian experience": the Act forbids requiring Canadian experience in a posting');
  });

  it('does not apply to pay above its ceiling; counts only the employees in Ontario', () => {
    expect(check(advert(TORONTO, SAID, 'salary_text: "$250,000 - $400,000 a year"'), { employer }).errors).toEqual([]);
    expect(
      check(advert(TORONTO, '', 'salary_text: "$60,000 - $120,000 a year"'), { employer: { employees: 500, employees_in: { 'CA-ON': 20 } } }).errors,
    ).toEqual([]);
  });
});

describe('a country rule (Austria: pay per time unit, the overpayment statement)', () => {
  const VIENNA = 'location:\n  country: AT\n  city: Wien\n';

  it('passes with a pay per month and the statement in the text', () => {
    expect(check(advert(VIENNA, '', 'salary_text: 3.200 € brutto pro Monat', 'Bereitschaft zur Überzahlung.')).errors).toEqual([]);
  });

  it('a pay without a time unit and no overpayment statement are findings', () => {
    expect(check(advert(VIENNA, '', 'salary_text: 45.000 €')).errors.map((e) => e.replace(/^.*\[place_rule:AT_minimum_pay:/, ''))).toEqual([
      'pay_per]',
      'overpayment]',
    ]);
  });

  it('does not reach a remote job (not_covered)', () => {
    expect(check(advert('location:\n  country: DE\n  city: Berlin\n', 'jobs:\n  remote:\n    from: [AT]\n', 'salary_text: 45.000 €')).errors).toEqual([]);
  });
});

describe('the pay an advert declares (jobs.pay)', () => {
  it('writes salary_text from jobs.pay when it is left out, in the advert’s language', () => {
    const at = check(
      advert(
        'location:\n  country: AT\n  city: Wien\n',
        'jobs:\n  pay: { min: 3200, max: 3800, currency: EUR, per: month }\n  disclosures:\n    overpayment: Überzahlung möglich.\n',
        '',
      ),
    );
    expect(at.errors).toEqual([]);
    expect(at.payloads[0]!.salary_text).toBe('3.200 - 3.800 EUR brutto pro Monat');
  });

  it('salary_text must agree with jobs.pay, at the salary_text line', () => {
    const r = check(
      advert(
        'location:\n  country: NO\n  city: Oslo\n',
        'jobs:\n  pay: { min: 650000, max: 750000, currency: NOK, per: year }\n',
        'salary_text: 600 000 - 750 000 NOK',
      ),
    );
    expect(r.errors).toEqual([
      '8:14 salary_text salary_mismatch: does not agree with jobs.pay: its min differs; correct the one that is wrong, or leave salary_text out and it is written from jobs.pay [salary_mismatch:min]',
    ]);
  });

  it('min above max, an unknown currency, an unknown period: each an error at its line', () => {
    const r = check(advert('location:\n  country: NO\n  city: Oslo\n', 'jobs:\n  pay:\n    min: 90\n    max: 80\n    currency: USX\n    per: fortnight\n'));
    expect(r.errors.map((e) => e.split(': ')[0]).sort()).toEqual([
      '20:10 jobs.pay.min greater_than',
      '22:15 jobs.pay.currency inclusion',
      '23:10 jobs.pay.per inclusion',
    ]);
    expect(r.errors.find((e) => e.includes('greater_than'))).toContain('is above jobs.pay.max (80): swap them');
  });

  it('a remote place jobs does not know is an error at its line', () => {
    const r = check(advert('location:\n  country: NO\n  city: Oslo\n', 'jobs:\n  remote:\n    from: [US-CO, US-XX, Narnia]\n'));
    expect(r.errors.map((e) => e.split(': ')[0]).filter((e) => e?.includes('unknown_place'))).toEqual([
      '20:19 jobs.remote.from.1 unknown_place',
      '20:26 jobs.remote.from.2 unknown_place',
    ]);
    expect(r.errors.find((e) => e.includes('unknown_place'))).toContain('is not a place jobs knows: write an ISO 3166-1 code (US), an ISO 3166-2 code (US-CO)');
  });
});
