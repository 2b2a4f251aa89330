import { describe, expect, it } from 'vitest';
import { validateAdvert, validateEventPayload } from '../../../src/core/validation/validate.js';
import { messageFor } from '../../../src/core/validation/ajv-errors.js';

const valid = () => ({
  reference: 'ACME-1',
  title: 'Engineer',
  organization_name: 'ACME',
  company_description: 'Robots.',
  job_description: 'Build robots.',
  contract_id: 1,
  salary_id: 2,
  salary_text: '50000',
  industry_id: 3,
  department_id: 4,
  seniority: 0,
  education: 0,
  location: { country: 'FR', city: 'Lyon' },
  recruiter: { email: 'hr@acme.example' },
});

describe('create schema', () => {
  it('accepts a complete advert', () => {
    expect(validateAdvert(valid())).toEqual({});
  });

  it('reports every missing required field as missing, nested ones nested', () => {
    expect(validateAdvert({ location: {}, recruiter: {} })).toEqual({
      reference: ['missing'],
      title: ['missing'],
      organization_name: ['missing'],
      company_description: ['missing'],
      job_description: ['missing'],
      contract_id: ['missing'],
      salary_id: ['missing'],
      salary_text: ['missing'],
      industry_id: ['missing'],
      department_id: ['missing'],
      seniority: ['missing'],
      education: ['missing'],
      location: { country: ['missing'], city: ['missing'] },
      recruiter: { email: ['missing'] },
    });
  });

  it('says blank for empty, whitespace and null values', () => {
    expect(validateAdvert({ ...valid(), title: '', organization_name: '   ', question: null, seniority: null })).toEqual({
      title: ['blank'],
      organization_name: ['blank'],
      question: ['blank'],
      seniority: ['blank'],
    });
  });

  it('maps wrong types to not_an_integer, not_a_number or invalid', () => {
    expect(validateAdvert({ ...valid(), contract_id: 1.5, salary_id: '2', title: 7, skills: 'Go', location: 'Lyon' })).toEqual({
      contract_id: ['not_an_integer'],
      salary_id: ['not_a_number'],
      title: ['invalid'],
      skills: ['invalid'],
      location: ['invalid'],
    });
  });

  it('checks e-mail addresses and real calendar dates', () => {
    expect(validateAdvert({ ...valid(), apply_email: 'nope', start_date: '2027-02-30', recruiter: { email: 'a@' } })).toEqual({
      apply_email: ['invalid'],
      start_date: ['invalid'],
      recruiter: { email: ['invalid'] },
    });
    expect(validateAdvert({ ...valid(), start_date: '2028-02-29' })).toEqual({});
    expect(validateAdvert({ ...valid(), start_date: '15/01/2027' })).toEqual({ start_date: ['invalid'] });
  });

  it('takes the country from the ISO 3166-1 alpha-2 list', () => {
    expect(validateAdvert({ ...valid(), location: { country: 'NO', city: 'Oslo' } })).toEqual({});
    expect(validateAdvert({ ...valid(), location: { country: 'no', city: 'Oslo' } })).toEqual({ location: { country: ['inclusion'] } });
    expect(validateAdvert({ ...valid(), location: { country: 'XK', city: 'Pristina' } })).toEqual({ location: { country: ['inclusion'] } });
  });

  it('requires a state in the US, Canada and Mexico only', () => {
    for (const country of ['US', 'CA', 'MX']) {
      expect(validateAdvert({ ...valid(), location: { country, city: 'X' } })).toEqual({ location: { state: ['missing'] } });
      expect(validateAdvert({ ...valid(), location: { country, city: 'X', state: 'Y' } })).toEqual({});
    }
    expect(validateAdvert({ ...valid(), location: { country: 'DE', city: 'Berlin' } })).toEqual({});
  });

  it('keeps seniority and education non-negative', () => {
    expect(validateAdvert({ ...valid(), seniority: -1, education: -3 })).toEqual({ seniority: ['less_than:0'], education: ['less_than:0'] });
  });

  it('accepts organization_type as a string or an integer, nothing else', () => {
    expect(validateAdvert({ ...valid(), organization_type: 'agency', recruiter: { email: 'a@b.example', organization_type: 2 } })).toEqual({});
    expect(validateAdvert({ ...valid(), organization_type: true })).toEqual({ organization_type: ['invalid'] });
  });

  it('reports skills items by index', () => {
    expect(validateAdvert({ ...valid(), skills: ['Go', ' ', 3] })).toEqual({ skills: { '1': ['blank'], '2': ['invalid'] } });
  });

  it('reports unknown fields with a suggestion, at any depth', () => {
    const { title: _t, ...rest } = valid();
    expect(validateAdvert({ ...rest, titel: 'x', colour: 1, location: { country: 'FR', city: 'Lyon', contry: 'FR' } })).toEqual({
      title: ['missing'],
      titel: ['unknown_field:title'],
      colour: ['unknown_field'],
      location: { contry: ['unknown_field:country'] },
    });
  });

  it('can accept unknown fields when asked', () => {
    expect(validateAdvert({ ...valid(), brand_new_field: 1 }, 'create', { allowUnknownFields: true })).toEqual({});
  });
});

describe('update schema', () => {
  it('accepts any subset, nested objects partially', () => {
    expect(validateAdvert({ recruiter: { phone: '+47 1' } }, 'update')).toEqual({});
    expect(validateAdvert({ location: { country: 'US' } }, 'update')).toEqual({});
    expect(validateAdvert({}, 'update')).toEqual({});
  });
  it('still checks types and blanks, and has no reference', () => {
    expect(validateAdvert({ seniority: 'x', title: '', reference: 'A' }, 'update')).toEqual({
      seniority: ['not_a_number'],
      title: ['blank'],
      reference: ['invalid'],
    });
  });
});

describe('event schema', () => {
  it('takes the three kinds and an optional data object', () => {
    expect(validateEventPayload({ kind: 'recruiter_view' })).toEqual({});
    expect(validateEventPayload({ kind: 'recruiter_like', data: { note: 1 } })).toEqual({});
    expect(validateEventPayload({ kind: 'recruiter_hug', data: [] })).toEqual({ kind: ['inclusion'], data: ['invalid'] });
    expect(validateEventPayload({})).toEqual({ kind: ['missing'] });
  });
});

describe('bound and length identifiers', () => {
  const e = (keyword: string, params: Record<string, unknown>) => messageFor({ keyword, params, instancePath: '', schemaPath: '' }, 5);
  it('words each bound as the spec does', () => {
    expect(e('maximum', { limit: 10 })).toBe('greater_than:10');
    expect(e('exclusiveMaximum', { limit: 10 })).toBe('greater_than_or_equal_to:10');
    expect(e('minimum', { limit: 0 })).toBe('less_than:0');
    expect(e('exclusiveMinimum', { limit: 0 })).toBe('less_than_or_equal_to:0');
    expect(e('maxLength', { limit: 80 })).toBe('too_long:80');
    expect(e('minLength', { limit: 3 })).toBe('too_short:3');
    expect(e('minLength', { limit: 1 })).toBe('blank');
    expect(e('enum', {})).toBe('inclusion');
    expect(e('format', { format: 'email' })).toBe('invalid');
  });
});
