import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgetPublished, liveReferences, publishedRecordFile, readPublished, writePublished } from '../../../src/core/published/record.js';
import { tempDir } from '../../support/temp-dirs.js';

const env = () => ({ HOME: tempDir('jobs-record-'), XDG_STATE_HOME: '' });
const SERVICE = 'https://jobs.example.test/api';

describe('the record of published adverts', () => {
  it('is one file per service, keyed however the URL is spelt; the sandbox keeps its own beside its state', () => {
    const e = env();
    expect(publishedRecordFile(e, 'HTTPS://Jobs.Example.TEST:443/api/')).toBe(
      join(e.HOME, '.local/state/jobs/published', `${encodeURIComponent(SERVICE)}.json`),
    );
    expect(publishedRecordFile(e, 'sandbox')).toBe(join(e.HOME, '.local/state/jobs/sandbox-published.json'));
  });

  it('keeps every advert of runs that write at once, and any reference (__proto__ too)', async () => {
    const e = env();
    const runs = Array.from({ length: 6 }, (_, i) => writePublished(e, SERVICE, [{ reference: i === 0 ? '__proto__' : `R-${i}`, title: `T ${i}` }]));
    await Promise.all(runs);
    const { adverts } = readPublished(e, SERVICE);
    expect(liveReferences(adverts)).toEqual(['R-1', 'R-2', 'R-3', 'R-4', 'R-5', '__proto__']);
    expect(adverts.get('__proto__')!.title).toBe('T 0');
    // One advert per line, sorted, readable.
    const text = readFileSync(publishedRecordFile(e, SERVICE), 'utf8');
    expect(text.split('\n').slice(0, 4)).toEqual(['{', '  "version": 1,', `  "service": "${SERVICE}",`, '  "adverts": {']);
  });

  it('a deleted advert keeps its title and is no longer live; publishing it again makes it live', async () => {
    const e = env();
    await writePublished(e, SERVICE, [{ reference: 'A', title: 'Nurse' }], Date.parse('2026-01-01T00:00:00Z'));
    await writePublished(e, SERVICE, [{ reference: 'A', deleted: true }], Date.parse('2026-01-02T00:00:00Z'));
    expect(readPublished(e, SERVICE).adverts.get('A')).toEqual({
      title: 'Nurse',
      published_at: '2026-01-01T00:00:00.000Z',
      deleted_at: '2026-01-02T00:00:00.000Z',
    });
    expect(liveReferences(readPublished(e, SERVICE).adverts)).toEqual([]);
    await writePublished(e, SERVICE, [{ reference: 'A' }], Date.parse('2026-01-03T00:00:00Z'));
    // Published again after its deletion: a new posting, first published now.
    expect(readPublished(e, SERVICE).adverts.get('A')).toEqual({
      title: 'Nurse',
      published_at: '2026-01-03T00:00:00.000Z',
      first_published_at: '2026-01-03T00:00:00.000Z',
    });
    // An update keeps when it was first published (a JobPosting's datePosted).
    await writePublished(e, SERVICE, [{ reference: 'A', title: 'Head Nurse' }], Date.parse('2026-01-09T00:00:00Z'));
    expect(readPublished(e, SERVICE).adverts.get('A')).toEqual({
      title: 'Head Nurse',
      published_at: '2026-01-09T00:00:00.000Z',
      first_published_at: '2026-01-03T00:00:00.000Z',
    });
    // A 404 for a reference never recorded is a typo, not a deletion.
    await writePublished(e, SERVICE, [{ reference: 'TYPO', deleted: true, onlyIfRecorded: true }]);
    expect(readPublished(e, SERVICE).adverts.has('TYPO')).toBe(false);
  });

  it('a damaged record reads as empty and says why; the next write replaces it; forget removes it', async () => {
    const e = env();
    const file = publishedRecordFile(e, SERVICE);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{"version": 1, "adverts": {"A": {"publ');
    const damaged = readPublished(e, SERVICE);
    expect(damaged.adverts.size).toBe(0);
    expect(damaged.damaged).toMatch(/JSON/);
    await writePublished(e, SERVICE, [{ reference: 'B', title: 'Cook' }]);
    expect(liveReferences(readPublished(e, SERVICE).adverts)).toEqual(['B']);
    expect(forgetPublished(e, SERVICE)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(forgetPublished(e, SERVICE)).toBe(false);
  });
});
