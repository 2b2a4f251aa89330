/**
 * The rules by place (the built-in data) against the forms recruiters write, through the built
 * binary's `validate`: lawful salary texts pass in Denver (a false error blocks a publish), unlawful
 * ones are refused with their reason, a city written with its state is the city, and the tool's own
 * salary_text (written from an hourly jobs.pay) agrees with that pay.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const DENVER = 'location:\n  country: US\n  state: CO\n  city: Denver\n';

/** An advert that meets Colorado's benefits and deadline duties: only its pay and place vary. */
const advert = (reference: string, salary: string | undefined, where = DENVER, extra = '') =>
  `reference: ${reference}\ntitle: Engineer\norganization_name: ACME\ncompany_description: Robots.\n` +
  `job_description: "Build robots. Benefits: health insurance. Apply by 2026-12-31."\ncontract_id: 1\nsalary_id: 2\n` +
  `${salary === undefined ? '' : `salary_text: ${JSON.stringify(salary)}\n`}industry_id: 3\ndepartment_id: 4\nseniority: 0\neducation: 0\n` +
  `${where}recruiter:\n  email: hr@acme.example\n${extra}`;

async function validate(files: Record<string, string>, extraEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-rules-forms-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const env = isolatedEnv({ JOBS_TODAY: '2026-11-28', ...extraEnv });
  dirs.push(env.HOME!);
  return jobs(['validate', '--json', '.'], { cwd: dir, env });
}

/** The rule findings of a --json run, by file. */
function findingsByFile(stdout: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of JSON.parse(stdout).findings as { file: string; message: string }[]) (out[f.file] ??= []).push(f.message);
  return out;
}

describe('salary texts as recruiters write them, in Denver', () => {
  const lawful = [
    '$120,000 – $150,000 per annum, plus 10% bonus',
    '$120,000 - $150,000 DOE',
    '$80,000 - $95,000 USD a year',
    'between $100k and $120k',
    '$120,000 ‒ $150,000',
    '$120,000 − $150,000',
    '$120,000 ~ $150,000',
    '$120k/yr – $150k/yr',
    '$100K-$120K + 401(k)',
    '$60,000–$70,000 annually; $5,000 signing bonus',
  ];
  const refused: [string, string][] = [
    ['$90,000 and up', 'pay_open_ended'],
    ['$90k or more a year', 'pay_open_ended'],
    ['from $90,000', 'pay_open_ended'],
    ['DOE', 'pay_unread'],
  ];

  it('lawful ranges pass; open-ended ones are refused as open-ended', async () => {
    const files: Record<string, string> = {};
    lawful.forEach((s, i) => (files[`ok-${i}.yaml`] = advert(`OK-${i}`, s)));
    refused.forEach(([s], i) => (files[`no-${i}.yaml`] = advert(`NO-${i}`, s)));
    const r = await validate(files);
    expect(r.code).toBe(3);
    const found = findingsByFile(r.stdout);
    const expected: Record<string, string[]> = {};
    refused.forEach(([, why], i) => (expected[`no-${i}.yaml`] = [`place_rule:US_CO_pay_range:${why}`]));
    expect(found).toEqual(expected);
  });
});

describe('the tool agrees with itself', () => {
  it('an hourly jobs.pay with salary_text left out is written as "an hour" and read back as hourly: valid', async () => {
    const r = await validate({ 'hourly.yaml': advert('HR-1', undefined, DENVER, 'jobs:\n  pay: { min: 25, max: 30, currency: USD, per: hour }\n') });
    expect([r.code, r.stderr]).toEqual([0, '']);
  });

  it('an hourly text beside an hourly jobs.pay agrees; "full time" is not a period', async () => {
    const r = await validate({
      'a.yaml': advert('HR-2', '$25 - $30 an hour', DENVER, 'jobs:\n  pay: { min: 25, max: 30, currency: USD, per: hour }\n'),
      'b.yaml': advert('HR-3', 'Full time, $50,000 - $60,000 a year', DENVER, 'jobs:\n  pay: { min: 50000, max: 60000, currency: USD, per: year }\n'),
    });
    expect([r.code, findingsByFile(r.stdout)]).toEqual([0, {}]);
  });
});

describe('places as recruiters write them', () => {
  it('"New York, NY" and "Brooklyn, NY" are New York City; "Columbus" in Georgia is not Columbus, Ohio', async () => {
    const at = (city: string, state: string) => `location:\n  country: US\n  state: ${state}\n  city: ${city}\n`;
    const r = await validate(
      {
        'ny.yaml': advert('NY-1', 'from $90,000', at('"New York, NY"', 'NY')),
        'bk.yaml': advert('NY-2', 'from $90,000', at('"Brooklyn, New York"', 'NY')),
        'oh.yaml': advert('OH-1', 'from $90,000', at('"Columbus, OH"', 'OH')),
        'ga.yaml': advert('GA-1', 'from $90,000', at('Columbus', 'GA')),
      },
      {},
    );
    const found = findingsByFile(r.stdout);
    const nyc = ['place_rule:US_NY_pay_range:pay_open_ended:size_unknown', 'place_rule:US_NY_new_york_city_pay_range:pay_open_ended:size_unknown'];
    expect(found).toEqual({ 'ny.yaml': nyc, 'bk.yaml': nyc, 'oh.yaml': ['place_rule:US_OH_columbus_pay_range:pay_open_ended:size_unknown'] });
  });
});

describe('the words of a finding', () => {
  it('a rule whose unsettled note ends with its own full stop reads as sentences (no "..")', async () => {
    const r = await validate({ 'wien.yaml': advert('AT-1', '€3.500', 'location:\n  country: AT\n  city: Wien\n') });
    const texts = (JSON.parse(r.stdout).findings as { rule: string; text: string }[]).map((f) => [f.rule, f.text]);
    expect(texts).toEqual([
      ['AT/minimum-pay', expect.stringContaining('names no time unit')],
      ['AT/minimum-pay', expect.stringContaining('pay above the stated minimum')],
    ]);
    for (const [, text] of texts) expect(text).toMatch(/employer abroad\. source: /);
  });
});

describe('statements written in the text, in English, German and French', () => {
  /** An advert whose whole job description is `text`, with a lawful range. */
  const written = (reference: string, text: string, where: string, salary = '$120,000 - $130,000 a year') =>
    advert(reference, salary, where).replace(/^job_description: .*$/m, `job_description: ${JSON.stringify(text)}`);
  const TORONTO = 'location:\n  country: CA\n  state: ON\n  city: Toronto\n';
  const WIEN = 'location:\n  country: AT\n  city: Wien\n';

  it('common wordings of benefits, the deadline, AI screening, the vacancy and overpayment meet their rules', async () => {
    const denver = [
      'Benefits: health insurance. Deadline: 2026-12-31.',
      'We offer health insurance. Applications accepted through December 31, 2026.',
      'Health insurance. Apply before December 31, 2026.',
      'Perks: 401k match. Closing date: 2026-12-31.',
      'We offer a great benefits package. This posting closes on 2026-12-31.',
      'Krankenversicherung, Firmenwagen. Bewerbungsschluss: 31.12.2026.',
      'Avantages : mutuelle. Postulez avant le 31 décembre 2026.',
    ];
    const toronto = [
      'AI is not used in our hiring process. This posting is for a current vacancy.',
      'We do not use artificial intelligence in recruitment. This role is currently vacant.',
      'Wir setzen keine KI bei der Auswahl ein. Es handelt sich um eine bestehende Stelle.',
      "Nous n'utilisons pas l'IA pour évaluer les candidatures. Il s'agit d'un poste vacant.",
    ];
    const wien = [
      'Das Mindestgehalt laut KV beträgt 3.500 € brutto pro Monat, Bereitschaft zur Überbezahlung je nach Qualifikation.',
      'Wir bieten ein Gehalt über dem Kollektivvertrag.',
    ];
    const files: Record<string, string> = {};
    denver.forEach((t, i) => (files[`co-${i}.yaml`] = written(`CO-${i}`, t, DENVER)));
    toronto.forEach((t, i) => (files[`on-${i}.yaml`] = written(`ON-${i}`, t, TORONTO, 'C$90,000 - C$110,000 a year')));
    wien.forEach((t, i) => (files[`at-${i}.yaml`] = written(`AT-${i}`, t, WIEN, '€ 3.500,00 brutto pro Monat (14x)')));
    const r = await validate(files);
    expect([r.code, findingsByFile(r.stdout)]).toEqual([0, {}]);
  });

  it('a text about something else does not state them', async () => {
    const r = await validate({
      'a.yaml': written('X-1', 'You will thrive under tight deadlines and build medical devices.', DENVER),
      'b.yaml': written('X-2', 'We build AI applications. Open positions in many teams.', TORONTO, 'C$90,000 - C$110,000 a year'),
    });
    expect(findingsByFile(r.stdout)).toEqual({
      'a.yaml': ['place_rule:US_CO_pay_range:benefits', 'place_rule:US_CO_application_deadline:deadline'],
      'b.yaml': ['place_rule:CA_ON_ai_disclosure:ai_screening:size_unknown', 'place_rule:CA_ON_vacancy_status:vacancy_status:size_unknown'],
    });
  });
});

describe('the config that lowers a rule', () => {
  it('a level that is not one names its line and the levels there are (exit 2)', async () => {
    const r = await validate({ '.jobsrc.yaml': 'rules:\n  US-CO/pay-range: Warning\n', 'a.yaml': advert('A-1', '$1 - $2') });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, 'jobs-cli: .jobsrc.yaml:2:3: rules.US-CO/pay-range: must be one of: error, warning, off']);
  });
});

describe('an employer size in a project config', () => {
  const SEATTLE = 'location:\n  country: US\n  state: WA\n  city: Seattle\n';

  it('that exempts the employer from rules is said once, naming them and the file (a pull request brings it)', async () => {
    const r = await validate({
      '.jobsrc.yaml': 'employer:\n  employees: 3\n',
      'a.yaml': advert('A-1', 'from $90,000', SEATTLE),
      'b.yaml': advert('B-1', 'from $90,000', SEATTLE),
    });
    expect(r.code).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => l.includes('note:'));
    expect(notes).toEqual([
      expect.stringMatching(
        /^jobs-cli: note: the project config's employer size \(\.jobsrc\.yaml\) exempts the employer from \d+ rules by place: .*US-WA\/pay-range/,
      ),
    ]);
  });

  it("in the user config it is the user's own word: no note", async () => {
    const env = isolatedEnv({ JOBS_TODAY: '2026-11-28' });
    dirs.push(env.HOME!);
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'jobs'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), 'employer:\n  employees: 3\n');
    const dir = mkdtempSync(join(tmpdir(), 'jobs-rules-forms-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a.yaml'), advert('A-1', 'from $90,000', SEATTLE));
    const r = await jobs(['validate', '.'], { cwd: dir, env });
    expect([r.code, r.stderr]).toEqual([0, '✔ 1 advert in 1 file: all valid\n']);
  });
});
