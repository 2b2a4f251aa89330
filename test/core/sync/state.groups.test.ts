/** The sync state keeps the group of an advert made from a `locations:` list, through its file and its log. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncState, type AdvertRecord } from '../../../src/core/sync/state.js';
import { Planner } from '../../../src/core/sync/plan.js';
import { tempDir } from '../../support/temp-dirs.js';

const SERVICE = 'https://jobs.example.com';
const record = (group?: string): AdvertRecord => ({
  file: 'eng.yaml',
  document: 0,
  hash: 'h'.repeat(32),
  fields: { title: 'x' },
  published_at: '2026-01-01T00:00:00.000Z',
  ...(group ? { group } : {}),
});
const tempPath = () => join(tempDir('jobs-state-groups-'), 'state.json');

describe('a group in the sync state', () => {
  it('is written with the record and read back; a record without one has none', () => {
    const path = tempPath();
    const state = SyncState.load(path);
    state.put(SERVICE, 'ACME-0042-berlin', record('ACME-0042'));
    state.put(SERVICE, 'ACME-0043', record());
    state.save();
    const written = JSON.parse(readFileSync(path, 'utf8')) as { services: Record<string, { adverts: Record<string, Record<string, unknown>> }> };
    expect(written.services[SERVICE]!.adverts['ACME-0042-berlin']!.group).toBe('ACME-0042');
    expect(written.services[SERVICE]!.adverts['ACME-0043']).not.toHaveProperty('group');
    const again = SyncState.load(path).adverts(SERVICE);
    expect(again.get('ACME-0042-berlin')!.group).toBe('ACME-0042');
    expect(again.get('ACME-0043')!.group).toBeUndefined();
  });

  it('survives a run that was cut short (its log folded in at the next start)', () => {
    const path = tempPath();
    const state = SyncState.load(path);
    state.openLog();
    state.put(SERVICE, 'ACME-0042-oslo', record('ACME-0042'));
    // No save: the run was killed; the log holds the record.
    expect(SyncState.load(path).adverts(SERVICE).get('ACME-0042-oslo')!.group).toBe('ACME-0042');
  });

  it('refuses a group that is not text, naming the record', () => {
    const path = tempPath();
    const state = SyncState.load(path);
    state.put(SERVICE, 'A-oslo', record('A'));
    state.save();
    writeFileSync(path, readFileSync(path, 'utf8').replace('"group":"A"', '"group":7'));
    expect(() => SyncState.load(path)).toThrow(/adverts\["A-oslo"\]\.group: expected a string, not a number/);
  });

  it('names the group of a place gone from its list when the plan deletes it', () => {
    const recorded = new Map<string, AdvertRecord>([
      ['ACME-0042-berlin', record('ACME-0042')],
      ['ACME-0042-oslo', record('ACME-0042')],
    ]);
    const planner = new Planner(recorded, { prune: true, force: false });
    planner.add({ reference: 'ACME-0042-oslo', file: 'eng.yaml', source: 'eng.yaml', document: 0, hash: 'h'.repeat(32), group: 'ACME-0042' });
    const plan = planner.finish();
    expect(plan.changes).toEqual([
      { action: 'unchanged', reference: 'ACME-0042-oslo', file: 'eng.yaml', group: 'ACME-0042' },
      { action: 'delete', reference: 'ACME-0042-berlin', file: 'eng.yaml', group: 'ACME-0042' },
    ]);
  });
});

describe('a place whose group changed', () => {
  it('is planned unchanged but moved, so its record takes the new group without a request', () => {
    const recorded = new Map<string, AdvertRecord>([['ACME-OSLO', record('ACME-0042')]]);
    const planner = new Planner(recorded, { prune: false, force: false });
    planner.add({ reference: 'ACME-OSLO', file: 'eng.yaml', source: 'eng.yaml', document: 0, hash: 'h'.repeat(32), group: 'ACME-0050' });
    expect(planner.finish().changes).toEqual([{ action: 'unchanged', reference: 'ACME-OSLO', file: 'eng.yaml', document: 0, moved: true, group: 'ACME-0050' }]);
  });
});
