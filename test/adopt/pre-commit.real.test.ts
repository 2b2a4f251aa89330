/**
 * .pre-commit-hooks.yaml through the real pre-commit framework (Debian's `pre-commit`): `pre-commit
 * try-repo <this repository> jobs-validate --all-files` in a scratch git repository passes with valid
 * adverts, and fails naming the file and the line with an invalid one. try-repo clones this
 * repository (with a commit of any uncommitted changes), so the hook installs as a user's would; npm
 * finds the dependencies in its cache after `npm ci`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { advertYaml } from '../commands/harness.js';
import { markdownAdvert } from '../support/markdown-adverts.js';
import { tempDir } from '../support/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const LIMIT_MS = 420_000;

interface Run {
  code: number | null;
  output: string;
}

function exec(file: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs = 300_000): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${file} ${args.join(' ')} did not finish in time\n${output}`));
    }, timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

function hookEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  // npm's own variables (set under `npm test`) must not steer the npm the hook runs.
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) env[k] = v;
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  return {
    ...env,
    PRE_COMMIT_HOME: home,
    npm_config_prefer_offline: 'true',
    NO_COLOR: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.invalid',
  };
}

describe('the jobs-validate pre-commit hook', () => {
  it('is declared for advert files', () => {
    const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as {
      id: string;
      files: string;
      exclude: string;
      entry: string;
      language: string;
    }[];
    const hook = hooks.find((h) => h.id === 'jobs-validate')!;
    expect(hook).toBeDefined();
    const files = new RegExp(hook.files);
    // pre-commit's patterns are Python's: a leading (?i) is JavaScript's i flag.
    const exclude = hook.exclude.startsWith('(?i)') ? new RegExp(hook.exclude.slice(4), 'i') : new RegExp(hook.exclude);
    const picked = (p: string) => files.test(p) && !exclude.test(p);
    expect(['adverts/a.yaml', 'adverts/sub/b.yml', 'jobs/adverts/c.json', 'adverts/d.md'].filter(picked)).toHaveLength(4);
    expect(
      [
        'README.md',
        'adverts/README.md',
        'adverts/sub/CHANGELOG.md',
        'adverts/README.de.md',
        'adverts/Contributing.md',
        'adverts/ReadMe.md',
        '.github/workflows/ci.yml',
        'adverts/.jobs-state',
        'adverts/.jobsrc.yaml',
        'adverts/.jobs/advert.schema.json',
      ].filter(picked),
    ).toEqual([]);
  });

  it(
    'pre-commit try-repo passes with valid adverts and fails naming the file and line with an invalid one',
    async () => {
      const scratch = tempDir('jobs-pre-commit-');
      const env = hookEnv(tempDir('jobs-pre-commit-home-'));
      mkdirSync(join(scratch, 'adverts'));
      writeFileSync(join(scratch, 'adverts/good.yaml'), advertYaml('PC-1'));
      writeFileSync(join(scratch, 'adverts/good.md'), markdownAdvert('PC-3', 'The job.\n'));
      writeFileSync(join(scratch, 'adverts/README.md'), '# Our adverts\n');
      // Passed over in any case, as `jobs validate adverts/` passes over it.
      writeFileSync(join(scratch, 'adverts/Contributing.md'), '# How to add an advert\n');
      writeFileSync(join(scratch, 'notes.yaml'), 'not: an advert\n');
      expect((await exec('git', ['init', '-q'], scratch, env)).code).toBe(0);
      expect((await exec('git', ['add', '.'], scratch, env)).code).toBe(0);

      const good = await exec('pre-commit', ['try-repo', ROOT, 'jobs-validate', '--all-files'], scratch, env);
      expect(good.code, good.output).toBe(0);
      expect(good.output).toMatch(/validate job adverts\.+Passed/);

      writeFileSync(join(scratch, 'adverts/bad.yaml'), advertYaml('PC-2').replace('seniority: 0', 'seniority: -1'));
      writeFileSync(join(scratch, 'adverts/bad.md'), markdownAdvert('PC-4', '\n'));
      // The hook passes --wording (off by default on the command line): a coded word is a warning here.
      writeFileSync(
        join(scratch, 'adverts/coded.yaml'),
        advertYaml('PC-5', 'jobs:\n  language: en\n').replace('job_description: Build robots.', 'job_description: A rockstar builds robots.'),
      );
      expect((await exec('git', ['add', '.'], scratch, env)).code).toBe(0);
      const bad = await exec('pre-commit', ['try-repo', ROOT, 'jobs-validate', '--all-files'], scratch, env);
      expect(bad.code, bad.output).toBe(1);
      expect(bad.output).toMatch(/validate job adverts\.+Failed/);
      expect(bad.output).toContain('exit code: 3');
      expect(bad.output).toContain('adverts/bad.yaml:11:12: seniority: must be at least 0 [less_than:0]');
      expect(bad.output).toMatch(/adverts\/coded\.yaml:5:\d+: job_description: "rockstar" .*\[wording\/condescending\]/);
      expect(bad.output).toContain("adverts/bad.md:18:1: the body is empty: write the job description below the front matter's closing --- (line 18)");
      expect(bad.output).not.toContain('README.md');
      expect(bad.output).not.toContain('Contributing.md');
      // Only the adverts were checked: notes.yaml is not one.
      expect(bad.output).not.toContain('notes.yaml');
    },
    LIMIT_MS,
  );
});
