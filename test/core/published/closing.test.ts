/**
 * Days left and "closing this week" (src/core/published/closing.ts), from the dates the record of
 * published adverts keeps (src/core/published/record.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dayOf } from '../../../src/core/adverts/dates.js';
import { closingDates, closingThisWeek, daysLeftText } from '../../../src/core/published/closing.js';
import { publishedRecordFile, readPublished, writePublished } from '../../../src/core/published/record.js';
import { tempDir } from '../../support/temp-dirs.js';

const SERVICE = 'https://jobs.example.test/api';
const env = () => ({ HOME: tempDir('jobs-closing-'), XDG_STATE_HOME: '' });
const today = dayOf('2026-12-01')!;

describe('closing dates of published adverts', () => {
  it('the record keeps the dates an advert was sent with; a sync of unchanged adverts brings only their dates up to date', async () => {
    const e = env();
    await writePublished(
      e,
      SERVICE,
      [
        { reference: 'A', title: 'Nurse', dates: { opens: '2026-11-01', closes: '2026-12-03' } },
        { reference: 'B', title: 'Cook' },
      ],
      Date.parse('2026-11-01T00:00:00Z'),
    );
    expect(readPublished(e, SERVICE).adverts.get('A')).toEqual({
      title: 'Nurse',
      published_at: '2026-11-01T00:00:00.000Z',
      first_published_at: '2026-11-01T00:00:00.000Z',
      opens: '2026-11-01',
      closes: '2026-12-03',
    });
    const file = publishedRecordFile(e, SERVICE);
    const before = readFileSync(file, 'utf8');
    // The same dates again, and dates for a reference never published: the file is left as it is.
    await writePublished(e, SERVICE, [
      { reference: 'A', dates: { opens: '2026-11-01', closes: '2026-12-03' }, datesOnly: true },
      { reference: 'Z', dates: { closes: '2026-12-09' }, datesOnly: true },
    ]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    await writePublished(
      e,
      SERVICE,
      [
        { reference: 'A', dates: undefined, datesOnly: true },
        { reference: 'B', dates: { closes: '2026-12-20' }, datesOnly: true },
      ],
      Date.parse('2026-11-20T00:00:00Z'),
    );
    const adverts = readPublished(e, SERVICE).adverts;
    // Published when it was sent, not when its dates changed.
    const first = { first_published_at: '2026-11-01T00:00:00.000Z' };
    expect(adverts.get('A')).toEqual({ title: 'Nurse', published_at: '2026-11-01T00:00:00.000Z', ...first });
    expect(adverts.get('B')).toEqual({ title: 'Cook', published_at: '2026-11-01T00:00:00.000Z', ...first, closes: '2026-12-20' });
    expect(adverts.has('Z')).toBe(false);
  });

  it('counts days left from today for live adverts with a closing date, and lists those closing within 7 days, soonest first', () => {
    const adverts = new Map([
      ['LAST', { published_at: '', closes: '2026-12-01' }],
      ['WEEK', { published_at: '', closes: '2026-12-07' }],
      ['LATER', { published_at: '', closes: '2026-12-08' }],
      ['PAST', { published_at: '', closes: '2026-11-30' }],
      ['GONE', { published_at: '', closes: '2026-12-02', deleted_at: '2026-11-29T00:00:00Z' }],
      ['NONE', { published_at: '' }],
    ]);
    const closing = closingDates(adverts, [...adverts.keys()], today);
    expect([...closing].map(([r, c]) => `${r} ${c.days_left}`)).toEqual(['LAST 0', 'WEEK 6', 'LATER 7', 'PAST -1']);
    expect(closingThisWeek(closing).map((c) => c.reference)).toEqual(['LAST', 'WEEK']);
    expect([...closing.values()].map(daysLeftText)).toEqual(['last day', '6 days left', '7 days left', 'closed 2026-11-30']);
  });
});
