/**
 * The rules data: every file in src/core/rules/data/ (and the test fixtures) fits
 * schemas/rules.schema.json and compiles; a file that does not is named with what is wrong.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileRules, RulesDataError } from '../../../src/core/rules/compile.js';
import type { RuleFile } from '../../../src/core/rules/types.js';

const ROOT = join(import.meta.dirname, '../../..');
const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats.default(ajv, ['date']);
const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas/rules.schema.json'), 'utf8')));

function folder(dir: string): { file: string; data: RuleFile }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => ({ file, data: parse(readFileSync(join(dir, file), 'utf8')) as RuleFile }));
}

const SETS = {
  'src/core/rules/data': folder(join(ROOT, 'src/core/rules/data')),
  'test/fixtures/rules/places': folder(join(ROOT, 'test/fixtures/rules/places')),
};

describe('the rules data', () => {
  for (const [name, files] of Object.entries(SETS)) {
    it(`${name}: every file fits schemas/rules.schema.json, compiles, and every rule has a source address and a last-checked day`, () => {
      for (const { file, data } of files) expect(validate(data) ? [] : validate.errors, `${name}/${file}`).toEqual([]);
      const compiled = compileRules(files);
      for (const rule of compiled.rules) {
        expect(rule.source.url, rule.id).toMatch(/^https?:\/\/\S+$/);
        expect(rule.checked, rule.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    });
  }

  it('the fixtures hold a rule of each check kind the engine knows', () => {
    const kinds = new Set(SETS['test/fixtures/rules/places'].flatMap(({ data }) => data.rules.flatMap((r) => r.requires.map((q) => Object.keys(q)[0]))));
    expect([...kinds].sort()).toEqual(['ai_screening', 'benefits', 'deadline', 'forbidden_text', 'overpayment', 'pay_range', 'vacancy_status']);
  });
});

describe('a bad data file is named, with what is wrong', () => {
  const [co] = SETS['test/fixtures/rules/places'].filter((f) => f.file === 'us-co.yaml');
  const rule = co!.data.rules[0]!;
  const fails = (files: { file: string; data: RuleFile }[]) => {
    try {
      compileRules(files);
    } catch (error) {
      expect(error).toBeInstanceOf(RulesDataError);
      return (error as Error).message;
    }
    return 'compiled';
  };

  it.each([
    [[{ file: 'colorado.yaml', data: co!.data }], 'colorado.yaml: a file for US-CO is named us-co.yaml'],
    [
      [{ file: 'us-co.yaml', data: { ...co!.data, rules: [{ ...rule, id: 'US-NY/pay-range' }] } }],
      'us-co.yaml: rule US-NY/pay-range: its id starts with US-CO/ and a slug',
    ],
    [[{ file: 'us-co.yaml', data: { ...co!.data, rules: [rule, rule] } }], 'us-co.yaml: rule US-CO/pay-range is also in us-co.yaml'],
    [[{ file: 'us-co.yaml', data: { ...co!.data, rules: [{ ...rule, to: '2020-01-01' }] } }], 'us-co.yaml: rule US-CO/pay-range: to is before from'],
    [
      [{ file: 'us-co.yaml', data: { ...co!.data, rules: [{ ...rule, from: '2021-02-30' }] } }],
      'us-co.yaml: rule US-CO/pay-range: a date is not a calendar date',
    ],
  ])('%#', (files, message) => {
    expect(fails(files as { file: string; data: RuleFile }[])).toBe(message);
  });

  it('the schema refuses a check kind the engine does not know', () => {
    expect(validate({ ...co!.data, rules: [{ ...rule, requires: [{ pay_slip: {} }] }] })).toBe(false);
  });
});
