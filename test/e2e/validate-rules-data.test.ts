/**
 * Every rule in the rules data, end to end through the built binary's `validate`: an advert built
 * for the rule's place that meets it passes, one that does not is refused with the rule's id, and
 * the failing one passes when today is the day before the rule's first day. Built from the data
 * alone, so any file in the agreed format is covered: src/core/rules/data/ (built into the binary),
 * and the fixtures (test/fixtures/rules/places, through JOBS_TEST_RULES) to show the test at work
 * whatever the data holds today.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import type { Rule, RuleFile } from '../../src/core/rules/types.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function rulesIn(dir: string): { place: RuleFile['place']; rule: Rule }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => {
      const data = parse(readFileSync(join(dir, f), 'utf8')) as RuleFile;
      return data.rules.map((rule) => ({ place: data.place, rule }));
    });
}

const CURRENCY: Record<string, string> = {
  US: 'USD',
  CA: 'CAD',
  GB: 'GBP',
  CH: 'CHF',
  PL: 'PLN',
  SE: 'SEK',
  DK: 'DKK',
  NO: 'NOK',
  CZ: 'CZK',
  HU: 'HUF',
  RO: 'RON',
  BG: 'BGN',
  IS: 'ISK',
};

/** A location in the place: its city's first spelling, or a made-up city in the state or country. */
function locationOf(place: RuleFile['place']): string {
  const [sub, slug] = place.id.split('/');
  const [country, state] = sub!.split('-');
  // A country that needs a state gets one (Wyoming, Yukon, Zacatecas), unless the place is one.
  const needed = { US: 'WY', CA: 'YT', MX: 'ZAC' }[country!];
  const stateLine = state ? `  state: ${state}\n` : needed ? `  state: ${needed}\n` : '';
  const city = slug ? place.cities![0]! : 'Testville';
  return `location:\n  country: ${country}\n${stateLine}  city: ${JSON.stringify(city)}\n`;
}

function moneyOf(rule: Rule): string | undefined {
  for (const r of rule.requires) if ('pay_range' in r) return r.pay_range.max_spread?.currency ?? r.pay_range.applies_below?.currency;
  return undefined;
}

type Breach = 'pay' | 'forbidden' | 'benefits' | 'deadline' | 'ai_screening' | 'vacancy' | 'overpayment' | 'neutral_title';

/** An advert for the rule's place that meets every check kind; `breach` leaves one out. */
function advertFor(place: RuleFile['place'], rule: Rule, reference: string, breach?: Breach): string {
  const country = place.id.slice(0, 2);
  const currency = moneyOf(rule) ?? CURRENCY[country] ?? 'EUR';
  const forbidden = rule.requires.find((r) => 'forbidden_text' in r) as { forbidden_text: { phrases: string[] } } | undefined;
  const description = breach === 'forbidden' ? `Build robots. ${forbidden!.forbidden_text.phrases[0]}.` : 'Build robots.';
  const pay = breach === 'pay' ? '' : `  pay: { min: 40000, max: 40500, currency: ${currency}, per: year }\n`;
  const said = (key: Breach, line: string) => (breach === key ? '' : line);
  return (
    // neutral_title: the advert's language is en here; "Salesman" names one gender (wording/neutral-title.ts).
    `reference: ${reference}\ntitle: ${breach === 'neutral_title' ? 'Salesman' : 'Engineer'}\norganization_name: ACME\ncompany_description: Robots.\njob_description: ${JSON.stringify(description)}\n` +
    `contract_id: 1\nsalary_id: 2\n${breach === 'pay' ? 'salary_text: Competitive\n' : ''}industry_id: 3\ndepartment_id: 4\nseniority: 0\neducation: 0\n` +
    `${locationOf(place)}recruiter:\n  email: hr@acme.example\n` +
    `jobs:\n  closes: 2099-12-31\n  language: en\n${pay}  disclosures:\n` +
    said('benefits', '    benefits: Health insurance and 25 days of paid leave.\n') +
    said('deadline', '    deadline: true\n') +
    said('ai_screening', '    ai_screening: We do not use AI to screen, assess or select applicants.\n') +
    said('vacancy', '    vacancy: This posting is for an existing vacancy.\n') +
    said('overpayment', '    overpayment: Bereitschaft zur Überzahlung.\n')
  );
}

function breachOf(rule: Rule): Breach {
  const kind = Object.keys(rule.requires[0]!)[0]!;
  return ({ pay_range: 'pay', forbidden_text: 'forbidden', vacancy_status: 'vacancy' } as Record<string, Breach>)[kind] ?? (kind as Breach);
}

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

async function validateJson(dir: string, env: Record<string, string>): Promise<{ code: number | null; findings: { file: string; rule: string }[] }> {
  const r = await jobs(['validate', '--json', '.'], { cwd: dir, env, timeoutMs: 60_000 });
  return { code: r.code, findings: JSON.parse(r.stdout).findings };
}

const SETS: [name: string, dir: string, extra: Record<string, string>][] = [
  ['src/core/rules/data (built in)', join(ROOT, 'src/core/rules/data'), {}],
  ['the fixtures', join(ROOT, 'test/fixtures/rules/places'), { JOBS_TEST_RULES: 'places' }],
];

describe.each(SETS)('every rule of %s', (_name, dataDir, extra) => {
  const all = rulesIn(dataDir);

  it(`an advert that meets it passes; one that does not is refused with its id, and passes the day before it is in force (${all.length} rules)`, async () => {
    // Grouped by the rule's first day: each group runs on that day (the rule is in force) and the day before.
    const byDay = new Map<string, typeof all>();
    for (const r of all) byDay.set(r.rule.from, [...(byDay.get(r.rule.from) ?? []), r]);
    for (const [day, rules] of byDay) {
      const root = mkdtempSync(join(tmpdir(), 'jobs-rules-data-'));
      dirs.push(root);
      const pass = join(root, 'pass');
      const fail = join(root, 'fail');
      mkdirSync(pass);
      mkdirSync(fail);
      // One entry a place: several rules of one place (Ontario's four) share its day.
      const employeesIn = [...new Set(rules.map(({ place }) => place.id))].map((id) => `    ${id}: 100000\n`).join('');
      for (const dir of [pass, fail]) writeFileSync(join(dir, '.jobsrc.yaml'), `employer:\n  employees: 100000\n  employees_in:\n${employeesIn}`);
      const fileOf = new Map<string, string>();
      rules.forEach(({ place, rule }, i) => {
        writeFileSync(join(pass, `r${i}.yaml`), advertFor(place, rule, `PASS-${i}`));
        writeFileSync(join(fail, `r${i}.yaml`), advertFor(place, rule, `FAIL-${i}`, breachOf(rule)));
        fileOf.set(`r${i}.yaml`, rule.id);
      });
      const env = isolatedEnv({ ...extra, JOBS_TODAY: day });
      dirs.push(env.HOME!);

      const passed = await validateJson(pass, env);
      expect(passed.findings, `${day}: adverts that meet their rules`).toEqual([]);
      expect(passed.code).toBe(0);

      const failed = await validateJson(fail, env);
      expect(failed.code).toBe(3);
      for (const [file, id] of fileOf)
        expect(
          failed.findings.filter((f) => f.file === file).map((f) => f.rule),
          file,
        ).toContain(id);

      const before = await validateJson(fail, { ...env, JOBS_TODAY: dayBefore(day) });
      for (const [file, id] of fileOf)
        expect(
          before.findings.filter((f) => f.file === file).map((f) => f.rule),
          `${file} before ${day}`,
        ).not.toContain(id);
    }
  }, 120_000);
});
