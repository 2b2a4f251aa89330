/**
 * syncFolder is the core of `jobs sync`: it draws nothing, and reports through its hooks in the
 * order a terminal needs them (plan, sending, each result, sent, outcome). (That the core imports
 * nothing of the CLI is checked for every core file by test/architecture/layers.test.ts.)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
// Through the package's entry: the public face is the core function itself.
import { syncFolder, type SyncHooks } from '../../../src/core/sync/sync-folder.js';
import { advertBody, advertYaml, SERVICE, tempFolder } from '../../commands/harness.js';
import { filesBeforeStop } from '../../support/stopped.js';
import { tempDir } from '../../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const isolated = () => {
  const home = tempDir('jobs-sync-core-');
  return { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
};

describe('syncFolder (core)', () => {
  it('reports plan, sending, results and outcome through hooks, in that order', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    nock(SERVICE).post('/jobs', advertBody('A-1')).reply(201).post('/jobs', advertBody('B-2')).reply(201);
    const seen: string[] = [];
    const result = await syncFolder({ dir, baseUrl: SERVICE, token: 't', env: isolated(), concurrency: 1 }, {
      onPlan: (plan, info) => seen.push(`plan ${plan.changes.map((c) => `${c.action} ${c.reference}`).join(', ')} dry=${info.dryRun}`),
      onSend: (total) => void seen.push(`send ${total}`),
      onResult: (r) => seen.push(`${r.status} ${r.change.reference}`),
      onSent: () => seen.push('sent'),
      onOutcome: (_plan, outcome) => seen.push(`outcome ${outcome.results.length}`),
    } satisfies SyncHooks);
    expect(seen).toEqual(['plan create A-1, create B-2 dry=false', 'send 2', 'created A-1', 'created B-2', 'sent', 'outcome 2']);
    expect(result).toMatchObject({ exitCode: 0, counts: { created: 2, unchanged: 0, orphan: 0, not_started: 0 } });
  });

  it('a dry run plans through onPlan and sends nothing', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    let planned = 0;
    const result = await syncFolder(
      { dir, baseUrl: SERVICE, env: isolated(), dryRun: true },
      { onPlan: (plan) => (planned = plan.counts.create), onSend: () => expect.fail('nothing is sent') },
    );
    expect(planned).toBe(1);
    expect(result.plan).toEqual([{ action: 'create', reference: 'A-1', file: 'a.yaml' }]);
  });

  it('stopped (Ctrl-C) while the folder is checked: a CancelledError, nothing planned or sent, no state', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`ad-${String(i).padStart(3, '0')}.yaml`] = advertYaml(`R-${i}`);
    const dir = tempFolder(files);
    const controller = new AbortController();
    // Ctrl-C as soon as the event loop turns: the check must let it turn as it goes, not only at its end.
    setImmediate(() => controller.abort());
    const run = syncFolder(
      { dir, baseUrl: SERVICE, token: 't', env: isolated(), signal: controller.signal },
      { onPlan: () => expect.fail('nothing is planned'), onSend: () => expect.fail('nothing is sent') },
    );
    // No request may go out: nock refuses any, as no interceptor is set.
    expect(await filesBeforeStop(run, /^stopped after checking (\d+) files?; the rest were not checked; nothing was sent$/)).toBeLessThan(600);
    expect(existsSync(join(dir, '.jobs-state'))).toBe(false);
  });
});
