/**
 * The sync state's bytes on disk, held to checked-in files: the state a sync of a fixture folder
 * writes, its log, and what a version 1 and a version 2 file become once something is recorded.
 * Any change to the format (order, spacing, the check line, the field table) fails here.
 * To regenerate after an intended format change: JOBS_UPDATE_FIXTURES=1 npx vitest run <this file>.
 */
import { copyFileSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncFolder } from '../../../src/index.js';
import { SyncState, type AdvertRecord } from '../../../src/core/sync/state.js';
import { readStateCheck } from '../../../src/core/sync/state-check.js';
import { tempDir } from '../../support/temp-dirs.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/sync-state');
const SERVICE = 'https://jobs.example.test/api';
const NOW = new Date('2026-11-20T10:00:00.000Z');

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  vi.useRealTimers();
});
afterAll(() => nock.enableNetConnect());

const temp = () => tempDir('jobs-state-format-');
const isolated = (home: string) => ({ HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') });

/** The file's bytes equal the checked-in ones (written instead, when asked to regenerate). */
function holdsTo(path: string, expected: string): void {
  const bytes = readFileSync(path);
  if (process.env.JOBS_UPDATE_FIXTURES === '1') writeFileSync(join(FIXTURES, expected), bytes);
  expect(bytes.toString('utf8')).toBe(readFileSync(join(FIXTURES, expected), 'utf8'));
}

const record = (file: string, fields: Record<string, string>, text_hash?: string): AdvertRecord => ({
  file,
  document: 0,
  hash: 'a'.repeat(64),
  ...(text_hash ? { text_hash } : {}),
  fields,
  published_at: '2026-11-21T09:30:00.000Z',
});

describe('the sync state on disk', () => {
  it('a sync of a fixture folder writes the checked-in bytes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const dir = join(temp(), 'adverts');
    cpSync(join(FIXTURES, 'folder'), dir, { recursive: true });
    const scope = nock(SERVICE).post('/jobs').times(3).reply(201);
    const result = await syncFolder({ dir, baseUrl: SERVICE, token: 'tok', env: isolated(temp()), concurrency: 1 });
    scope.done();
    expect(result.exitCode).toBe(0);
    holdsTo(join(dir, '.jobs-state'), 'expected-sync.json');
    expect(existsSync(join(dir, '.jobs-state.log'))).toBe(false);
    // The check line sums the service up: a second run knows from it that nothing changed.
    expect(readStateCheck(join(dir, '.jobs-state'))?.holds()).toBe(true);
  });

  it('a version 2 file is read, logged to and written back in its format', () => {
    const path = join(temp(), 'state.json');
    copyFileSync(join(FIXTURES, 'expected-sync.json'), path);
    const state = SyncState.load(path);
    expect([...state.adverts(SERVICE).keys()]).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
    expect(state.adverts('HTTPS://Jobs.Example.TEST:443/api/').get('ACME-0043')?.file).toBe('sub/support-specialists.yaml');
    state.openLog();
    state.remove(SERVICE, 'ACME-0043');
    state.put(SERVICE, '__proto__', record('odd.yaml', { title: '0123456789abcdef', brand_new_field: 'ffffffff' }, 'b'.repeat(64)));
    state.put('http://other.example.test:80/x/', 'Z-1', record('z.yaml', { title: '11111111' }));
    holdsTo(`${path}.log`, 'expected-v2.log');
    state.save();
    holdsTo(path, 'expected-from-v2.json');
    expect(existsSync(`${path}.log`)).toBe(false);
  });

  it('a version 1 file with two spellings of one service is merged and written as version 2', () => {
    const path = join(temp(), 'state.json');
    copyFileSync(join(FIXTURES, 'v1.json'), path);
    const state = SyncState.load(path);
    expect([...state.adverts('https://jobs.example.test/api').keys()].sort()).toEqual(['ACME-0042', 'ACME-0043']);
    // The later record of a reference held under both spellings wins.
    expect(state.adverts(SERVICE).get('ACME-0042')?.hash).toBe('2'.repeat(32));
    expect(state.adverts(SERVICE).get('ACME-0042')?.fields).toEqual({ title: '22222222', reference: 'ebbbf9b5' });
    state.put(SERVICE, 'ACME-0099', record('new.yaml', { title: '33333333', location: '44444444' }));
    state.save();
    holdsTo(path, 'expected-from-v1.json');
  });

  it('a log beside the state is folded in, and a load that records nothing leaves the file as it is', () => {
    const path = join(temp(), 'state.json');
    copyFileSync(join(FIXTURES, 'expected-sync.json'), path);
    copyFileSync(join(FIXTURES, 'expected-v2.log'), `${path}.log`);
    SyncState.load(path).save();
    holdsTo(path, 'expected-from-v2.json');
    SyncState.load(path).save();
    holdsTo(path, 'expected-from-v2.json');
  });
});
