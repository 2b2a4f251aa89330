import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { advert, start } from '../../support/sandbox-server.js';

describe('sandbox: create, update, delete, stats', () => {
  it('creates an advert: 201 with an empty body, then reads its stats', async () => {
    const { call } = await start();
    const created = await call('POST', '/jobs', { body: advert('ACME-1') });
    expect(created.status).toBe(201);
    expect(created.text).toBe('');
    const stats = await call('GET', '/jobs/ACME-1/stats');
    expect(stats.status).toBe(200);
    expect(stats.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Object.keys(stats.json as object).sort()).toEqual(['applications', 'applications_unviewed', 'likes', 'views']);
    for (const value of Object.values(stats.json as object)) expect(Number.isInteger(value)).toBe(true);
  });

  it('answers a missing required field with 400 and the nested error tree', async () => {
    const { call } = await start();
    const body = advert('ACME-1', { title: undefined, recruiter: { phone: '123' } });
    const res = await call('POST', '/jobs', { body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ errors: { title: ['missing'], recruiter: { email: ['missing'] } } });
  });

  it('answers invalid values with 422 in the service vocabulary', async () => {
    const { call } = await start();
    const res = await call('POST', '/jobs', { body: advert('ACME-1', { contract_id: 1.5, title: '  ', location: { country: 'XX', city: 'Oslo' } }) });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ errors: { contract_id: ['not_an_integer'], title: ['blank'], location: { country: ['inclusion'] } } });
  });

  it('requires a state for US, CA and MX locations at creation (400 missing)', async () => {
    const { call } = await start();
    const res = await call('POST', '/jobs', { body: advert('ACME-1', { location: { country: 'US', city: 'Austin' } }) });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ errors: { location: { state: ['missing'] } } });
  });

  it('rejects a reference the same client already used: 422 taken', async () => {
    const { call } = await start();
    expect((await call('POST', '/jobs', { body: advert('ACME-1') })).status).toBe(201);
    const again = await call('POST', '/jobs', { body: advert('ACME-1') });
    expect(again.status).toBe(422);
    expect(again.json).toEqual({ errors: { reference: ['taken'] } });
  });

  it('percent-decodes path segments: a reference with / space and # works end to end', async () => {
    const { call, sandbox } = await start();
    const reference = 'ACME/2024 #1';
    expect((await call('POST', '/jobs', { body: advert(reference) })).status).toBe(201);
    const path = `/jobs/${encodeURIComponent(reference)}`;
    expect(path).toBe('/jobs/ACME%2F2024%20%231');
    expect((await call('PUT', path, { body: { title: 'Renamed' } })).status).toBe(200);
    expect((await call('GET', `${path}/stats`)).status).toBe(200);
    expect(sandbox.state().adverts[0]!.advert.title).toBe('Renamed');
    expect((await call('DELETE', path)).status).toBe(200);
    expect(sandbox.state().adverts).toEqual([]);
  });

  it('updates partially: nested objects merge field by field', async () => {
    const { call, sandbox } = await start();
    await call('POST', '/jobs', { body: advert('ACME-1', { recruiter: { email: 'a@acme.example', first_name: 'Kari' } }) });
    const res = await call('PUT', '/jobs/ACME-1', { body: { recruiter: { phone: '+47 1234' }, seniority: 5 } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const stored = sandbox.state().adverts[0]!.advert;
    expect(stored.recruiter).toEqual({ email: 'a@acme.example', first_name: 'Kari', phone: '+47 1234' });
    expect(stored.seniority).toBe(5);
    expect(stored.title).toBe('Backend Engineer');
  });

  it('checks the merged advert: moving it to the US without a state is 422 location.state missing', async () => {
    const { call, sandbox } = await start();
    await call('POST', '/jobs', { body: advert('ACME-1') });
    const res = await call('PUT', '/jobs/ACME-1', { body: { location: { country: 'US' } } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ errors: { location: { state: ['missing'] } } });
    expect(sandbox.state().adverts[0]!.advert.location).toEqual({ country: 'NO', city: 'Oslo' });
    const ok = await call('PUT', '/jobs/ACME-1', { body: { location: { country: 'US', state: 'TX', city: 'Austin' } } });
    expect(ok.status).toBe(200);
  });

  it('keeps the reference immutable: a different one is 422 invalid, the same one is ignored', async () => {
    const { call, sandbox } = await start();
    await call('POST', '/jobs', { body: advert('ACME-1') });
    const changed = await call('PUT', '/jobs/ACME-1', { body: { reference: 'ACME-2', title: 'X' } });
    expect(changed.status).toBe(422);
    expect(changed.json).toEqual({ errors: { reference: ['invalid'] } });
    expect(sandbox.state().adverts[0]!.advert.title).toBe('Backend Engineer');
    const same = await call('PUT', '/jobs/ACME-1', { body: { reference: 'ACME-1', title: 'Y' } });
    expect(same.status).toBe(200);
    expect(sandbox.state().adverts[0]!.advert).toMatchObject({ reference: 'ACME-1', title: 'Y' });
  });

  it('rejects invalid update values with 422 and unknown fields by name', async () => {
    const { call } = await start();
    await call('POST', '/jobs', { body: advert('ACME-1') });
    const res = await call('PUT', '/jobs/ACME-1', { body: { seniority: -1, titel: 'x' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ errors: { seniority: ['less_than:0'], titel: ['unknown_field:title'] } });
  });

  it('answers 404 not_found for update, delete and stats of an unknown reference', async () => {
    const { call } = await start();
    for (const [method, path, body] of [
      ['PUT', '/jobs/NOPE', { title: 'x' }],
      ['DELETE', '/jobs/NOPE', undefined],
      ['GET', '/jobs/NOPE/stats', undefined],
    ] as const) {
      const res = await call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toEqual({ errors: { base: ['not_found'] } });
    }
  });

  it('deletes: stats are then 404 and the reference can be created again', async () => {
    const { call } = await start();
    await call('POST', '/jobs', { body: advert('ACME-1') });
    const del = await call('DELETE', '/jobs/ACME-1');
    expect(del.status).toBe(200);
    expect(del.text).toBe('');
    expect((await call('GET', '/jobs/ACME-1/stats')).status).toBe(404);
    expect((await call('DELETE', '/jobs/ACME-1')).status).toBe(404);
    expect((await call('POST', '/jobs', { body: advert('ACME-1') })).status).toBe(201);
  });
});

describe('sandbox: credentials and ownership', () => {
  it('answers 401 unauthorized without credentials or with an unknown token', async () => {
    const { call, sandbox } = await start();
    for (const auth of [null, 'Bearer nope', 'Basic c2FuZGJveA==', '']) {
      const res = await call('POST', '/jobs', { body: advert('ACME-1'), auth });
      expect(res.status, String(auth)).toBe(401);
      expect(res.json).toEqual({ errors: { base: ['unauthorized'] } });
    }
    expect(sandbox.state().adverts).toEqual([]);
  });

  it('accepts "Bearer <token>" (any case) and the bare token', async () => {
    const { call } = await start({ tokens: ['t1'] });
    expect((await call('POST', '/jobs', { body: advert('A'), auth: 'Bearer t1' })).status).toBe(201);
    expect((await call('GET', '/jobs/A/stats', { auth: 'bearer t1' })).status).toBe(200);
    expect((await call('GET', '/jobs/A/stats', { auth: 't1' })).status).toBe(200);
    expect((await call('GET', '/jobs/A/stats', { auth: 'Bearer sandbox' })).status).toBe(401);
  });

  it('isolates clients: another token sees 404 and may use the same reference itself', async () => {
    const { call, sandbox } = await start({ tokens: ['alice', 'bob'] });
    expect((await call('POST', '/jobs', { body: advert('SHARED'), auth: 'alice' })).status).toBe(201);
    for (const [method, path, body] of [
      ['PUT', '/jobs/SHARED', { title: 'hijack' }],
      ['GET', '/jobs/SHARED/stats', undefined],
      ['DELETE', '/jobs/SHARED', undefined],
    ] as const) {
      const res = await call(method, path, { body, auth: 'bob' });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toEqual({ errors: { base: ['not_found'] } });
    }
    expect((await call('POST', '/jobs', { body: advert('SHARED', { title: 'Bob' }), auth: 'bob' })).status).toBe(201);
    const adverts = sandbox.state().adverts;
    expect(adverts.map((a) => a.advert.title).sort()).toEqual(['Backend Engineer', 'Bob']);
    expect(new Set(adverts.map((a) => a.owner)).size).toBe(2);
    expect(JSON.stringify(sandbox.state())).not.toMatch(/alice|bob/);
  });
});

describe('sandbox: routes and malformed requests', () => {
  it('answers unknown routes with 404 not_found', async () => {
    const { call } = await start();
    for (const path of ['/', '/nope', '/jobs/A/stats/more', '/jobs/']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual({ errors: { base: ['not_found'] } });
    }
  });

  it('answers a wrong method on a known path with 405 and an Allow header', async () => {
    const { call } = await start();
    const cases: [string, string, string][] = [
      ['GET', '/jobs', 'POST'],
      ['POST', '/jobs/A', 'PUT, DELETE'],
      ['DELETE', '/jobs/A/stats', 'GET'],
      ['GET', '/job_applications/app_1/events', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await call(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.json).toEqual({ errors: { base: ['method_not_allowed'] } });
    }
  });

  it('answers a body that is not JSON with 400 invalid', async () => {
    const { call } = await start();
    const res = await call('POST', '/jobs', { raw: '{"reference": ', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ errors: { base: ['invalid'] } });
  });

  it('answers JSON that is not an object with 400 invalid', async () => {
    const { call } = await start();
    for (const raw of ['[1,2]', '"text"', '42', 'null']) {
      const res = await call('POST', '/jobs', { raw, headers: { 'Content-Type': 'application/json' } });
      expect(res.status, raw).toBe(400);
      expect(res.json).toEqual({ errors: { base: ['invalid'] } });
    }
  });

  it('answers a non-JSON content type with 415; accepts JSON with charset and a missing type', async () => {
    const { call } = await start();
    const raw = JSON.stringify(advert('A'));
    const wrong = await call('POST', '/jobs', { raw, headers: { 'Content-Type': 'text/plain' } });
    expect(wrong.status).toBe(415);
    expect(wrong.json).toEqual({ errors: { base: ['invalid'] } });
    const latin = await call('POST', '/jobs', { raw, headers: { 'Content-Type': 'application/json; charset=iso-8859-1' } });
    expect(latin.status).toBe(415);
    const charset = await call('POST', '/jobs', { raw, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(charset.status).toBe(201);
    // fetch labels a string body text/plain unless told otherwise; a Uint8Array goes without a type.
    const { baseUrl } = await start();
    const bare = await fetch(`${baseUrl}/jobs`, { method: 'POST', headers: { Authorization: 'sandbox' }, body: new TextEncoder().encode(raw) });
    expect(bare.status).toBe(201);
  });

  it('treats an empty create body as every required field missing (400)', async () => {
    const { call } = await start();
    const res = await call('POST', '/jobs');
    expect(res.status).toBe(400);
    expect((res.json as { errors: Record<string, unknown> }).errors.reference).toEqual(['missing']);
  });

  it('answers a body over 1 MiB with 413 and stays up', async () => {
    const { call } = await start();
    const big = JSON.stringify(advert('A', { job_description: 'x'.repeat(1024 * 1024) }));
    const res = await call('POST', '/jobs', { raw: big, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ errors: { base: ['too_long:1048576'] } });
    expect((await call('POST', '/jobs', { body: advert('A') })).status).toBe(201);
  });

  it('answers a chunked body (no Content-Length) that grows past 1 MiB with 413', async () => {
    const { baseUrl, call } = await start();
    const url = new URL(baseUrl);
    const result = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: '/jobs', method: 'POST', headers: { Authorization: 'sandbox', 'Content-Type': 'application/json' } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        },
      );
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 32) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(result).toEqual({ status: 413, body: '{"errors":{"base":["too_long:1048576"]}}' });
    expect((await call('POST', '/jobs', { body: advert('A') })).status).toBe(201);
  });

  it('answers a malformed percent-encoding in the path with 400 invalid', async () => {
    const { call } = await start();
    const res = await call('GET', '/jobs/%E0%A4%A/stats');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ errors: { base: ['invalid'] } });
  });

  it('turns an exception in a handler into 500 internal and keeps serving', async () => {
    const lines: string[] = [];
    // A clock that throws once: the handler fails in the middle of a request.
    let fail = true;
    const { call, sandbox } = await start({
      log: (l) => lines.push(l),
      now: () => {
        if (fail) {
          fail = false;
          throw new Error('clock broke');
        }
        return Date.now();
      },
    });
    const res = await call('POST', '/jobs', { body: advert('B') });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ errors: { base: ['internal'] } });
    expect(lines).toContain('internal error: clock broke');
    expect(sandbox.state().adverts).toHaveLength(0);
    expect((await call('POST', '/jobs', { body: advert('B') })).status).toBe(201);
  });

  it('stays up when the log sink throws', async () => {
    const { call } = await start({
      log: () => {
        throw new Error('stderr closed');
      },
    });
    expect((await call('POST', '/jobs', { body: advert('A') })).status).toBe(201);
    expect((await call('GET', '/jobs/A/stats')).status).toBe(200);
    const requests = (await call('GET', '/_sandbox/requests', { auth: null })).json as { status: number }[];
    expect(requests.map((r) => r.status)).toEqual([201, 200]);
  });

  it('logs one line per request without the token', async () => {
    const lines: string[] = [];
    const { call } = await start({ tokens: ['s3cret-token'], log: (l) => lines.push(l) });
    await call('POST', '/jobs', { body: advert('A'), auth: 'Bearer s3cret-token' });
    await call('GET', '/jobs/A/stats', { auth: 's3cret-token' });
    await call('GET', '/nope', { auth: 's3cret-token' });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^POST \/jobs 201 \d+ms$/);
    expect(lines[1]).toMatch(/^GET \/jobs\/A\/stats 200 \d+ms$/);
    expect(lines[2]).toMatch(/^GET \/nope 404 \d+ms$/);
    expect(lines.join('\n')).not.toContain('s3cret');
  });
});
