/** How each error status and each odd body reaches the user: kind, exit code, message, details, tree. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors/failures.js';
import { BASE, TOKEN, makeClient, rejection, useNock } from '../../support/http-client.js';

useNock();

const advert = { reference: 'ACME-042', title: 'x' };
/** No retries: these tests are about the final error, not the retry loop. */
const noRetry = () => makeClient({ retries: 0 });

describe('error statuses', () => {
  it('400 with the error resource: rejected, exit 1, the tree as sent', async () => {
    const scope = nock(BASE)
      .post('/jobs')
      .reply(400, { errors: { title: ['missing'], salary_id: ['missing'] } });
    const error = await rejection<ApiError>(noRetry().client.create(advert));
    scope.done();
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('rejected');
    expect(error.exitCode).toBe(1);
    expect(error.status).toBe(400);
    expect(error.message).toBe('POST /jobs: the service rejected the request (400)');
    expect(error.tree).toEqual({ title: ['missing'], salary_id: ['missing'] });
    expect(error.details).toEqual(['title: is missing (required) [missing]', 'salary_id: is missing (required) [missing]']);
  });

  it('422 with a nested tree and base: every message readable, unknown identifiers as they came', async () => {
    const errors = { base: ['quota_exceeded'], location: { city: ['blank'], state: ['weird_rule:3'] }, title: ['too_long:80'] };
    const scope = nock(BASE).put('/jobs/ACME-042').reply(422, { errors });
    const error = await rejection<ApiError>(noRetry().client.update('ACME-042', { title: 'x' }));
    scope.done();
    expect(error.message).toBe('PUT /jobs/ACME-042: the service rejected the request (422)');
    expect(error.tree).toEqual(errors);
    expect(error.details).toEqual([
      'base: too many API calls (rate quota exceeded) [quota_exceeded]',
      'location.city: must not be blank [blank]',
      'location.state: weird_rule:3',
      'title: is too long (maximum 80 characters) [too_long:80]',
    ]);
  });

  it('422 naming apply_email adds the hint that it must be enabled through support', async () => {
    const scope = nock(BASE)
      .post('/jobs')
      .reply(422, { errors: { apply_email: ['invalid'] } });
    const error = await rejection<ApiError>(noRetry().client.create(advert));
    scope.done();
    expect(error.details[0]).toBe('apply_email: is invalid [invalid]');
    expect(error.details[1]).toMatch(/apply_email .*must be enabled .*through the service's support/);
  });

  it('422 without apply_email has no such hint', async () => {
    nock(BASE)
      .post('/jobs')
      .reply(422, { errors: { title: ['invalid'] } });
    const error = await rejection<ApiError>(noRetry().client.create(advert));
    expect(error.details.join('\n')).not.toMatch(/apply_email/);
  });

  it('401: unauthorized, exit 4, with a hint about the token', async () => {
    const scope = nock(BASE)
      .get('/jobs/A/stats')
      .reply(401, { errors: { base: ['unauthorized'] } });
    const error = await rejection<ApiError>(noRetry().client.stats('A'));
    scope.done();
    expect(error.kind).toBe('unauthorized');
    expect(error.exitCode).toBe(4);
    expect(error.message).toBe('GET /jobs/A/stats: unauthorized (401): the service did not accept the token');
    expect(error.details.join('\n')).toMatch(/JOBS_TOKEN/);
  });

  it('404 on stats: not found, exit 5, worded for adverts', async () => {
    const scope = nock(BASE)
      .get('/jobs/X/stats')
      .reply(404, { errors: { base: ['not_found'] } });
    const error = await rejection<ApiError>(noRetry().client.stats('X'));
    scope.done();
    expect(error.kind).toBe('not_found');
    expect(error.exitCode).toBe(5);
    expect(error.message).toBe('GET /jobs/X/stats: not found (404): the advert does not exist or belongs to another client');
    expect(error.details).toEqual([]);
  });

  it('404 on an event: worded for job applications', async () => {
    nock(BASE)
      .post('/job_applications/9/events')
      .reply(404, { errors: { base: ['not_found'] } });
    const error = await rejection<ApiError>(noRetry().client.postEvent('9', { kind: 'recruiter_like' }));
    expect(error.message).toBe('POST /job_applications/9/events: not found (404): the job application does not exist or belongs to another client');
  });

  it('404 on delete and update: not found, exit 5', async () => {
    nock(BASE).delete('/jobs/gone').reply(404).put('/jobs/gone').reply(404);
    const { client } = noRetry();
    expect((await rejection<ApiError>(client.delete('gone'))).exitCode).toBe(5);
    expect((await rejection<ApiError>(client.update('gone', { title: 'x' }))).exitCode).toBe(5);
  });

  it('another 4xx (409) is a rejection, exit 1', async () => {
    nock(BASE)
      .post('/jobs')
      .reply(409, { errors: { reference: ['taken'] } });
    const error = await rejection<ApiError>(noRetry().client.create(advert));
    expect(error.kind).toBe('rejected');
    expect(error.exitCode).toBe(1);
    expect(error.tree).toEqual({ reference: ['taken'] });
  });

  it.each([
    [429, 'quota', 6, 'GET /jobs/A/stats: rate quota exceeded (429)'],
    [500, 'server', 7, 'GET /jobs/A/stats: service error (500)'],
    [502, 'server', 7, 'GET /jobs/A/stats: service error (502)'],
    [503, 'server', 7, 'GET /jobs/A/stats: service error (503)'],
    [504, 'server', 7, 'GET /jobs/A/stats: service error (504)'],
  ])('%i without retries left: %s, exit %i', async (status, kind, exitCode, message) => {
    nock(BASE).get('/jobs/A/stats').reply(status, '');
    const error = await rejection<ApiError>(noRetry().client.stats('A'));
    expect([error.kind, error.exitCode, error.status, error.message]).toEqual([kind, exitCode, status, message]);
  });

  it('a redirect is reported, not followed (it would re-send the request elsewhere)', async () => {
    const scope = nock(BASE).post('/jobs').reply(301, '', { location: 'https://elsewhere.test/jobs' });
    const error = await rejection<ApiError>(noRetry().client.create(advert));
    scope.done();
    expect(error.kind).toBe('bad_response');
    expect(error.message).toBe('POST /jobs: unexpected redirect (301) to https://elsewhere.test/jobs: check the service URL');
  });
});

describe('odd error bodies still give a readable error', () => {
  it('an HTML page from a proxy: status and the page text, no markup', async () => {
    const html =
      '<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    nock(BASE).get('/jobs/A/stats').reply(502, html, { 'content-type': 'text/html; charset=utf-8' });
    const error = await rejection<ApiError>(noRetry().client.stats('A'));
    expect(error.message).toBe('GET /jobs/A/stats: service error (502)');
    expect(error.tree).toBeUndefined();
    expect(error.details).toEqual(['the service said (text/html): 502 Bad Gateway 502 Bad Gateway nginx']);
  });

  it('an empty body', async () => {
    nock(BASE).post('/jobs').reply(422, '');
    const error = await rejection<ApiError>(noRetry().client.create(advert));
    expect(error.message).toBe('POST /jobs: the service rejected the request (422)');
    expect(error.details).toEqual(['the response body was empty']);
  });

  it('truncated JSON', async () => {
    nock(BASE).post('/jobs').reply(422, '{"errors": {"title": ["too_lo', { 'content-type': 'application/json' });
    const error = await rejection<ApiError>(noRetry().client.create(advert));
    expect(error.tree).toBeUndefined();
    expect(error.details).toEqual(['the service said (application/json): {"errors": {"title": ["too_lo']);
  });

  it.each([
    ['errors is a string', { errors: 'title is bad' }],
    ['messages are not strings', { errors: { title: [1, 2] } }],
    ['no errors key', { error: 'bad' }],
    ['an array', [{ errors: {} }]],
  ])('JSON with the wrong shape (%s): no tree, the body as an excerpt', async (_name, body) => {
    nock(BASE).post('/jobs').reply(400, body);
    const error = await rejection<ApiError>(noRetry().client.create(advert));
    expect(error.kind).toBe('rejected');
    expect(error.tree).toBeUndefined();
    expect(error.details).toEqual([`the service said (application/json): ${JSON.stringify(body)}`]);
  });

  it('a huge body: read up to a cap, shown as a short excerpt', async () => {
    const huge = 'A'.repeat(3 * 1024 * 1024);
    nock(BASE).get('/jobs/A/stats').reply(500, huge);
    const error = await rejection<ApiError>(noRetry().client.stats('A'));
    expect(error.details).toHaveLength(1);
    expect(error.details[0]).toBe(`the service said, cut off: ${'A'.repeat(200)}…`);
  });

  it('escape sequences and control characters from the service are stripped from messages, details and tree', async () => {
    const evil = '\u001b]0;pwned\u0007\u001b[2J\u001b[31mtitle\u001b[0m\r\u0008';
    nock(BASE)
      .post('/jobs')
      .reply(422, { errors: { [evil]: [`invalid${evil}`] } });
    // (Header values cannot carry control characters: fetch's Headers refuses them.)
    nock(BASE).post('/jobs').reply(418, `I'm a teapot ${evil}`, { 'content-type': 'text/plain' });
    const { client } = noRetry();
    const errors = [await rejection<ApiError>(client.create(advert)), await rejection<ApiError>(client.create(advert))];
    for (const error of errors) {
      const shown = [error.message, ...error.details, JSON.stringify(error.tree ?? {})].join('\n');
      expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    expect(errors[0]!.tree).toEqual({ title: ['invalidtitle'] });
    expect(errors[1]!.details).toEqual(["the service said (text/plain): I'm a teapot title"]);
  });

  it('a token echoed back by the service never reaches the error', async () => {
    nock(BASE).get('/jobs/A/stats').reply(401, `invalid credentials: Bearer ${TOKEN}`);
    nock(BASE)
      .post('/jobs')
      .reply(422, { errors: { [TOKEN]: [`bad_${TOKEN}`] } });
    const { client } = noRetry();
    const e1 = await rejection<ApiError>(client.stats('A'));
    const e2 = await rejection<ApiError>(client.create(advert));
    for (const e of [e1, e2]) expect([e.message, ...e.details, JSON.stringify(e.tree ?? {})].join('\n')).not.toContain(TOKEN);
    expect(e1.details[0]).toBe('the service said: invalid credentials: Bearer ***');
  });
});

describe('stats response checks', () => {
  const good = { views: 1, likes: 2, applications: 3, applications_unviewed: 0 };

  it.each([
    ['a string count', { ...good, views: '12' }, 'views is not a non-negative integer (got "12")'],
    ['a negative count', { ...good, likes: -1 }, 'likes is not a non-negative integer (got -1)'],
    ['a fraction', { ...good, applications: 1.5 }, 'applications is not a non-negative integer (got 1.5)'],
    ['null', { ...good, applications_unviewed: null }, 'applications_unviewed is not a non-negative integer (got null)'],
    ['a missing field', { views: 1, likes: 2, applications: 3 }, 'applications_unviewed is missing'],
  ])('%s: bad_response, exit 1', async (_name, body, problem) => {
    nock(BASE).get('/jobs/A/stats').reply(200, body);
    const error = await rejection<ApiError>(noRetry().client.stats('A'));
    expect(error.kind).toBe('bad_response');
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(`GET /jobs/A/stats: unexpected response (200): ${problem}`);
  });

  it.each([
    ['not JSON', '<html>hi</html>', 'the statistics are not valid JSON'],
    ['empty', '', 'the statistics are not valid JSON'],
    ['an array', '[1,2,3,4]', 'the statistics are not a JSON object'],
  ])('a body that is %s: bad_response', async (_name, body, problem) => {
    nock(BASE).get('/jobs/A/stats').reply(200, body);
    const error = await rejection<ApiError>(noRetry().client.stats('A'));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toBe(`GET /jobs/A/stats: unexpected response (200): ${problem}`);
  });
});
