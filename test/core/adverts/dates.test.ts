/**
 * The `jobs:` block (src/core/adverts/dates.ts): calendar dates in UTC, taken off the advert before
 * anything is built from it, checked at the lines written.
 */
import { describe, expect, it } from 'vitest';
import { checkDates, closingSoon, dateOf, dateStatus, dayOf, daysLeft, splitDates } from '../../../src/core/adverts/dates.js';
import { checkFiles } from '../../../src/core/bulk/run-files.js';
import { checkAdvert, NO_SETTINGS } from '../../../src/core/validation/check.js';
import { readWithYamlPackage } from '../../../src/core/adverts/yaml-package-reader.js';
import { advertFieldTypes } from '../../../src/core/generated/validators.js';
import { advertYaml, tempFolder } from '../../commands/harness.js';
import { join } from 'node:path';
import { sortFindings } from '../../../src/core/errors/findings.js';

const day = (date: string) => dayOf(date)!;

describe('dates', () => {
  it('reads YYYY-MM-DD as a UTC day number, and only real calendar dates', () => {
    expect(dayOf('1970-01-02')).toBe(1);
    expect(dateOf(day('2026-12-01'))).toBe('2026-12-01');
    expect(dayOf('2026-02-30')).toBeUndefined();
    expect(dayOf('2026-2-3')).toBeUndefined();
    expect(dayOf('1 December')).toBeUndefined();
  });

  it('years 0000-0099 are their own (Date.UTC would read 0026 as 1926), year 0 a leap year', () => {
    expect(dateOf(day('0026-12-31'))).toBe('0026-12-31');
    expect(day('0026-12-31')).toBeLessThan(day('1926-12-31'));
    expect(dateOf(day('0000-02-29'))).toBe('0000-02-29');
    expect(dayOf('0001-02-29')).toBeUndefined();
  });

  it('a date is a calendar date exactly when it prints back as itself, every month and day of years around the leap rules', () => {
    for (const year of ['0000', '0004', '1900', '1999', '2000', '2024', '2026', '2100', '9999'])
      for (let month = 0; month <= 13; month++)
        for (let d = 0; d <= 32; d++) {
          const date = `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          const ms = new Date(0).setUTCFullYear(Number(year), month - 1, d);
          const real = month >= 1 && month <= 12 && d >= 1 && new Date(ms).toISOString().slice(0, 10) === date;
          expect([date, dayOf(date)]).toEqual([date, real ? ms / 86_400_000 : undefined]);
        }
  });

  it('an advert is open from the start of opens through the end of closes', () => {
    const dates = { opens: '2026-12-01', closes: '2026-12-31' };
    expect(dateStatus(dates, day('2026-11-30'))).toBe('waiting');
    expect(dateStatus(dates, day('2026-12-01'))).toBe('open');
    expect(dateStatus(dates, day('2026-12-31'))).toBe('open');
    expect(dateStatus(dates, day('2027-01-01'))).toBe('closed');
    expect(dateStatus(undefined, day('2027-01-01'))).toBe('open');
    expect(daysLeft('2026-12-31', day('2026-12-31'))).toBe(0);
    expect(daysLeft('2026-12-31', day('2026-12-28'))).toBe(3);
    expect([0, 6, 7, -1].map(closingSoon)).toEqual([true, true, false, false]);
  });

  it('takes the block off the advert, and leaves an advert without one as it is', () => {
    const advert = { reference: 'A-1', jobs: { opens: '2026-12-01', closes: 'soon' } };
    expect(splitDates(advert)).toEqual({ advert: { reference: 'A-1' }, dates: { opens: '2026-12-01' } });
    const plain = { reference: 'A-1' };
    expect(splitDates(plain).advert).toBe(plain);
    const tree = {};
    checkDates({ opens: '2026-12-02', closes: '2026-12-01' }, tree);
    expect(tree).toEqual({ jobs: { closes: ['before_opens'] } });
  });

  it('a checked advert has no jobs block in its payload, and keeps its dates beside it', () => {
    const [source] = readWithYamlPackage('a.yaml', advertYaml('A-1', 'jobs:\n  opens: 2026-12-01\n  closes: 2026-12-31\n'), {
      fieldTypes: advertFieldTypes,
    }).adverts;
    const checked = checkAdvert(source!, NO_SETTINGS);
    expect(checked.tree).toEqual({});
    expect(Object.keys(checked.payload)).not.toContain('jobs');
    expect(checked.dates).toEqual({ opens: '2026-12-01', closes: '2026-12-31' });
  });

  it('a key the block does not know, a date that is none, and closes before opens are errors at their lines, even with --allow-unknown-fields', async () => {
    const dir = tempFolder({
      'a.yaml': advertYaml('A-1', 'jobs:\n  opens: 2026-12-05\n  closes: 2026-12-01\n  colses: 2026-12-01\n'),
      'b.yaml': advertYaml('B-2', 'jobs:\n  opens: 2026-02-30\n'),
    });
    const files = ['a.yaml', 'b.yaml'].map((f) => ({ display: f, path: join(dir, f) }));
    const checked = await checkFiles(files, async function* () {}, {
      settings: NO_SETTINGS,
      mode: 'create',
      options: { allowUnknownFields: true },
      records: false,
    });
    // The block starts on line 18 of each file (advertYaml has 17 lines).
    expect(sortFindings(checked.findings).map((f) => `${f.file}:${f.line}: ${f.path} [${f.message}]`)).toEqual([
      'a.yaml:20: jobs.closes [before_opens]',
      'a.yaml:21: jobs.colses [unknown_field:closes]',
      'b.yaml:19: jobs.opens [invalid]',
    ]);
    expect(checked.invalid).toBe(2);
  });

  it('warns, at the line of closes, of an advert that has closed; it stays valid', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1', 'jobs:\n  closes: 2026-12-01\n'), 'b.yaml': advertYaml('B-2', 'jobs:\n  closes: 2026-12-02\n') });
    const files = ['a.yaml', 'b.yaml'].map((f) => ({ display: f, path: join(dir, f) }));
    const checked = await checkFiles(files, async function* () {}, {
      settings: { ...NO_SETTINGS, today: day('2026-12-02') },
      mode: 'create',
      options: {},
      records: false,
    });
    expect(checked.findings).toEqual([]);
    expect(checked.invalid).toBe(0);
    expect(checked.warnings.map((f) => `${f.file}:${f.line}:${f.column}: ${f.path} [${f.message}] ${f.severity}`)).toEqual([
      'a.yaml:19:11: jobs.closes [closed] warning',
    ]);
  });
});
