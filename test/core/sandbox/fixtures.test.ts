import { describe, expect, it } from 'vitest';
import { advert, start } from '../../support/sandbox-server.js';

describe('sandbox: fixture routes under /_sandbox/', () => {
  it('records the service requests it received, never the Authorization header', async () => {
    const s = await start({ tokens: ['t0p-secret'] });
    await s.call('POST', '/jobs', { body: advert('A'), auth: 'Bearer t0p-secret' });
    await s.call('PUT', '/jobs/A%2FB', { body: { title: 'x' }, auth: 't0p-secret' });
    await s.call('GET', '/jobs/A/stats', { auth: null });
    const res = await s.call('GET', '/_sandbox/requests', { auth: null });
    expect(res.status).toBe(200);
    const requests = res.json as { method: string; path: string; status: number; body: unknown; at: string }[];
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/jobs', 201],
      ['PUT', '/jobs/A%2FB', 404],
      ['GET', '/jobs/A/stats', 401],
    ]);
    expect(requests[0]!.body).toEqual(advert('A'));
    expect(requests[1]!.body).toEqual({ title: 'x' });
    expect(requests[2]!.body).toBeNull();
    expect(Number.isNaN(Date.parse(requests[0]!.at))).toBe(false);
    expect(res.text).not.toContain('t0p-secret');
    expect(res.text.toLowerCase()).not.toContain('authorization');
  });

  it('records a body that is not JSON as null', async () => {
    const s = await start();
    await s.call('POST', '/jobs', { raw: 'not json', headers: { 'Content-Type': 'application/json' } });
    const requests = (await s.call('GET', '/_sandbox/requests', { auth: null })).json as { status: number; body: unknown }[];
    expect(requests).toEqual([expect.objectContaining({ status: 400, body: null })]);
  });

  it('lists stored adverts by client, naming clients by a short hash only', async () => {
    const s = await start({ tokens: ['alice-token', 'bob-token'] });
    await s.call('POST', '/jobs', { body: advert('A1'), auth: 'alice-token' });
    await s.call('POST', '/jobs', { body: advert('B1'), auth: 'bob-token' });
    await s.call('POST', '/jobs', { body: advert('B2'), auth: 'bob-token' });
    const res = await s.call('GET', '/_sandbox/adverts', { auth: null });
    expect(res.status).toBe(200);
    const byClient = res.json as Record<string, { reference: string; advert: unknown; stats: object; applications: unknown[] }[]>;
    const groups = Object.entries(byClient);
    expect(groups).toHaveLength(2);
    for (const [client] of groups) expect(client).toMatch(/^[0-9a-f]{12}$/);
    expect(groups.map(([, adverts]) => adverts.map((a) => a.reference)).sort()).toEqual([['A1'], ['B1', 'B2']]);
    expect(groups[0]![1][0]!.advert).toMatchObject({ title: 'Backend Engineer' });
    expect(res.text).not.toMatch(/alice-token|bob-token/);
  });

  it('creates applications for an advert; the token picks the client when two share a reference', async () => {
    const s = await start({ tokens: ['alice', 'bob'] });
    const noAdvert = await s.call('POST', '/_sandbox/applications', { body: { reference: 'X' }, auth: null });
    expect(noAdvert.status).toBe(404);
    await s.call('POST', '/jobs', { body: advert('X'), auth: 'alice' });
    const before = (await s.call('GET', '/jobs/X/stats', { auth: 'alice' })).json as { applications: number; applications_unviewed: number };
    const one = await s.call('POST', '/_sandbox/applications', { body: { reference: 'X' }, auth: null });
    expect(one.status).toBe(201);
    expect(one.json).toEqual({ id: expect.stringMatching(/^app_[0-9a-f]{16}$/) });
    const after = (await s.call('GET', '/jobs/X/stats', { auth: 'alice' })).json as { applications: number; applications_unviewed: number };
    expect(after.applications).toBe(before.applications + 1);
    expect(after.applications_unviewed).toBe(before.applications_unviewed + 1);

    await s.call('POST', '/jobs', { body: advert('X'), auth: 'bob' });
    const ambiguous = await s.call('POST', '/_sandbox/applications', { body: { reference: 'X' }, auth: null });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.json).toEqual({ errors: { token: ['missing'] } });
    const forBob = await s.call('POST', '/_sandbox/applications', { body: { reference: 'X', token: 'bob' }, auth: null });
    expect(forBob.status).toBe(201);
    const id = (forBob.json as { id: string }).id;
    expect((await s.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_view' }, auth: 'bob' })).status).toBe(200);
    expect((await s.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_view' }, auth: 'alice' })).status).toBe(404);
  });

  it('checks the fixture payload', async () => {
    const s = await start();
    const missing = await s.call('POST', '/_sandbox/applications', { body: {}, auth: null });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ errors: { reference: ['missing'] } });
    const bad = await s.call('POST', '/_sandbox/applications', { body: { reference: 'X', token: 'unknown' }, auth: null });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({ errors: { token: ['invalid'] } });
    // curl -d sends a form content type; the fixture routes read it as JSON anyway.
    await s.call('POST', '/jobs', { body: advert('X') });
    const curlish = await s.call('POST', '/_sandbox/applications', {
      raw: '{"reference":"X"}',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      auth: null,
    });
    expect(curlish.status).toBe(201);
  });

  it('resets everything, and fixture requests are not themselves recorded', async () => {
    const s = await start();
    await s.call('POST', '/jobs', { body: advert('A') });
    const reset = await s.call('POST', '/_sandbox/reset', { auth: null });
    expect(reset.status).toBe(200);
    expect(s.sandbox.state()).toMatchObject({ adverts: [], events: [] });
    expect((await s.call('GET', '/_sandbox/requests', { auth: null })).json).toEqual([]);
    expect((await s.call('GET', '/_sandbox/events', { auth: null })).json).toEqual([]);
    expect((await s.call('GET', '/jobs/A/stats')).status).toBe(404);
  });

  it('answers unknown fixture routes and wrong methods like the service does', async () => {
    const s = await start();
    expect((await s.call('GET', '/_sandbox/nope', { auth: null })).status).toBe(404);
    const wrong = await s.call('GET', '/_sandbox/reset', { auth: null });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});
