/** The report's days left and "closing this week" (src/core/report/model.ts, json.ts, html.ts). */
import { describe, expect, it } from 'vitest';
import { dayOf } from '../../../src/core/adverts/dates.js';
import { History } from '../../../src/core/history/store.js';
import { renderReportHtml } from '../../../src/core/report/html.js';
import { reportJson } from '../../../src/core/report/json.js';
import { buildReport } from '../../../src/core/report/model.js';
import { tempDir } from '../../support/temp-dirs.js';

const T0 = Date.parse('2026-12-01T12:00:00Z');
const snap = (reference: string) => ({ reference, at: T0, views: 10, likes: 1, applications: 1, applications_unviewed: 0 });

describe('the report of dated adverts', () => {
  it('gives each live advert with a closing date its days left, and lists those closing this week', () => {
    const h = new History(tempDir('jobs-report-dates-'), 'sandbox');
    h.append([snap('SOON'), snap('LATER'), snap('PLAIN'), snap('GONE')]);
    const published = new Map([
      ['SOON', { title: 'Nurse <night>', published_at: '', closes: '2026-12-03' }],
      ['LATER', { published_at: '', closes: '2026-12-20' }],
      ['PLAIN', { published_at: '' }],
      ['GONE', { published_at: '', closes: '2026-12-02', deleted_at: '2026-11-30T00:00:00Z' }],
    ]);
    const model = buildReport(h, { now: T0, published, today: dayOf('2026-12-01')! });
    const json = reportJson(model, 'r.html') as { closing_this_week: unknown; adverts: Record<string, unknown>[] };
    expect(json.closing_this_week).toEqual([{ reference: 'SOON', title: 'Nurse <night>', closes: '2026-12-03', days_left: 2 }]);
    expect(json.adverts.map((a) => [a.reference, a.days_left])).toEqual([
      ['GONE', undefined],
      ['LATER', 19],
      ['PLAIN', undefined],
      ['SOON', 2],
    ]);
    const html = renderReportHtml(model);
    expect(html).toContain('<h2>Closing this week</h2>');
    expect(html).toContain(
      '<strong>Nurse &#60;night&#62;</strong> <span class="ref">SOON</span></span><span class="why">2 days left (closes 2026-12-03)</span>',
    );
  });

  it('has no closing section when nothing closes this week', () => {
    const h = new History(tempDir('jobs-report-dates-'), 'sandbox');
    h.append([snap('PLAIN')]);
    const model = buildReport(h, { now: T0, published: new Map([['PLAIN', { title: 'Plain' }]]) });
    expect(model.closingThisWeek).toEqual([]);
    expect(renderReportHtml(model)).not.toContain('Closing this week');
  });
});
