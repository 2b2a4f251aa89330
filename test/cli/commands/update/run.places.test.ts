/** `update <reference> file` of an advert for several places sends the place named, and only its fields. */
import nock from 'nock';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runJobs as run, SERVICE, serviceEnv, tempFolder } from '../../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const FILE = `reference: ACME-0042\ntitle: T\norganization_name: O\ncompany_description: C\njob_description: J\ncontract_id: 1\nsalary_id: 1\nsalary_text: S\nindustry_id: 1\ndepartment_id: 1\nseniority: 0\neducation: 0\nlocations:\n  - country: DE\n    city: Berlin\n  - country: DE\n    city: Hamburg\nrecruiter:\n  email: r@example.com\n`;

describe('update of one place of an advert for several places', () => {
  it('sends that place (its location), at its reference', async () => {
    const dir = tempFolder({ 'eng.yaml': FILE });
    let body: Record<string, unknown> | undefined;
    const scope = nock(SERVICE)
      .put('/jobs/ACME-0042-hamburg', (b: Record<string, unknown>) => ((body = b), true))
      .reply(200);
    const r = await run(['update', 'ACME-0042-hamburg', join(dir, 'eng.yaml')], { env: serviceEnv });
    scope.done();
    expect(r.code, r.stderr).toBe(0);
    expect(body!.location).toEqual({ country: 'DE', city: 'Hamburg' });
    expect(body).not.toHaveProperty('reference');
    expect(body).not.toHaveProperty('locations');
  });

  it('names the places when the reference is none of them (exit 3, nothing sent)', async () => {
    const dir = tempFolder({ 'eng.yaml': FILE });
    const r = await run(['update', 'ACME-0042-munich', join(dir, 'eng.yaml')], { env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('is an advert for several places, and none of them is "ACME-0042-munich": its places are ACME-0042-berlin, ACME-0042-hamburg');
  });
});
