/**
 * A place removed from an advert's `locations:` list is deleted by `sync --prune` under the prune's
 * confirmation rules, and only that place: at a terminal it asks (no: exit 9, nothing sent).
 */
import nock from 'nock';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../../../../src/cli/program.js';
import { SERVICE, tempFolder } from '../../../commands/harness.js';
import { tempDir } from '../../../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const env = { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' };

const places = (cities: string[]) =>
  `reference: ACME-0042\ntitle: T\norganization_name: O\ncompany_description: C\njob_description: J\ncontract_id: 1\nsalary_id: 1\nsalary_text: S\nindustry_id: 1\ndepartment_id: 1\nseniority: 0\neducation: 0\nlocations:\n${cities.map((c) => `  - country: DE\n    city: ${c}\n`).join('')}recruiter:\n  email: r@example.com\n`;

/** Runs the CLI in-process on a terminal, typing each answer once a `[y/N] ` prompt is up. */
async function onTerminal(argv: string[], answers: string[]) {
  const home = tempDir('jobs-places-');
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let stdout = '';
  let stderr = '';
  const pending = [...answers];
  const stderrStream = {
    isTTY: true,
    write(s: string) {
      stderr += s;
      if (s.endsWith('] ') && pending.length > 0) setTimeout(() => stdin.write(pending.shift()!), 10);
      return true;
    },
  };
  const code = await execute(argv, {
    io: { stdin, stdout: { write: (s: string) => ((stdout += s), true), isTTY: false }, stderr: stderrStream },
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), NO_COLOR: '1', ...env },
    cwd: home,
    handleSignals: false,
  });
  return { code, stdout, stderr };
}

describe('sync --prune of a place removed from its list', () => {
  async function syncedThenRemoved(): Promise<string> {
    const dir = tempFolder({ 'eng.yaml': places(['Berlin', 'Hamburg', 'Munich']) });
    const scope = nock(SERVICE).post('/jobs').times(3).reply(201);
    const first = await onTerminal(['sync', dir], []);
    expect(first.code, first.stderr).toBe(0);
    scope.done();
    writeFileSync(join(dir, 'eng.yaml'), places(['Munich', 'Berlin']));
    return dir;
  }

  it('asks first; no sends nothing (exit 9) and keeps the place in the state', async () => {
    const dir = await syncedThenRemoved();
    const r = await onTerminal(['sync', dir, '--prune'], ['n\r']);
    expect(r.stdout).toBe('- ACME-0042-hamburg  eng.yaml  (place of ACME-0042, gone from its locations)\n');
    expect(r.stderr).toContain('Delete 1 advert from the service (marked - above)? This cannot be undone. [y/N] ');
    expect(r.code, r.stderr).toBe(9);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8')).services[SERVICE].adverts)).toEqual([
      'ACME-0042-berlin',
      'ACME-0042-hamburg',
      'ACME-0042-munich',
    ]);
  });

  it('on yes deletes that place only', async () => {
    const dir = await syncedThenRemoved();
    // Any other request would find no interceptor (the network is refused) and fail the run.
    const scope = nock(SERVICE).delete('/jobs/ACME-0042-hamburg').reply(200);
    const r = await onTerminal(['sync', dir, '--prune'], ['y\r']);
    scope.done();
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8')).services[SERVICE].adverts)).toEqual(['ACME-0042-berlin', 'ACME-0042-munich']);
  });
});
