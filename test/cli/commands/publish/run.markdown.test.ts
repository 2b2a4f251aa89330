/** publish of a Markdown advert (nock): the exact request body, and the service's errors at the .md lines. */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertBody, runJobs, SERVICE, serviceEnv, tempFolder } from '../../../commands/harness.js';
import { markdownAdvert } from '../../../support/markdown-adverts.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('jobs publish of a Markdown advert', () => {
  it('sends the front matter fields and the body as job_description, byte for byte', async () => {
    const dir = tempFolder({ 'a.md': markdownAdvert('MD-1', '\n# Über uns\r\n\r\n\tTabs, "quotes": colons.  \r\n\r\n') });
    let sent = '';
    const scope = nock(SERVICE)
      .post('/jobs', (body) => {
        sent = JSON.stringify(body);
        return true;
      })
      .reply(201);
    const r = await runJobs(['publish', 'a.md'], { cwd: dir, env: serviceEnv });
    scope.done();
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(sent)).toEqual({ ...advertBody('MD-1'), job_description: '# Über uns\n\n\tTabs, "quotes": colons.  \n' });
    expect(r.stdout).toBe('✔ created MD-1 a.md:2\n');
  });

  it("points the service's errors at the front matter's lines and at the body's first line", async () => {
    const dir = tempFolder({ 'a.md': markdownAdvert('MD-1', '\n\nThe job.\n') });
    nock(SERVICE)
      .post('/jobs')
      .reply(422, { errors: { title: ['too_long:5'], job_description: ['too_long:3'] } });
    const r = await runJobs(['publish', 'a.md'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '✖ failed MD-1 a.md:2: POST /jobs: the service rejected the request (422)',
        '    a.md:3:8: title: is too long (maximum 5 characters) [too_long:5]',
        '    a.md:21:1: job_description: is too long (maximum 3 characters) [too_long:3]',
        '',
      ].join('\n'),
    );
  });
});
