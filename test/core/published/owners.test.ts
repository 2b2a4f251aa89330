/** Who owns a reference: the edge cases ownerConflicts decides. */
import { describe, expect, it } from 'vitest';
import { ownerConflicts, recordedFileOf } from '../../../src/core/published/owners.js';
import type { PublishedAdvert } from '../../../src/core/published/record.js';

const at = '2026-11-01T00:00:00.000Z';
const record = new Map<string, PublishedAdvert>([
  ['LIVE', { title: 'Backend Engineer', published_at: at, file: '/p/r1/backend.yaml' }],
  ['GONE', { title: 'Backend Engineer', published_at: at, deleted_at: at, file: '/p/r1/backend.yaml' }],
  ['NOFILE', { title: 'Backend Engineer', published_at: at }],
  ['NOTITLE', { published_at: at, file: '/p/r1/backend.yaml' }],
]);

async function conflicts(reference: string, source: string, title: string | undefined) {
  const read: string[] = [];
  const found = await ownerConflicts(record, [{ reference, source }], '/p', async (a) => (read.push(a.reference), title));
  return { found: found.map((c) => `${c.reference} ${c.source}`), read };
}

describe('ownerConflicts', () => {
  it('flags a live reference last sent from another file with another title, stdin included', async () => {
    expect((await conflicts('LIVE', 'r2/sales.yaml', 'Sales Manager')).found).toEqual(['LIVE r2/sales.yaml']);
    expect((await conflicts('LIVE', '<stdin>', 'Sales Manager')).found).toEqual(['LIVE <stdin>']);
  });

  it('leaves alone the same file (any title, not even read), a moved file with the same title, and what the record cannot tell', async () => {
    expect(await conflicts('LIVE', 'r1/backend.yaml', 'Another')).toEqual({ found: [], read: [] });
    expect((await conflicts('LIVE', 'moved/backend.yaml', 'Backend Engineer')).found).toEqual([]);
    for (const reference of ['GONE', 'NOFILE', 'NOTITLE', 'NEW']) expect(await conflicts(reference, 'r2/sales.yaml', 'Sales')).toEqual({ found: [], read: [] });
  });

  it('compares a long title as the record keeps it (cut to 200 characters)', async () => {
    const long = 'T'.repeat(250);
    const kept = new Map([['L', { title: long.slice(0, 200), published_at: at, file: '/p/a.yaml' }]]);
    expect(await ownerConflicts(kept, [{ reference: 'L', source: 'b.yaml' }], '/p', async () => long)).toEqual([]);
  });

  it('keeps no file for stdin', () => {
    expect(recordedFileOf('/p', '<stdin>')).toBeUndefined();
    expect(recordedFileOf('/p', 'a/b.yaml')).toBe('/p/a/b.yaml');
  });
});
