/** sync --prune without a terminal and without --yes: a document format draws no plan, so the refusal names the deletions. */
import nock from 'nock';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, SERVICE, tempFolder } from '../../../commands/harness.js';

afterEach(() => nock.cleanAll());

describe('sync --prune refused without --yes', () => {
  it.each(['junit', 'codequality', 'sarif'])('under --output %s, names the adverts it would delete; nothing is sent', async (format) => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const env = { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' };
    const scope = nock(SERVICE).post('/jobs').times(2).reply(201);
    expect((await runJobs(['sync', '.'], { cwd: dir, env })).code).toBe(0);
    scope.done();
    rmSync(join(dir, 'b.yaml'));
    const r = await runJobs(['-o', format, 'sync', '.', '--prune'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('jobs: refusing to delete 1 advert without confirmation; nothing was sent\n  - B-2  (b.yaml)\n');
    expect(nock.pendingMocks()).toEqual([]);
  });
});
