/** Hostile bodies: deep nesting and large payloads must be refused early and never break later requests. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TOTAL_BYTES } from '../../../src/core/sandbox/request-log.js';
import { advert, start, type Running } from '../../support/sandbox-server.js';
import { tempDir } from '../../support/temp-dirs.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataFile(): string {
  const dir = tempDir('jobs-sandbox-abuse-');
  dirs.push(dir);
  return join(dir, 'state.json');
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

async function applicationOf(s: Running, reference: string): Promise<string> {
  expect((await s.call('POST', '/jobs', { body: advert(reference) })).status).toBe(201);
  return ((await s.call('POST', '/_sandbox/applications', { body: { reference }, auth: null })).json as { id: string }).id;
}

describe('sandbox: deeply nested JSON', () => {
  it.each([
    ['in memory', undefined],
    ['with a data file', 'file'],
  ])('refuses a 5,000-deep body with 400 invalid, applies nothing, and later writes still work (%s)', async (_label, file) => {
    const s = await start(file ? { dataFile: dataFile() } : {});
    const id = await applicationOf(s, 'DEEP-1');
    const deep = await s.call('POST', `/job_applications/${id}/events`, { raw: `{"kind":"recruiter_view","data":${nested(5000)}}`, headers: JSON_TYPE });
    expect(deep.status).toBe(400);
    expect(deep.json).toEqual({ errors: { base: ['invalid'] } });
    expect((await s.call('GET', '/_sandbox/events', { auth: null })).json).toEqual([]);

    expect((await s.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_like', data: { note: 'ok' } } })).status).toBe(200);
    expect((await s.call('POST', '/jobs', { body: advert('DEEP-2') })).status).toBe(201);
    expect((await s.call('PUT', '/jobs/DEEP-2', { body: { title: 'Still fine' } })).status).toBe(200);
    expect(s.sandbox.state().adverts.map((a) => a.reference)).toEqual(['DEEP-1', 'DEEP-2']);
  });

  it('accepts ordinary nesting in event data', async () => {
    const s = await start();
    const id = await applicationOf(s, 'NEST');
    const res = await s.call('POST', `/job_applications/${id}/events`, { raw: `{"kind":"recruiter_view","data":${nested(20)}}`, headers: JSON_TYPE });
    expect(res.status).toBe(200);
  });

  it('keeps GET /_sandbox/requests working after a deep body without a token, and after one with a token', async () => {
    const s = await start();
    expect((await s.call('POST', '/jobs', { raw: nested(5000), headers: JSON_TYPE, auth: null })).status).toBe(401);
    expect((await s.call('POST', '/jobs', { raw: nested(5000), headers: JSON_TYPE })).status).toBe(400);
    const log = await s.call('GET', '/_sandbox/requests', { auth: null });
    expect(log.status).toBe(200);
    expect((log.json as { status: number; body: unknown }[]).map((r) => [r.status, r.body])).toEqual([
      [401, null],
      [400, null],
    ]);
  });
});

describe('sandbox: large bodies', () => {
  it('checks the token before the body: 2 MiB without a token is 401, not 413', async () => {
    const s = await start();
    const res = await s.call('POST', '/jobs', { raw: 'x'.repeat(2 * 1024 * 1024), headers: JSON_TYPE, auth: null });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ errors: { base: ['unauthorized'] } });
  });

  it('remembers nothing of 40 bodies of 512 KiB sent without a token, and stays up', async () => {
    const s = await start();
    const body = JSON.stringify({ title: 'x'.repeat(512 * 1024) });
    for (let i = 0; i < 40; i++) expect((await s.call('POST', '/jobs', { raw: body, headers: JSON_TYPE, auth: null })).status).toBe(401);
    const log = await s.call('GET', '/_sandbox/requests', { auth: null });
    expect((log.json as unknown[]).length).toBe(40);
    expect(log.text.length).toBeLessThan(40 * 200);
    expect((await s.call('POST', '/jobs', { body: advert('AFTER') })).status).toBe(201);
  });

  it('keeps large authenticated bodies out of the request log and caps its total size', async () => {
    const s = await start();
    // Valid JSON under the 1 MiB cap, refused by validation: 30 of these would be 27 MiB if kept.
    const big = JSON.stringify({ ...advert('BIG'), notes: 'y'.repeat(900 * 1024) });
    for (let i = 0; i < 30; i++) expect((await s.call('POST', '/jobs', { raw: big, headers: JSON_TYPE })).status).toBe(422);
    const log = await s.call('GET', '/_sandbox/requests', { auth: null });
    const entries = log.json as { status: number; body: unknown; body_truncated?: boolean; body_bytes?: number }[];
    expect(entries).toHaveLength(30);
    expect(entries[0]).toMatchObject({ status: 422, body: null, body_truncated: true, body_bytes: Buffer.byteLength(big) });
    expect(log.text.length).toBeLessThan(30 * 200);

    // Bodies small enough to keep are kept, up to a total; the oldest go first.
    const medium = { ...advert('MED'), notes: 'z'.repeat(60 * 1024) };
    for (let i = 0; i < 100; i++) await s.call('POST', '/jobs', { body: medium });
    const after = await s.call('GET', '/_sandbox/requests', { auth: null });
    expect(after.text.length).toBeLessThanOrEqual(MAX_TOTAL_BYTES);
    const kept = after.json as { body: unknown }[];
    expect(kept.length).toBeLessThan(100);
    expect(kept.at(-1)!.body).toEqual(medium);
    expect((await s.call('POST', '/jobs', { body: advert('AFTER') })).status).toBe(201);
  });

  it('takes its body size limit from maxBodyBytes', async () => {
    const s = await start({ maxBodyBytes: 1024 });
    const res = await s.call('POST', '/jobs', { body: advert('A', { job_description: 'x'.repeat(2048) }) });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ errors: { base: ['too_long:1024'] } });
    expect((await s.call('POST', '/jobs', { body: advert('A') })).status).toBe(201);
  });
});
