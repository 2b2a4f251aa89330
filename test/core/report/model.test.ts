import { describe, expect, it } from 'vitest';
import { History } from '../../../src/core/history/store.js';
import { buildReport, buildReportStoppable, TREND_POINTS } from '../../../src/core/report/model.js';
import { tempDir } from '../../support/temp-dirs.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-01T12:00:00Z');
const snap = (reference: string, day: number, views: number, applications = 0, unviewed = 0) => ({
  reference,
  at: T0 + day * DAY,
  views,
  likes: Math.floor(views / 10),
  applications,
  applications_unviewed: unviewed,
});

describe('the report model', () => {
  it('sums each day the latest counters of every advert, carried over days without a snapshot, whatever the order of the lines', () => {
    const h = new History(tempDir('jobs-model-'), 'sandbox');
    // B is recorded on days 0 and 2 only; A's day 1 arrives after its day 2 (a clock set back).
    h.append([snap('A', 0, 10), snap('B', 0, 100)]);
    h.append([snap('A', 2, 30), snap('B', 2, 120)]);
    h.append([snap('A', 1, 20)]);
    const m = buildReport(h, { now: T0 + 3 * DAY });
    expect(m.totals.map((t) => t.views)).toEqual([110, 120, 150]);
    expect(m.adverts.map((a) => [a.reference, a.current.views, a.snapshots])).toEqual([
      ['A', 30, 3],
      ['B', 120, 2],
    ]);
    expect(m.adverts[0]!.trend.views).toEqual([10, 20, 30]);
    expect(m.funnel).toEqual({ views: 150, likes: 15, applications: 0 });
  });

  it('measures the change over the last week and flags a quiet advert; keeps at most TREND_POINTS points', () => {
    const h = new History(tempDir('jobs-model-'), 'sandbox');
    for (let d = 0; d < 100; d++) h.append([snap('QUIET', d, 10 * d, Math.min(d, 50)), snap('BUSY', d, 5 * d, d, d % 3)]);
    const m = buildReport(h);
    const quiet = m.adverts.find((a) => a.reference === 'QUIET')!;
    expect(quiet.change).toMatchObject({ since: T0 + 92 * DAY, views: 70, applications: 0 });
    expect(quiet.attention).toEqual(['views but no new applications for a week']);
    const busy = m.adverts.find((a) => a.reference === 'BUSY')!;
    expect(busy.attention).toEqual([]);
    expect(busy.trend.views.length).toBe(TREND_POINTS);
    expect(busy.trend.views.at(-1)).toBe(495);
    expect(m.totals.length).toBe(100);
  });

  describe('read so that it can be stopped (Ctrl-C)', () => {
    const h = new History(tempDir('jobs-model-'), 'sandbox');
    for (let d = 0; d < 100; d++) h.append([snap('A', d, 10 * d), snap('B', d, 5 * d, d)]);

    it('is the same model', async () => {
      expect(await buildReportStoppable(h, { now: T0 + 100 * DAY }, new AbortController().signal)).toEqual(buildReport(h, { now: T0 + 100 * DAY }));
    });

    it('stops at the end of the month being read once the signal is aborted: a CancelledError', async () => {
      const controller = new AbortController();
      // Runs when the first month is read and the event loop turns: a Ctrl-C's handler would run there.
      setImmediate(() => controller.abort());
      await expect(buildReportStoppable(h, {}, controller.signal)).rejects.toMatchObject({
        name: 'CancelledError',
        exitCode: 130,
        message: 'interrupted while reading the history: no report was written',
      });
    });
  });
});
