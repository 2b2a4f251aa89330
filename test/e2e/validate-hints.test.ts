/**
 * Values that need a hint (issue 30): what `jobs validate` says, from the built binary, for a list
 * of cities in one, a colon in a value, one text where an object goes, and an amount in salary_id.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes the files into a new folder and validates it there. */
async function validate(files: Record<string, string>, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-hints-'));
  const env = isolatedEnv();
  made.push(dir, env.HOME!);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return jobs(['validate', ...args, ...Object.keys(files)], { cwd: dir, env });
}

const fields = (over: Record<string, string> = {}) =>
  Object.entries({
    reference: 'ACME-1',
    title: 'Engineer',
    organization_name: 'ACME',
    company_description: 'Robots.',
    contract_id: '1',
    salary_id: '1',
    salary_text: '50000 EUR',
    industry_id: '1',
    department_id: '1',
    seniority: '0',
    education: '0',
    location: '\n  country: DE\n  city: Berlin',
    recruiter: '\n  email: hiring@acme.example',
    ...over,
  })
    .map(([k, v]) => `${k}: ${v}\n`)
    .join('');
const yaml = (over: Record<string, string> = {}) => `${fields(over)}job_description: Build robots.\n`;
const markdown = (over: Record<string, string> = {}) => `---\n${fields(over)}---\nBuild robots.\n`;

describe('validate: values that need a hint', () => {
  it('warns (exit 0) that a list of cities in one city is sent as one, and shows locations:', async () => {
    const r = await validate({ 'a.yaml': yaml({ location: '\n  country: DE\n  city: Berlin, Munich, Hamburg' }) });
    expect(r.stdout).toBe(
      '⚠ a.yaml:14:9: location.city: is sent as one city, "Berlin, Munich, Hamburg": for an advert in each, replace location: with locations: ' +
        '[{country: DE, city: Berlin}, {country: DE, city: Munich}, {country: DE, city: Hamburg}] (see "Several places" in docs/adverts.md) [several_cities]\n',
    );
    expect(r.stderr).toBe('✔ 1 advert in 1 file: all valid (1 warning)\n');
    expect(r.code).toBe(0);
    // One city with a comma in its name is one city.
    const dc = await validate({ 'a.yaml': yaml({ location: '\n  country: US\n  state: DC\n  city: Washington, D.C.' }) });
    expect(dc.stdout + dc.stderr).not.toContain('several_cities');
  });

  it('says "quote the value", written out, for a colon in a front matter value, and in a YAML file', async () => {
    const description = { company_description: 'We build robots: flexible hours' };
    const r = await validate({ 'a.md': markdown(description), 'b.yaml': yaml(description) });
    for (const file of ['a.md:5:22', 'b.yaml:4:22'])
      expect(r.stdout).toContain(
        `✖ ${file}: company_description: the value has ": " in it, which YAML reads as another key; quote the value: company_description: "We build robots: flexible hours"\n`,
      );
    expect(r.stdout).not.toContain('Nested mappings');
    expect(r.code).toBe(3);
  });

  it('says what location and recruiter hold, with an example, for one text where the object goes', async () => {
    const r = await validate({ 'a.yaml': yaml({ location: 'Berlin', recruiter: 'hiring@acme.example' }) });
    expect(r.stdout).toBe(
      '✖ a.yaml:12:11: location: is an object of fields, not one text: location holds country (a two-letter code), city, and state for US, CA and MX; ' +
        'write them indented under location: on lines of their own, or on one line: location: {country: DE, city: Berlin} [invalid]\n' +
        '✖ a.yaml:13:12: recruiter: is an object of fields, not one text: recruiter holds email (required), phone, first_name, last_name, organization_name and organization_type; ' +
        'write them indented under recruiter: on lines of their own, or on one line: recruiter: {email: hiring@acme.example} [invalid]\n',
    );
    expect(r.code).toBe(3);
  });

  it('says that an amount in salary_id goes in salary_text', async () => {
    const r = await validate({ 'a.yaml': yaml({ salary_id: '45,000' }) });
    expect(r.stdout).toBe(
      "✖ a.yaml:6:12: salary_id: 45,000 is an amount, not an id: salary_id is the id of a salary band (one of the service's constants), and the amount goes in salary_text, shown to candidates as written (salary_text: 45,000 EUR a year) [not_a_number]\n",
    );
    expect(r.code).toBe(3);
  });
});
