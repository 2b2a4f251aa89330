import { describe, expect, it } from 'vitest';
import { jobPosting, type PostingInput } from '../../../src/core/export/job-posting.js';
import { advertFacts } from '../../../src/core/export/facts.js';
import { dayOf } from '../../../src/core/adverts/dates.js';
import { advertBody } from '../../commands/harness.js';
import { errorsOf, structuredDataIssues, warningsOf } from '../../support/structured-data.js';

const TODAY = dayOf('2026-11-27')!;

const input = (over: Partial<PostingInput> = {}): PostingInput => ({
  reference: 'ACME-1',
  payload: advertBody('ACME-1'),
  facts: {},
  markdown: false,
  today: TODAY,
  employmentTypes: new Map(),
  ...over,
});

describe('an advert as a schema.org JobPosting', () => {
  it('maps each field: title, description, identifier, hiringOrganization, jobLocation, datePosted (today without a record or opens)', async () => {
    const posting = jobPosting(input());
    expect(posting).toEqual({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Engineer',
      description: '<p>Build robots.</p>',
      identifier: { '@type': 'PropertyValue', name: 'ACME', value: 'ACME-1' },
      datePosted: '2026-11-27',
      hiringOrganization: { '@type': 'Organization', name: 'ACME' },
      jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Oslo', addressCountry: 'NO' } },
    });
    const issues = await structuredDataIssues(posting);
    expect(errorsOf(issues)).toEqual([]);
    // What the advert does not say is what the independent validator recommends.
    expect(warningsOf(issues)).toEqual(
      expect.arrayContaining(['Missing field "baseSalary" (optional)', 'Missing field "employmentType" (optional)', 'Missing field "validThrough" (optional)']),
    );
  });

  it('datePosted: first published from the record, else jobs.opens; validThrough: the end of the closing day (UTC)', () => {
    const dates = { opens: '2026-11-20', closes: '2026-12-31' };
    expect(jobPosting(input({ dates, firstPublished: '2026-11-21T08:00:00.000Z' }))).toMatchObject({
      datePosted: '2026-11-21',
      validThrough: '2026-12-31T23:59:59Z',
    });
    expect(jobPosting(input({ dates }))).toMatchObject({ datePosted: '2026-11-20' });
    // A damaged record's date is no date: the next source is used.
    expect(jobPosting(input({ dates, firstPublished: 'yesterday' }))).toMatchObject({ datePosted: '2026-11-20' });
  });

  it('a state and a region: addressRegion', () => {
    const payload = { ...advertBody('X'), location: { country: 'US', state: 'TX', city: 'Austin' } };
    expect(jobPosting(input({ payload })).jobLocation).toEqual({
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality: 'Austin', addressRegion: 'TX', addressCountry: 'US' },
    });
  });

  it('baseSalary from jobs.pay: a range, an open-ended "from", a fixed pay, each with its unit', async () => {
    const pay = (p: Record<string, unknown>) => jobPosting(input({ facts: advertFacts({ pay: p }) })).baseSalary;
    expect(pay({ min: 120000, max: 150000, currency: 'USD', per: 'year' })).toEqual({
      '@type': 'MonetaryAmount',
      currency: 'USD',
      value: { '@type': 'QuantitativeValue', minValue: 120000, maxValue: 150000, unitText: 'YEAR' },
    });
    expect(pay({ min: 3000, currency: 'EUR', per: 'month' })).toEqual({
      '@type': 'MonetaryAmount',
      currency: 'EUR',
      value: { '@type': 'QuantitativeValue', minValue: 3000, unitText: 'MONTH' },
    });
    expect(pay({ min: 25, max: 25, currency: 'GBP', per: 'hour' })).toEqual({
      '@type': 'MonetaryAmount',
      currency: 'GBP',
      value: { '@type': 'QuantitativeValue', value: 25, unitText: 'HOUR' },
    });
    for (const per of ['day', 'week']) expect(pay({ min: 1, max: 2, currency: 'NOK', per })).toMatchObject({ value: { unitText: per.toUpperCase() } });
    const posting = jobPosting(input({ facts: advertFacts({ pay: { min: 120000, max: 150000, currency: 'USD', per: 'year' } }) }));
    expect(warningsOf(await structuredDataIssues(posting))).not.toContain('Missing field "baseSalary" (optional)');
  });

  it('a remote advert (jobs.remote): TELECOMMUTE and where it may be done from, no jobLocation; the validator takes it', async () => {
    const posting = jobPosting(input({ facts: advertFacts({ remote: { from: ['US-CO', 'CA', 'US-NY/new-york-city'] } }) }));
    expect(posting.jobLocation).toBeUndefined();
    expect(posting.jobLocationType).toBe('TELECOMMUTE');
    expect(posting.applicantLocationRequirements).toEqual([
      { '@type': 'State', name: 'US-CO' },
      { '@type': 'Country', name: 'CA' },
      { '@type': 'City', name: 'New York City', containedInPlace: { '@type': 'State', name: 'US-NY' } },
    ]);
    expect(errorsOf(await structuredDataIssues(posting))).toEqual([]);
  });

  it('employmentType from the contract mapping; none without one', () => {
    expect(jobPosting(input({ employmentTypes: new Map([[1, 'FULL_TIME']]) })).employmentType).toBe('FULL_TIME');
    expect(jobPosting(input({ employmentTypes: new Map([[2, 'PART_TIME']]) })).employmentType).toBeUndefined();
  });

  it('a Markdown description becomes HTML; a plain one escaped paragraphs', () => {
    const md = { ...advertBody('M'), job_description: '# Role\n\nBuild **robots** & <b>things</b>.\n' };
    expect(jobPosting(input({ payload: md, markdown: true })).description).toBe(
      '<h1>Role</h1>\n<p>Build <strong>robots</strong> &amp; &lt;b&gt;things&lt;/b&gt;.</p>',
    );
    const text = { ...advertBody('T'), job_description: 'Line one\nline two & <b>x</b>\n\nSecond' };
    expect(jobPosting(input({ payload: text })).description).toBe('<p>Line one<br>\nline two &#38; &#60;b&#62;x&#60;/b&#62;</p>\n<p>Second</p>');
  });
});
