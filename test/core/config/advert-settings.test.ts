import { describe, expect, it } from 'vitest';
import { applyConstants, applyDefaults } from '../../../src/core/config/advert-settings.js';

describe('applyDefaults', () => {
  it('deep-merges plain objects with the advert winning, and replaces arrays', () => {
    const defaults = {
      organization_name: 'ACME',
      skills: ['typescript', 'node'],
      location: { country: 'FR', city: 'Paris' },
      recruiter: { email: 'jobs@acme.example', phone: '+33 1' },
    };
    const advert = { title: 'Engineer', skills: ['go'], location: { city: 'Lyon' }, recruiter: { phone: null } };
    expect(applyDefaults(advert, defaults)).toEqual({
      organization_name: 'ACME',
      skills: ['go'],
      location: { country: 'FR', city: 'Lyon' },
      recruiter: { email: 'jobs@acme.example', phone: null },
      title: 'Engineer',
    });
  });

  it('mutates neither input, and the result shares nothing with them', () => {
    const defaults = { location: { country: 'FR' }, skills: ['a'] };
    const advert = { location: { city: 'Lyon' } };
    const before = JSON.stringify([defaults, advert]);
    const merged = applyDefaults(advert, defaults) as { location: Record<string, string>; skills: string[] };
    merged.location.country = 'DE';
    merged.skills.push('b');
    expect(JSON.stringify([defaults, advert])).toBe(before);
  });

  it('a __proto__ key is data, not a prototype change', () => {
    const advert = JSON.parse('{"__proto__": {"polluted": true}, "title": "x"}') as Record<string, unknown>;
    const merged = applyDefaults(advert, {});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(['__proto__', 'title']);
  });
});

describe('applyConstants', () => {
  const constants = {
    contract: { permanent: 1, temporary: 2 },
    salary: { band_a: 10 },
    industry: { software: 7 },
    department: { engineering: 3 },
    organization_type: { agency: 'AGENCY', direct: 2 },
  };

  it('replaces names by ids in every field of every family', () => {
    const advert = {
      contract_id: 'permanent',
      salary_id: 'band_a',
      industry_id: 'software',
      department_id: 'engineering',
      organization_type: 'direct',
      recruiter: { email: 'r@acme.example', organization_type: 'agency' },
    };
    const result = applyConstants(advert, constants);
    expect(result.errors).toEqual([]);
    expect(result.advert).toEqual({
      contract_id: 1,
      salary_id: 10,
      industry_id: 7,
      department_id: 3,
      organization_type: 2,
      recruiter: { email: 'r@acme.example', organization_type: 'AGENCY' },
    });
    expect(advert.contract_id).toBe('permanent');
    expect(advert.recruiter.organization_type).toBe('agency');
  });

  it('an unknown name is an inclusion error at its path; numbers and integer strings pass', () => {
    const result = applyConstants(
      { contract_id: 'freelance', salary_id: 4, industry_id: '12', organization_type: 'charity', recruiter: { organization_type: 'nope' } },
      constants,
    );
    expect(result.errors).toEqual([
      { path: ['contract_id'], message: 'inclusion' },
      { path: ['organization_type'], message: 'inclusion' },
      { path: ['recruiter', 'organization_type'], message: 'inclusion' },
    ]);
    expect(result.advert).toMatchObject({ contract_id: 'freelance', salary_id: 4, industry_id: '12' });
  });

  it("the service's own value is accepted as written", () => {
    expect(applyConstants({ organization_type: 'AGENCY' }, constants)).toEqual({ advert: { organization_type: 'AGENCY' }, errors: [] });
  });

  it('without a map for the family, strings are left for the schema', () => {
    const result = applyConstants({ contract_id: 'permanent', department_id: 'engineering' }, { contract: { permanent: 1 } });
    expect(result).toEqual({ advert: { contract_id: 1, department_id: 'engineering' }, errors: [] });
  });

  it('names inherited from Object.prototype are not names', () => {
    const result = applyConstants({ contract_id: 'constructor', salary_id: 'toString' }, constants);
    expect(result.errors).toEqual([
      { path: ['contract_id'], message: 'inclusion' },
      { path: ['salary_id'], message: 'inclusion' },
    ]);
  });
});
