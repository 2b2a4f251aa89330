/** The token stays secret: no plain http to other hosts, never in traces or errors. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { JobsClient } from '../../../src/core/api/client.js';
import { ApiError, ConfigError } from '../../../src/core/errors/failures.js';
import { BASE, TOKEN, makeClient, rejection, useNock } from '../../support/http-client.js';

useNock();

function construct(baseUrl: string, extra: Partial<ConstructorParameters<typeof JobsClient>[0]> = {}): unknown {
  try {
    return new JobsClient({ baseUrl, token: TOKEN, ...extra });
  } catch (error) {
    return error;
  }
}

describe('plain http', () => {
  it('is refused to a host that is not loopback while a token is set: ConfigError, exit 2', () => {
    const error = construct('http://jobs.example.com/api');
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).message).toMatch(/^refusing to send the token over plain http:\/\/ to jobs\.example\.com: .*use an https:\/\/ service URL/);
    expect((error as ConfigError).message).not.toContain(TOKEN);
  });

  it.each(['http://127.0.0.1:8080', 'http://127.9.9.9', 'http://localhost:3000/api', 'http://[::1]:8080'])('is allowed to loopback %s', (url) => {
    expect(construct(url)).toBeInstanceOf(JobsClient);
  });

  it('is allowed with allowInsecureHttp, or without a token', () => {
    expect(construct('http://jobs.example.com', { allowInsecureHttp: true })).toBeInstanceOf(JobsClient);
    expect(construct('http://jobs.example.com', { token: undefined })).toBeInstanceOf(JobsClient);
  });

  it('a token sent over allowed http goes out as asked', async () => {
    const scope = nock('http://jobs.example.com', { reqheaders: { authorization: `Bearer ${TOKEN}` } })
      .delete('/jobs/A')
      .reply(200);
    await new JobsClient({ baseUrl: 'http://jobs.example.com', token: TOKEN, allowInsecureHttp: true }).delete('A');
    scope.done();
  });
});

/** `{ x: { x: ... value } }`, `levels` objects deep. */
function nested(levels: number, value: unknown): unknown {
  let out = value;
  for (let i = 0; i < levels; i++) out = { x: out };
  return out;
}

describe('the token in a request body', () => {
  const bodies: Array<[string, (client: JobsClient) => Promise<unknown>, string]> = [
    ['an advert field', (c) => c.create({ reference: 'A-1', question: `Paste ${TOKEN} here` }), 'POST /jobs'],
    ['a nested list item', (c) => c.create({ reference: 'A-1', skills: ['Node', TOKEN] }), 'POST /jobs'],
    ['a key', (c) => c.create({ reference: 'A-1', location: { [TOKEN]: 'x' } }), 'POST /jobs'],
    ['an update', (c) => c.update('A-1', { title: TOKEN }), 'PUT /jobs/A-1'],
    ["an event's data", (c) => c.postEvent('77', { kind: 'recruiter_reject', data: { reason: TOKEN } }), 'POST /job_applications/77/events'],
    [
      "an event's list of objects",
      (c) => c.postEvent('77', { kind: 'recruiter_reject', data: { notes: [{ a: 1 }, { b: [null, `x${TOKEN}`] }] } }),
      'POST /job_applications/77/events',
    ],
    ['a value nested 70 levels deep', (c) => c.create({ reference: 'A-1', deep: nested(70, TOKEN) }), 'POST /jobs'],
    ['what a toJSON gives', (c) => c.create({ reference: 'A-1', when: { toJSON: () => TOKEN } }), 'POST /jobs'],
  ];

  it.each(bodies)('in %s is refused before anything is sent: ConfigError, exit 2, no secret in the message', async (_what, call, request) => {
    // Would answer any request that carries a body: it must stay unused.
    const sent: string[] = [];
    const scope = nock(BASE).persist().post(/.*/).reply(201).put(/.*/).reply(200);
    scope.on('request', (_req: unknown, _interceptor: unknown, body: string) => sent.push(body));
    const { client, trace } = makeClient();
    const error = await rejection<ConfigError>(call(client));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(`refusing to send ${request}: the request body contains the service token`);
    expect([error.message, ...error.details, ...trace].join('\n')).not.toContain(TOKEN);
    expect(sent).toEqual([]);
    expect(scope.isDone()).toBe(false);
    expect(trace).toEqual([]);
  });

  it("a short token (the sandbox's) is refused only as a whole value, not as a word of the text", async () => {
    const scope = nock(BASE).post('/jobs', { reference: 'A-1', title: 'Sandbox tester' }).reply(201);
    await makeClient({ token: 'tester' }).client.create({ reference: 'A-1', title: 'Sandbox tester' });
    scope.done();
    const error = await rejection<ConfigError>(makeClient({ token: 'tester' }).client.create({ reference: 'A-1', title: 'tester' }));
    expect(error.message).toBe('refusing to send POST /jobs: the request body contains the service token');
  });
});

describe('base URL checks', () => {
  it.each([
    ['not-a-url', /^invalid service URL "not-a-url": expected an absolute URL/],
    ['ftp://jobs.test', /scheme must be https:\/\/ or http:\/\//],
    ['https://jobs.test/api?key=1', /must not have a query/],
  ])('refuses %s', (url, message) => {
    const error = construct(url);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses credentials in the URL without echoing them', () => {
    const error = construct('https://user:hunter2secret@jobs.test/');
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('hunter2secret');
  });

  it('refuses a token that cannot be a header value without showing it', () => {
    const error = construct(BASE, { token: 'abc\ndef-secret' });
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('def-secret');
  });

  it('trims the token (a token file usually ends with a newline)', async () => {
    const scope = nock(BASE, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
      .delete('/jobs/A')
      .reply(200);
    await new JobsClient({ baseUrl: BASE, token: `${TOKEN}\n` }).delete('A');
    scope.done();
  });
});

describe('verbose trace', () => {
  it('shows request, redacted authorization, response and retry decisions; never the token', async () => {
    const scope = nock(BASE)
      .put('/jobs/X')
      .reply(429, '', { 'Retry-After': '1' })
      .put('/jobs/X')
      .reply(422, { errors: { title: [TOKEN] } });
    const { client, trace } = makeClient();
    await rejection(client.update('X', { title: 'Engineer' }));
    scope.done();
    expect(trace).toEqual([
      '> PUT https://jobs.test/jobs/X',
      '> authorization: Bearer ***',
      '< 429 in 0ms',
      'retrying in 1.0s (429, attempt 2/6)',
      '> PUT https://jobs.test/jobs/X',
      '> authorization: Bearer ***',
      '< 422 in 0ms',
    ]);
  });

  it('redacts a bare token too', async () => {
    const scope = nock(BASE).delete('/jobs/A').reply(200);
    const { client, trace } = makeClient({ authScheme: '' });
    await client.delete('A');
    scope.done();
    expect(trace).toContain('> authorization: ***');
    expect(trace.join('\n')).not.toContain(TOKEN);
  });

  it('redacts a token that appears in the URL (a reference equal to the token)', async () => {
    const scope = nock(BASE).delete(`/jobs/${TOKEN}`).reply(404);
    const { client, trace } = makeClient({ retries: 0 });
    const error = await rejection<ApiError>(client.delete(TOKEN));
    scope.done();
    expect(trace.join('\n')).not.toContain(TOKEN);
    expect([error.message, ...error.details].join('\n')).toContain('***');
  });

  it('network errors carry no token', async () => {
    const scope = nock(BASE)
      .get('/jobs/A/stats')
      .replyWithError(Object.assign(new Error(`connect ECONNREFUSED ${TOKEN}`), { code: 'ECONNREFUSED' }));
    const { client, trace } = makeClient({ retries: 0 });
    const error = await rejection<ApiError>(client.stats('A'));
    scope.done();
    expect([error.message, ...error.details, ...trace].join('\n')).not.toContain(TOKEN);
  });
});
