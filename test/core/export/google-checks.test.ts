import { describe, expect, it } from 'vitest';
import { checkPosting, placeholderPay } from '../../../src/core/export/google-checks.js';
import { jobPosting, type JobPosting } from '../../../src/core/export/job-posting.js';
import { advertFacts } from '../../../src/core/export/facts.js';
import { dayOf } from '../../../src/core/adverts/dates.js';
import { advertBody } from '../../commands/harness.js';
import { errorsOf, structuredDataIssues, warningsOf } from '../../support/structured-data.js';

const full = (): JobPosting =>
  jobPosting({
    reference: 'ACME-1',
    payload: advertBody('ACME-1'),
    facts: advertFacts({ pay: { min: 50000, max: 60000, currency: 'NOK', per: 'year' } }),
    dates: { closes: '2026-12-31' },
    markdown: false,
    today: dayOf('2026-11-27')!,
    employmentTypes: new Map([[1, 'FULL_TIME']]),
  });

const without = (property: string): JobPosting => {
  const { [property]: _gone, ...rest } = full();
  return rest as JobPosting;
};

const check = (posting: JobPosting) => checkPosting(posting, { employmentMapped: true });

describe('a JobPosting checked as Google checks it', () => {
  it('a complete posting: no error, no warning, here and in the independent validator', async () => {
    expect(check(full())).toEqual([]);
    expect(errorsOf(await structuredDataIssues(full()))).toEqual([]);
  });

  // Search Console's critical issues: each is an error here (nothing is exported) and fails there too.
  it.each([
    ['hiringOrganization', 'organization_name'],
    ['jobLocation', 'location'],
    ['description', 'job_description'],
    ['title', 'title'],
    ['datePosted', 'jobs.opens'],
  ])('missing %s: an error at %s, and the validator fails it', async (property, path) => {
    const posting = without(property);
    const issues = check(posting);
    expect(issues).toEqual([expect.objectContaining({ severity: 'error', property, path, message: `required:${property}` })]);
    expect(errorsOf(await structuredDataIssues(posting))).toEqual([`Required attribute "${property}" is missing`]);
  });

  it('"Date/time not in ISO 8601 format in field datePosted": an error; the validator fails what it cannot read as a date', async () => {
    const posting = { ...full(), datePosted: '27.11.2026' };
    expect(check(posting)).toEqual([expect.objectContaining({ severity: 'error', property: 'datePosted', path: 'jobs.opens' })]);
    expect(errorsOf(await structuredDataIssues(posting))).toEqual(['Invalid type for attribute "datePosted"']);
    // Stricter than the validator: a date it reads leniently is still not ISO 8601.
    expect(check({ ...full(), datePosted: '2026/11/27' })).toEqual([expect.objectContaining({ severity: 'error', property: 'datePosted' })]);
  });

  it('a description of markup only shows no text: an error', () => {
    expect(check({ ...full(), description: '<p> </p>' })).toEqual([expect.objectContaining({ severity: 'error', property: 'description' })]);
  });

  it('a remote posting with nowhere to work from: an error at jobs.remote.from; the validator fails it too', async () => {
    const { jobLocation: _j, ...rest } = full();
    const posting = { ...rest, jobLocationType: 'TELECOMMUTE', applicantLocationRequirements: [] } as JobPosting;
    expect(check(posting)).toEqual([expect.objectContaining({ severity: 'error', property: 'applicantLocationRequirements', path: 'jobs.remote.from' })]);
    const { applicantLocationRequirements: _a, ...bare } = posting;
    expect(errorsOf(await structuredDataIssues(bare as JobPosting))).toEqual(['Required attribute "applicantLocationRequirements" is missing']);
  });

  // The non-critical ones: warnings here, warnings there.
  it.each([
    ['baseSalary', 'jobs'],
    ['validThrough', 'jobs'],
    ['employmentType', 'contract_id'],
  ])('missing %s: a warning at %s, as the validator warns', async (property, path) => {
    const posting = without(property);
    expect(check(posting)).toEqual([expect.objectContaining({ severity: 'warning', property, path, message: `recommended:${property}` })]);
    const issues = await structuredDataIssues(posting);
    expect(errorsOf(issues)).toEqual([]);
    expect(warningsOf(issues)).toContain(`Missing field "${property}" (optional)`);
  });

  it('no employment type mapping at all: no warning per posting (the run says it once)', () => {
    expect(checkPosting(without('employmentType'), { employmentMapped: false })).toEqual([]);
  });

  it('a placeholder pay is a warning that says it is left out', () => {
    const issues = checkPosting(without('baseSalary'), { employmentMapped: true, placeholder: '0 to 0' });
    expect(issues).toEqual([expect.objectContaining({ severity: 'warning', property: 'baseSalary', path: 'jobs.pay', message: 'placeholder_pay' })]);
    expect(issues[0]!.text).toContain('(0 to 0)');
  });
});

describe('a placeholder pay', () => {
  const pay = (min: number, max?: number) => placeholderPay({ min, ...(max === undefined ? {} : { max }), currency: 'USD', per: 'year' });
  it('0 to 0, from 0, 1, all nines, a billion, min above max, a negative amount', () => {
    expect(pay(0, 0)).toBe('0 to 0');
    expect(pay(0)).toBe('from 0');
    expect(pay(1, 1)).toBe('1');
    expect(pay(50000, 999999999)).toBe('999999999');
    expect(pay(50000, 99999999)).toBe('99999999');
    expect(pay(2e9)).toBe('2000000000');
    expect(pay(90000, 60000)).toBe('min 90000 above max 60000');
    expect(pay(-5, 10)).toBe('a negative amount');
  });
  it('the ISO 4217 codes for no currency (XXX) and for tests (XTS)', () => {
    expect(placeholderPay({ min: 50000, max: 60000, currency: 'XXX', per: 'year' })).toBe('currency XXX, the code for no currency');
    expect(placeholderPay({ min: 50000, max: 60000, currency: 'XTS', per: 'year' })).toBe('currency XTS, the code for tests');
  });
  it('a real pay is none', () => {
    expect(pay(120000, 150000)).toBeUndefined();
    expect(pay(0, 50000)).toBeUndefined();
    expect(pay(999999)).toBeUndefined();
    expect(pay(25, 25)).toBeUndefined();
  });
});
