/** What goes over the wire for each endpoint: method, URL, headers and exact body. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors/failures.js';
import { VERSION } from '../../../src/core/version.js';
import { BASE, TOKEN, makeClient, rejection, useNock } from '../../support/http-client.js';

useNock();

const advert = {
  reference: 'ACME-042',
  title: 'Backend engineer',
  organization_name: 'ACME',
  location: { country: 'FR', city: 'Lyon' },
  skills: ['TypeScript'],
};

const userAgent = `jobs/${VERSION} node/${process.version}`;

describe('create', () => {
  it('POSTs the advert as JSON with auth, content type, accept and user agent headers', async () => {
    const scope = nock(BASE, {
      reqheaders: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': userAgent,
      },
    })
      .post('/jobs', (body) => JSON.stringify(body) === JSON.stringify(advert))
      .reply(201);
    await expect(makeClient().client.create(advert)).resolves.toBeUndefined();
    scope.done();
  });

  it('ignores a body on success', async () => {
    const scope = nock(BASE).post('/jobs').reply(201, 'Created!', { 'content-type': 'text/plain' });
    await makeClient().client.create(advert);
    scope.done();
  });
});

describe('update', () => {
  it('PUTs the patch to /jobs/:reference and never sends the reference', async () => {
    const patch = { reference: 'ACME-042', title: 'Senior backend engineer', recruiter: { phone: '+33 1 23' } };
    let sent: unknown;
    const scope = nock(BASE, { reqheaders: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } })
      .put('/jobs/ACME-042', (body) => {
        sent = body;
        return true;
      })
      .reply(200);
    await makeClient().client.update('ACME-042', patch);
    scope.done();
    expect(sent).toEqual({ title: 'Senior backend engineer', recruiter: { phone: '+33 1 23' } });
    // The caller's object is left alone.
    expect(patch.reference).toBe('ACME-042');
  });
});

describe('delete', () => {
  it('sends DELETE without a body or content type', async () => {
    const scope = nock(BASE, { badheaders: ['content-type'], reqheaders: { accept: 'application/json', authorization: `Bearer ${TOKEN}` } })
      .delete('/jobs/ACME-042', (body) => body === '' || body === undefined)
      .reply(200);
    await makeClient().client.delete('ACME-042');
    scope.done();
  });
});

describe('stats', () => {
  it('GETs /jobs/:reference/stats and returns the four counters only', async () => {
    const scope = nock(BASE, { badheaders: ['content-type'] })
      .get('/jobs/ACME-042/stats')
      .reply(200, { views: 120, likes: 7, applications: 3, applications_unviewed: 1, extra: 'ignored' });
    await expect(makeClient().client.stats('ACME-042')).resolves.toEqual({ views: 120, likes: 7, applications: 3, applications_unviewed: 1 });
    scope.done();
  });
});

describe('postEvent', () => {
  it('POSTs {kind} alone when there is no data', async () => {
    const scope = nock(BASE, { reqheaders: { 'content-type': 'application/json' } })
      .post('/job_applications/app-77/events', (body) => JSON.stringify(body) === '{"kind":"recruiter_view"}')
      .reply(200);
    await makeClient().client.postEvent('app-77', { kind: 'recruiter_view' });
    scope.done();
  });

  it('POSTs {kind, data} when data is given', async () => {
    const scope = nock(BASE)
      .post('/job_applications/app-77/events', (body) => JSON.stringify(body) === '{"kind":"recruiter_reject","data":{"reason":"position filled"}}')
      .reply(200);
    await makeClient().client.postEvent('app-77', { kind: 'recruiter_reject', data: { reason: 'position filled' } });
    scope.done();
  });
});

describe('authorization header', () => {
  it('uses the configured scheme', async () => {
    const scope = nock(BASE, { reqheaders: { authorization: `Token ${TOKEN}` } })
      .delete('/jobs/A')
      .reply(200);
    await makeClient({ authScheme: 'Token' }).client.delete('A');
    scope.done();
  });

  it("sends the bare token when the scheme is ''", async () => {
    const scope = nock(BASE, { reqheaders: { authorization: TOKEN } })
      .delete('/jobs/A')
      .reply(200);
    await makeClient({ authScheme: '' }).client.delete('A');
    scope.done();
  });

  it('sends no Authorization header without a token', async () => {
    const scope = nock(BASE, { badheaders: ['authorization'] })
      .delete('/jobs/A')
      .reply(200);
    await makeClient({ token: undefined }).client.delete('A');
    scope.done();
  });

  it('sends a custom user agent when given', async () => {
    const scope = nock(BASE, { reqheaders: { 'user-agent': 'acme-ats/2.0' } })
      .delete('/jobs/A')
      .reply(200);
    await makeClient({ userAgent: 'acme-ats/2.0' }).client.delete('A');
    scope.done();
  });
});

describe('URL building', () => {
  /** Matches the raw request path exactly, as it went over the wire. */
  const exactly = (expected: string) => (uri: string) => uri === expected;

  it.each([
    ['ACME/2024 #1', '/jobs/ACME%2F2024%20%231'],
    ['a?b=c&d', '/jobs/a%3Fb%3Dc%26d'],
    ['100%', '/jobs/100%25'],
    ["it's (*)!", '/jobs/it%27s%20%28%2A%29%21'],
    ['.x', '/jobs/.x'],
    ['...', '/jobs/...'],
    ['v1.2', '/jobs/v1.2'],
    ['café', '/jobs/caf%C3%A9'],
  ])('encodes the reference %j as one segment: %s', async (reference, path) => {
    const scope = nock(BASE).put(exactly(path)).reply(200);
    await makeClient().client.update(reference, { title: 'x' });
    scope.done();
  });

  it('encodes the reference inside the stats path and the application id in the events path', async () => {
    const scope = nock(BASE)
      .get(exactly('/jobs/..%2F..%2Fadmin/stats'))
      .reply(200, { views: 0, likes: 0, applications: 0, applications_unviewed: 0 })
      .post(exactly('/job_applications/a%2Fb/events'))
      .reply(200);
    const { client } = makeClient();
    await client.stats('../../admin');
    await client.postEvent('a/b', { kind: 'recruiter_like' });
    scope.done();
  });

  it.each(['https://jobs.test/api/v1', 'https://jobs.test/api/v1/', 'https://jobs.test/api/v1//'])('keeps the base path of %s', async (baseUrl) => {
    const scope = nock('https://jobs.test').post(exactly('/api/v1/jobs')).reply(201).delete(exactly('/api/v1/jobs/X')).reply(200);
    const { client } = makeClient({ baseUrl });
    await client.create(advert);
    await client.delete('X');
    scope.done();
  });

  it('joins a base URL without a path, with or without trailing slash', async () => {
    const scope = nock('https://jobs.test').post(exactly('/jobs')).twice().reply(201);
    await makeClient({ baseUrl: 'https://jobs.test' }).client.create(advert);
    await makeClient({ baseUrl: 'https://jobs.test/' }).client.create(advert);
    scope.done();
  });

  it('refuses an empty reference or application id before sending anything', async () => {
    const { client } = makeClient();
    const error = await rejection(client.delete(''));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('the reference must not be empty');
    expect((await rejection(client.postEvent('', { kind: 'recruiter_like' }))).message).toBe('the application id must not be empty');
  });

  // fetch's URL parser removes `.`/`..` segments even when written %2E/%2E%2E: `/jobs/%2E%2E/stats`
  // would reach `/stats`. Such references are refused before anything is sent (nock would fail
  // the test on any request: no interceptor is declared).
  it.each(['.', '..'])('refuses the reference %j, which would address another resource', async (reference) => {
    const { client } = makeClient();
    for (const call of [
      client.stats(reference),
      client.delete(reference),
      client.update(reference, { title: 'x' }),
      client.postEvent(reference, { kind: 'recruiter_like' }),
    ]) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toMatch(/cannot be used in a URL/);
    }
  });
});
