import { describe, expect, it } from 'vitest';
import { simulatedCounts } from '../../../src/core/sandbox/activity.js';
import { advert, manualClock, start, type Running } from '../../support/sandbox-server.js';

const HOUR = 3_600_000;

interface Stats {
  views: number;
  likes: number;
  applications: number;
  applications_unviewed: number;
}

async function stats(s: Running, reference: string, auth?: string): Promise<Stats> {
  const res = await s.call('GET', `/jobs/${encodeURIComponent(reference)}/stats`, auth ? { auth } : {});
  expect(res.status).toBe(200);
  return res.json as Stats;
}

async function applicationIds(s: Running): Promise<string[]> {
  const res = await s.call('GET', '/_sandbox/adverts', { auth: null });
  const byClient = res.json as Record<string, { applications: { id: string }[] }[]>;
  return Object.values(byClient).flatMap((adverts) => adverts.flatMap((a) => a.applications.map((p) => p.id)));
}

describe('sandbox: simulated activity', () => {
  it('shows some activity at once and grows with time, deterministically', async () => {
    const clock = manualClock();
    const s = await start({ now: clock.now });
    await s.call('POST', '/jobs', { body: advert('ACME-1') });
    const first = await stats(s, 'ACME-1');
    expect(first.views).toBeGreaterThan(0);
    expect(first.applications).toBeGreaterThan(0);
    expect(first.applications_unviewed).toBe(first.applications);

    clock.advance(3 * HOUR);
    const later = await stats(s, 'ACME-1');
    expect(later.views).toBeGreaterThan(first.views);
    expect(later.likes).toBeGreaterThan(first.likes);
    expect(later.applications).toBeGreaterThan(first.applications);
    expect(later.likes).toBeLessThanOrEqual(later.views);

    // A second sandbox with the same clock and reference shows the same numbers.
    const clock2 = manualClock();
    const s2 = await start({ now: clock2.now });
    await s2.call('POST', '/jobs', { body: advert('ACME-1') });
    clock2.advance(3 * HOUR);
    expect(await stats(s2, 'ACME-1')).toEqual(later);
  });

  it('levels off instead of growing without bound', () => {
    const day = simulatedCounts('ACME-1', 24 * HOUR);
    const year = simulatedCounts('ACME-1', 365 * 24 * HOUR);
    expect(year.applications).toBeLessThanOrEqual(40 + 30);
    expect(year.views).toBeLessThanOrEqual(900 + 1200);
    expect(year.views).toBeGreaterThanOrEqual(day.views);
    // Different references grow at different rates.
    const others = ['A', 'B', 'C', 'D', 'E'].map((r) => simulatedCounts(r, 24 * HOUR).views);
    expect(new Set(others).size).toBeGreaterThan(1);
  });

  it('keeps growing over days, so a fast-forwarded sandbox shows trends; some adverts get views but no new applications', () => {
    const references = Array.from({ length: 30 }, (_, i) => `R-${i}`);
    for (const r of references) {
      const [d1, d7, d30] = [1, 7, 30].map((d) => simulatedCounts(r, d * 24 * HOUR));
      expect(d7!.views).toBeGreaterThan(d1!.views);
      expect(d30!.views - d7!.views).toBeGreaterThan(50);
    }
    const flat = references.filter((r) => simulatedCounts(r, 30 * 24 * HOUR).applications === simulatedCounts(r, 7 * 24 * HOUR).applications);
    expect(flat.length).toBeGreaterThan(0);
    expect(flat.length).toBeLessThan(references.length);
  });

  it('gives every application an id of the form app_<hash>', async () => {
    const s = await start();
    await s.call('POST', '/jobs', { body: advert('ACME-1') });
    await s.call('POST', '/jobs', { body: advert('ACME-2') });
    const ids = await applicationIds(s);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(id).toMatch(/^app_[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('sandbox: job application events', () => {
  async function withApplication() {
    const clock = manualClock();
    const s = await start({ now: clock.now, tokens: ['sandbox', 'other'] });
    await s.call('POST', '/jobs', { body: advert('ACME-1') });
    const created = await s.call('POST', '/_sandbox/applications', { body: { reference: 'ACME-1' }, auth: null });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    return { s, id };
  }

  it('accepts the three kinds with 200 and an empty body', async () => {
    const { s, id } = await withApplication();
    for (const kind of ['recruiter_view', 'recruiter_like', 'recruiter_reject']) {
      const res = await s.call('POST', `/job_applications/${id}/events`, { body: { kind, data: { note: kind } } });
      expect(res.status, kind).toBe(200);
      expect(res.text).toBe('');
    }
    const events = (await s.call('GET', '/_sandbox/events', { auth: null })).json as { kind: string; application_id: string; data: unknown }[];
    expect(events.map((e) => e.kind)).toEqual(['recruiter_view', 'recruiter_like', 'recruiter_reject']);
    expect(events[0]).toMatchObject({ application_id: id, reference: 'ACME-1', data: { note: 'recruiter_view' }, counted: true });
  });

  it('drops applications_unviewed by one, once; only the first recruiter_view counts', async () => {
    const { s, id } = await withApplication();
    const before = await stats(s, 'ACME-1');
    await s.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_view' } });
    const afterView = await stats(s, 'ACME-1');
    expect(afterView.applications_unviewed).toBe(before.applications_unviewed - 1);
    expect(afterView.applications).toBe(before.applications);

    await s.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_view' } });
    await s.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_like' } });
    await s.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_reject' } });
    expect((await stats(s, 'ACME-1')).applications_unviewed).toBe(before.applications_unviewed - 1);

    const events = (await s.call('GET', '/_sandbox/events', { auth: null })).json as { kind: string; counted: boolean }[];
    expect(events.map((e) => [e.kind, e.counted])).toEqual([
      ['recruiter_view', true],
      ['recruiter_view', false],
      ['recruiter_like', true],
      ['recruiter_reject', true],
    ]);
  });

  it('a like or a reject alone also marks the application viewed', async () => {
    const { s } = await withApplication();
    const [a, b] = (await applicationIds(s)).slice(-2);
    const before = await stats(s, 'ACME-1');
    await s.call('POST', `/job_applications/${a}/events`, { body: { kind: 'recruiter_like' } });
    await s.call('POST', `/job_applications/${b}/events`, { body: { kind: 'recruiter_reject' } });
    expect((await stats(s, 'ACME-1')).applications_unviewed).toBe(before.applications_unviewed - 2);
  });

  it("answers an unknown application id, or another client's, with 404 not_found", async () => {
    const { s, id } = await withApplication();
    for (const [path, auth] of [
      ['/job_applications/app_0000000000000000/events', 'sandbox'],
      [`/job_applications/${id}/events`, 'other'],
    ] as const) {
      const res = await s.call('POST', path, { body: { kind: 'recruiter_view' }, auth });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ errors: { base: ['not_found'] } });
    }
    expect(s.sandbox.state().events).toEqual([]);
  });

  it('validates the payload: kind missing 400, kind unknown 422 inclusion, data not an object 422 invalid', async () => {
    const { s, id } = await withApplication();
    const path = `/job_applications/${id}/events`;
    const missing = await s.call('POST', path, { body: { data: {} } });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ errors: { kind: ['missing'] } });
    const empty = await s.call('POST', path);
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ errors: { kind: ['missing'] } });
    const unknown = await s.call('POST', path, { body: { kind: 'recruiter_hire' } });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toEqual({ errors: { kind: ['inclusion'] } });
    const data = await s.call('POST', path, { body: { kind: 'recruiter_like', data: 'great' } });
    expect(data.status).toBe(422);
    expect(data.json).toEqual({ errors: { data: ['invalid'] } });
    expect(s.sandbox.state().events).toEqual([]);
  });

  it('forgets the applications of a deleted advert', async () => {
    const { s, id } = await withApplication();
    await s.call('DELETE', '/jobs/ACME-1');
    const res = await s.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_view' } });
    expect(res.status).toBe(404);
  });
});
