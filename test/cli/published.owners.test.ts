/** At a terminal, publish asks before replacing an advert another file published with another title (confirmOwners). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../../src/cli/program.js';
import { writePublished } from '../../src/core/published/record.js';
import { advertBody, advertYaml, SERVICE, serviceEnv, tempFolder } from '../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
const made: string[] = [];
afterEach(() => {
  nock.cleanAll();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with sales.yaml holding A-1, which the record says backend.yaml published as "Backend Engineer". */
async function copied(): Promise<{ dir: string; env: Record<string, string> }> {
  const home = mkdtempSync(join(tmpdir(), 'jobs-owners-'));
  const dir = tempFolder({ 'sales.yaml': advertYaml('A-1').replace('title: Engineer', 'title: Sales Manager') });
  made.push(home, dir);
  const env = { ...serviceEnv, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1' };
  await writePublished(env, SERVICE, [{ reference: 'A-1', title: 'Backend Engineer', file: join(dir, 'backend.yaml') }]);
  return { dir, env };
}

/** Runs the CLI in-process on a terminal, typing `answer` once the `[y/N] ` prompt is up. */
async function onTerminal(argv: string[], answer: string, cwd: string, env: Record<string, string>) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let stdout = '';
  let stderr = '';
  const stderrStream = {
    isTTY: true,
    write(s: string) {
      stderr += s;
      if (s.endsWith('] ')) setTimeout(() => stdin.write(answer), 10);
      return true;
    },
  };
  const code = await execute(argv, {
    io: { stdin, stdout: { write: (s: string) => ((stdout += s), true), isTTY: false }, stderr: stderrStream },
    env,
    cwd,
    handleSignals: false,
  });
  return { code, stdout, stderr };
}

describe('publish at a terminal, of an advert another file published', () => {
  it('names it and asks; no sends nothing (exit 9)', async () => {
    const { dir, env } = await copied();
    const r = await onTerminal(['publish', 'sales.yaml'], 'n\r', dir, env);
    expect(r.stderr).toContain(
      'jobs: warning: sales.yaml would replace A-1 on the service: it was last published from backend.yaml as "Backend Engineer", and this advert is "Sales Manager"\n',
    );
    expect(r.stderr).toContain('Replace 1 advert published from another file? The adverts on the service are overwritten. [y/N] ');
    expect(r.stderr).toContain('nothing was sent: give the new advert a reference of its own, or pass --yes to replace it (publish --yes)');
    expect(r.code).toBe(9);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('yes sends it (POST, then PUT as the reference is taken)', async () => {
    const { dir, env } = await copied();
    const scope = nock(SERVICE)
      .post('/jobs', { ...advertBody('A-1'), title: 'Sales Manager' })
      .reply(422, { errors: { reference: ['taken'] } })
      .put('/jobs/A-1')
      .reply(200);
    const r = await onTerminal(['publish', 'sales.yaml'], 'y\r', dir, env);
    expect(r.code, r.stderr).toBe(0);
    scope.done();
  });
});
