/**
 * One advert for several places (`locations:`), with the built binary against a sandbox on
 * 127.0.0.1: each place is its own advert on the service; reordering the list sends nothing; a
 * place added is one create; a place removed is deleted by `sync --prune --yes`, and only it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs } from './helpers.js';
import { liveSandbox, type LiveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

const place = (country: string, city: string, extra = '') => `  - country: ${country}\n    city: ${city}\n${extra}`;

const advert = (places: string[]) =>
  [
    'reference: ACME-0042',
    'title: Backend Engineer',
    'organization_name: ACME Robotics',
    'company_description: Warehouse robots.',
    'job_description: Plan the routes of our robots.',
    'contract_id: 1',
    'salary_id: 3',
    'salary_text: 650 000 NOK',
    'industry_id: 12',
    'department_id: 4',
    'seniority: 3',
    'education: 3',
    'locations:',
    places.join('').trimEnd(),
    'recruiter:',
    '  email: hiring@acme.example',
    '',
  ].join('\n');

const BERLIN = place('DE', 'Berlin');
const AUSTIN = place('US', 'Austin', '    state: TX\n');
const SAO_PAULO = place('BR', 'São Paulo');
const OSLO = place('NO', 'Oslo', '    reference: ACME-OSLO\n');

/** The sandbox's adverts: reference -> location. */
const onService = (s: LiveSandbox) => Object.fromEntries(s.sandbox.state().adverts.map((a) => [a.reference, a.advert.location]));

function folder(places: string[]): { dir: string; write: (places: string[]) => void } {
  const dir = tempDir('jobs-locations-');
  const write = (list: string[]) => writeFileSync(join(dir, 'eng.yaml'), advert(list));
  write(places);
  return { dir, write };
}

describe('sync of an advert for several places', () => {
  it('publishes one advert per place, then sends only what the list changed', async () => {
    const s = await liveSandbox();
    const { dir, write } = folder([BERLIN, AUSTIN, SAO_PAULO]);

    const first = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('+ ACME-0042-berlin  eng.yaml  (place of ACME-0042)');
    expect(first.stdout).toContain('+ ACME-0042-sao-paulo  eng.yaml  (place of ACME-0042)');
    expect(onService(s)).toEqual({
      'ACME-0042-berlin': { country: 'DE', city: 'Berlin' },
      'ACME-0042-austin': { country: 'US', city: 'Austin', state: 'TX' },
      'ACME-0042-sao-paulo': { country: 'BR', city: 'São Paulo' },
    });
    const state = JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8')) as {
      services: Record<string, { adverts: Record<string, { group?: string }> }>;
    };
    const records = Object.values(state.services)[0]!.adverts;
    expect(Object.fromEntries(Object.entries(records).map(([r, rec]) => [r, rec.group]))).toEqual({
      'ACME-0042-austin': 'ACME-0042',
      'ACME-0042-berlin': 'ACME-0042',
      'ACME-0042-sao-paulo': 'ACME-0042',
    });

    // Reordered: the same three adverts, nothing sent.
    write([SAO_PAULO, BERLIN, AUSTIN]);
    const requests = s.log.length;
    const reordered = await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env });
    expect(reordered.code, reordered.stdout + reordered.stderr).toBe(0);
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    expect(s.log.slice(requests)).toEqual([]);

    // A place added: one create, at the reference the place gives.
    write([SAO_PAULO, BERLIN, OSLO, AUSTIN]);
    const added = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(added.code, added.stderr).toBe(0);
    expect(s.log.slice(requests).filter((l) => !l.startsWith('GET'))).toEqual([expect.stringMatching(/^POST \/jobs 201/)]);
    expect(onService(s)['ACME-OSLO']).toEqual({ country: 'NO', city: 'Oslo' });

    // A place removed: an orphan without --prune; deleted with --prune --yes, and only that one.
    write([SAO_PAULO, OSLO, AUSTIN]);
    const kept = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('? ACME-0042-berlin  eng.yaml  (place of ACME-0042, gone from its locations; left on the service: --prune deletes it)');
    expect(Object.keys(onService(s))).toHaveLength(4);
    const refused = await jobs(['sync', '.', '--prune'], { cwd: dir, env: s.env });
    expect(refused.code, 'no terminal and no --yes: nothing deleted').toBe(2);
    expect(Object.keys(onService(s))).toHaveLength(4);
    const pruned = await jobs(['sync', '.', '--prune', '--yes'], { cwd: dir, env: s.env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('- ACME-0042-berlin  eng.yaml  (place of ACME-0042, gone from its locations)');
    expect(s.log.filter((l) => l.startsWith('DELETE'))).toEqual([expect.stringMatching(/^DELETE \/jobs\/ACME-0042-berlin 200/)]);
    expect(Object.keys(onService(s)).sort()).toEqual(['ACME-0042-austin', 'ACME-0042-sao-paulo', 'ACME-OSLO']);
  });

  it('stats of the group shows each place and their total', async () => {
    const s = await liveSandbox();
    const { dir } = folder([BERLIN, AUSTIN]);
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);

    const table = await jobs(['stats', 'ACME-0042', '--no-record'], { cwd: dir, env: s.env });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines.some((l) => l.startsWith('ACME-0042-berlin '))).toBe(true);
    expect(lines.some((l) => l.startsWith('ACME-0042-austin '))).toBe(true);
    expect(lines.some((l) => l.startsWith('= ACME-0042 (2 places) '))).toBe(true);

    const json = await jobs(['stats', 'ACME-0042', '--no-record', '--json'], { cwd: dir, env: s.env });
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as {
      stats: { reference: string; views: number; applications: number }[];
      groups: { reference: string; places: string[]; views: number; applications: number }[];
    };
    expect(doc.stats.map((r) => r.reference).sort()).toEqual(['ACME-0042-austin', 'ACME-0042-berlin']);
    const [group] = doc.groups;
    expect(group).toMatchObject({ reference: 'ACME-0042', places: ['ACME-0042-austin', 'ACME-0042-berlin'] });
    expect(group!.views).toBe(doc.stats.reduce((n, r) => n + r.views, 0));
    expect(group!.applications).toBe(doc.stats.reduce((n, r) => n + r.applications, 0));
  });

  it('publish records the group too: stats and the report group the places without a sync state', async () => {
    const s = await liveSandbox();
    const { dir } = folder([BERLIN, OSLO]);
    const published = await jobs(['publish', 'eng.yaml'], { cwd: dir, env: s.env });
    expect(published.code, published.stderr).toBe(0);
    expect(Object.keys(onService(s)).sort()).toEqual(['ACME-0042-berlin', 'ACME-OSLO']);

    const stats = await jobs(['stats', 'ACME-0042', '--json'], { cwd: dir, env: s.env });
    expect(stats.code, stats.stderr).toBe(0);
    expect((JSON.parse(stats.stdout) as { groups: { places: string[] }[] }).groups.map((g) => g.places)).toEqual([['ACME-0042-berlin', 'ACME-OSLO']]);

    const report = await jobs(['report', '--json', '--file', 'report.html'], { cwd: dir, env: s.env });
    expect(report.code, report.stderr).toBe(0);
    const doc = JSON.parse(report.stdout) as {
      adverts: { reference: string; group?: string; views: number }[];
      groups: { reference: string; places: string[]; views: number }[];
    };
    expect(doc.adverts.map((a) => [a.reference, a.group])).toEqual([
      ['ACME-0042-berlin', 'ACME-0042'],
      ['ACME-OSLO', 'ACME-0042'],
    ]);
    expect(doc.groups).toEqual([
      expect.objectContaining({ reference: 'ACME-0042', places: ['ACME-0042-berlin', 'ACME-OSLO'], views: doc.adverts.reduce((n, a) => n + a.views, 0) }),
    ]);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Adverts for several places</h2>');
    expect(html).toContain('<strong>ACME-0042</strong> <span class="ref">ACME-0042-berlin, ACME-OSLO</span>');
  });
});
