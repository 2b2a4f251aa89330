/** `jobs update <ref> file` and `jobs publish` of a dated advert: the tool's own jobs: block is never on the wire. */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertBody, advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('a dated advert on the wire', () => {
  it('update sends the fields without the jobs: block', async () => {
    const dir = tempFolder({ 'a.yaml': 'title: Senior Engineer\njobs:\n  closes: 2026-12-31\n' });
    let sent = '';
    nock(SERVICE)
      .put('/jobs/A-1', (body) => ((sent = JSON.stringify(body)), true))
      .reply(200);
    const r = await runJobs(['update', 'A-1', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toBe('{"title":"Senior Engineer"}');
  });

  it('publish sends the advert byte for byte as without the block', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1', 'jobs:\n  opens: 2026-12-01\n') });
    let sent = '';
    nock(SERVICE)
      .post('/jobs', (body) => ((sent = JSON.stringify(body)), true))
      .reply(201);
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toBe(JSON.stringify(advertBody('A-1')));
  });
});
