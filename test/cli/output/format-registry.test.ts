/**
 * A format is one entry in the registry (and its writer): a throwaway `tap` registered here, with
 * no other file touched, is one of --output's choices, completed by the shells, listed by
 * `jobs help formats`, written by the command that gives it, and refused (exit 2) by the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFormat, type FormatEntry } from '../../../src/cli/output/format-registry.js';
import { advertYaml, runJobs, tempFolder } from '../../commands/harness.js';
import { jobsModel } from '../../adopt/cli-shape.js';

const tap: FormatEntry = {
  name: 'tap',
  summary: 'Test Anything Protocol, version 13',
  commands: ['validate'],
  document: true,
  everyCase: true,
  warnings: false,
  writer: async () => ({
    report: (r) => `TAP version 13\n1..${r.cases.length}\n${r.cases.map((c, i) => `${c.findings.length ? 'not ok' : 'ok'} ${i + 1} - ${c.name}\n`).join('')}`,
    fatal: (e) => `TAP version 13\nBail out! ${e.message}\n`,
  }),
};

let unregister: () => void;
beforeAll(() => {
  unregister = registerFormat(tap);
});
afterAll(() => unregister());

describe('a format registered in the registry alone', () => {
  it('is one of --output’s choices, and completion offers it', async () => {
    expect(jobsModel().globals.find((o) => o.long === '--output')!.value).toMatchObject({ type: 'choices', values: expect.arrayContaining(['tap']) });
    const bash = await runJobs(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('choices human json github sarif junit codequality tap');
  });

  it('is listed by jobs help formats', async () => {
    expect((await runJobs(['help', 'formats'])).stdout).toMatch(/^ {2}tap +Test Anything Protocol, version 13; validate$/m);
  });

  it('is written by the command that gives it, with a case for every advert', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': 'reference: B-1\ntitle: Engineer\n' });
    const r = await runJobs(['validate', '-o', 'tap', '.'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('TAP version 13\n1..2\nok 1 - A-1\nnot ok 2 - B-1\n');
  });

  it('is refused by the others (exit 2), and the refusal is given in it', async () => {
    const r = await runJobs(['stats', 'A-1', '--output=tap']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('jobs: stats cannot give --output tap\n  stats gives: human, json\n');
    expect(r.stdout).toBe('TAP version 13\nBail out! stats cannot give --output tap\n');
  });
});
