/**
 * File names are external text: an escape sequence or a newline in one must not reach the
 * terminal. And inputs of 150,000 lines or adverts are read without overflowing the stack.
 */
import nock from 'nock';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAdverts } from '../../../src/core/adverts/load-with-defaults.js';
import { advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';
import { tempDir } from '../../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

// Retitles the window (OSC 0), then starts a fake line that erases itself (CSI 2K).
const HOSTILE = '\u001b]0;owned\u0007evil\n\u001b[2Kfake.yaml';
const SHOWN = 'evil fake.yaml';

function hostileFolder(text: string): string {
  const dir = tempDir('jobs-names-');
  writeFileSync(join(dir, HOSTILE), text);
  return dir;
}

const clean = (s: string) => expect(s).not.toMatch(/[\u001b\u0007]/);

describe('file names on the terminal', () => {
  it('validate shows a hostile file name as data, in every human format', async () => {
    const dir = hostileFolder('title: x\n');
    const human = await runJobs(['validate', '.'], { cwd: dir });
    expect(human.code).toBe(3);
    clean(human.stdout);
    expect(human.stdout.split('\n')[0]).toBe(`✖ ${SHOWN}:1:1: reference: is missing (required) [missing]`);
    const github = await runJobs(['validate', '.', '--output', 'github'], { cwd: dir });
    clean(github.stdout);
    // The line break is escaped as GitHub's workflow commands expect (%0A), not turned into a space.
    expect(github.stdout.split('\n')[0]).toMatch(/^::error file=evil%0Afake\.yaml,line=1,col=1,/);
  });

  it('a file that cannot be read is named as data too', async () => {
    const dir = hostileFolder('\u0000binary');
    const r = await runJobs(['validate', '.'], { cwd: dir });
    clean(r.stdout);
    expect(r.stdout).toBe(`✖ ${SHOWN}: this looks like a binary file (it holds a NUL byte), not YAML, JSON or Markdown text\n`);
  });

  it('sync plans, publish --dry-run and publish results show it as data', async () => {
    const dir = hostileFolder(advertYaml('N-1'));
    const plan = await runJobs(['sync', '.', '--dry-run'], { cwd: dir, env: serviceEnv });
    clean(plan.stdout);
    expect(plan.stdout).toBe(`+ N-1  ${SHOWN}\n`);
    const dry = await runJobs(['publish', '.', '--dry-run'], { cwd: dir, env: serviceEnv });
    clean(dry.stdout);
    expect(dry.stdout.split('\n')[0]).toBe(`POST /jobs (then PUT /jobs/N-1 if the reference is taken)  ${SHOWN}`);

    nock(SERVICE)
      .post('/jobs')
      .reply(422, { errors: { title: ['too_long:80'] } });
    const failed = await runJobs(['publish', '.'], { cwd: dir, env: serviceEnv });
    expect(failed.code).toBe(1);
    clean(failed.stdout);
    clean(failed.stderr);
    expect(failed.stdout).toBe(
      `✖ failed N-1 ${SHOWN}:1: POST /jobs: the service rejected the request (422)\n    ${SHOWN}:2:8: title: is too long (maximum 80 characters) [too_long:80]\n`,
    );
  });
  it('the lines under an error name a config file as data too', async () => {
    const dir = hostileFolder('concurrency: many\n');
    const r = await runJobs(['--config', HOSTILE, 'config', 'list'], { cwd: dir });
    expect(r.code).toBe(2);
    clean(r.stderr);
    expect(r.stderr).toContain(`  Fix ${SHOWN}; 'jobs schema config' prints the config schema.\n`);
  });
});

describe('large inputs', () => {
  it('events --dry-run takes 150,000 lines', async () => {
    const dir = tempFolder({});
    const lines: string[] = [];
    for (let i = 1; i <= 150_000; i++) lines.push(`{"application_id":"${i}","kind":"recruiter_view"}`);
    writeFileSync(join(dir, 'views.ndjson'), `${lines.join('\n')}\n`);
    const r = await runJobs(['events', 'views.ndjson', '--dry-run'], { cwd: dir });
    expect(r.stderr).toBe('dry run: views.ndjson: 150000 events: 150000 would be posted; nothing was sent\n');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(150_001);
  }, 60_000);

  it('loadAdverts reports 151,999 repeated references', async () => {
    const dir = tempFolder({});
    // Several files stay under the 1 MiB limit per file.
    for (let f = 0; f < 8; f++) writeFileSync(join(dir, `part-${f}.yaml`), Array.from({ length: 19_000 }, () => 'reference: SAME\n').join('---\n'));
    const loaded = await loadAdverts([dir]);
    expect(loaded.adverts).toHaveLength(152_000);
    expect(loaded.problems).toHaveLength(151_999);
    expect(loaded.problems[0]!.code).toBe('duplicate_reference');
  }, 60_000);
});
