/**
 * examples/gitlab/.gitlab-ci.yml against the CLI, as ci-recipe.test.ts holds the GitHub one: every
 * `jobs` command the pipeline runs parses with the CLI's real options (and gives the format it asks
 * for), merge requests validate into JUnit and Code Quality reports that GitLab reads, the default
 * branch syncs with the token from a CI/CD variable, and the binary is never called by the bare
 * name the shell's builtin takes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkInvocation, jobsInvocations, jobsModel } from './cli-shape.js';

const ROOT = join(import.meta.dirname, '../..');
const TEXT = readFileSync(join(ROOT, 'examples/gitlab/.gitlab-ci.yml'), 'utf8');

interface Job {
  stage?: string;
  rules?: { if?: string }[];
  script?: string[];
  before_script?: string[];
  after_script?: string[];
  artifacts?: { when?: string; reports?: Record<string, string> };
  resource_group?: string;
}
const pipeline = parse(TEXT) as Record<string, Job> & { default?: Job; variables?: Record<string, string> };
const model = jobsModel();
const KEYWORDS = new Set(['default', 'variables', 'stages', 'include', 'workflow']);
const jobs = Object.entries(pipeline).filter(([name]) => !KEYWORDS.has(name)) as [string, Job][];
const lines = (job: Job) => [...(job.before_script ?? []), ...(job.script ?? []), ...(job.after_script ?? [])].flatMap((s) => s.split('\n'));
const allLines = [...lines(pipeline.default ?? {}), ...jobs.flatMap(([, job]) => lines(job))];
const calls = (job: Job) => lines(job).flatMap((line) => jobsInvocations(line, ['jobs', 'jobs-cli']));
const onMergeRequests = (job: Job) => job.rules?.some((r) => r.if?.includes('merge_request_event'));
const onDefaultBranch = (job: Job) => job.rules?.some((r) => r.if?.includes('$CI_DEFAULT_BRANCH'));

describe('the GitLab CI recipe', () => {
  it('runs only jobs commands that parse with the real options and give the format they ask for', () => {
    const all = jobs.flatMap(([, job]) => calls(job));
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const args of all) expect(checkInvocation(model, args), `jobs ${args.join(' ')}`).toEqual([]);
  });

  it('calls the binary by its path: a bare `jobs` or `npx jobs` runs the shell builtin', () => {
    for (const line of allLines) expect(line, line).not.toMatch(/(^|[\s;|&(])(npx\s+)?jobs\s/);
    expect(allLines.some((l) => l.includes('node_modules/.bin/jobs-cli '))).toBe(true);
    expect(allLines.some((l) => /npm install .*"\$JOBS_PACKAGE"/.test(l))).toBe(true);
    expect(pipeline.variables?.JOBS_PACKAGE).toMatch(/^jobs-cli@/);
  });

  it('validates merge requests into the JUnit and Code Quality reports GitLab reads, even when it fails', () => {
    const [, validate] = jobs.find(([, job]) => onMergeRequests(job) && calls(job).some((a) => a[0] === 'validate'))!;
    const args = calls(validate);
    expect(args).toContainEqual(['validate', '--output', 'junit', 'adverts/']);
    expect(args).toContainEqual(['validate', '--output', 'codequality', 'adverts/']);
    const script = validate.script!.join('\n');
    expect(script).toMatch(/--output junit adverts\/ > junit\.xml/);
    expect(script).toMatch(/--output codequality adverts\/ > gl-code-quality-report\.json/);
    expect(validate.artifacts).toEqual({ when: 'always', reports: { junit: 'junit.xml', codequality: 'gl-code-quality-report.json' } });
    // A plan on merge requests must send nothing.
    for (const [, job] of jobs.filter(([, j]) => onMergeRequests(j))) {
      for (const a of calls(job).filter((x) => x[0] === 'sync')) expect(a).toContain('--dry-run');
    }
  });

  it('syncs in a scheduled pipeline too, confirming with --yes the closings the adverts ask for', () => {
    const [, sync] = jobs.find(([, job]) => onDefaultBranch(job))!;
    const scheduled = sync.rules?.find((r) => r.if?.includes("$CI_PIPELINE_SOURCE == 'schedule'"));
    expect(scheduled, 'a rule for scheduled pipelines').toBeDefined();
    // A schedule changes no file: a `changes:` condition would skip the job every day.
    expect((scheduled as Record<string, unknown>).changes).toBeUndefined();
    expect(scheduled!.if).toContain('$CI_DEFAULT_BRANCH');
    expect(calls(sync).find((a) => a[0] === 'sync')).toContain('--yes');
    // The schedule itself is set in GitLab's settings: the recipe says how.
    expect(TEXT).toMatch(/Pipeline schedules[\s\S]*5 0 \* \* \*/);
  });

  it('syncs the default branch with the token from a variable, one run at a time, and commits the state', () => {
    const [, sync] = jobs.find(([, job]) => onDefaultBranch(job))!;
    const args = calls(sync).find((a) => a[0] === 'sync');
    expect(args).toBeDefined();
    expect(args).not.toContain('--dry-run');
    expect(args).toContain('--no-input');
    expect(sync.resource_group).toBeTruthy();
    expect(sync.after_script!.join('\n')).toMatch(/git add adverts\/\.jobs-state\b[\s\S]*git push/);
    expect(TEXT).toMatch(/JOBS_TOKEN/);
    expect(TEXT).not.toMatch(/JOBS_TOKEN:\s*['"]?[A-Za-z0-9_-]{8,}/);
  });

  it('says jobs-cli is not on the npm registry yet, and shows the line that installs the release tarball of this version instead', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const installs = allLines.filter((l) => l.includes('npm install'));
    expect(installs.length).toBeGreaterThan(0);
    for (const line of installs) expect(line).toContain('"$JOBS_PACKAGE"');
    expect(TEXT).toContain('jobs-cli is NOT on the npm registry yet');
    // The repository install.md names, and the file `npm pack` writes for this version.
    expect(TEXT).toContain(`#   JOBS_PACKAGE: https://github.com/<owner>/jobs/releases/download/v${version}/jobs-cli-${version}.tgz\n`);
    expect(readFileSync(join(ROOT, 'docs/install.md'), 'utf8')).toContain(
      `https://github.com/<owner>/jobs/releases/download/v${version}/jobs-cli-${version}.tgz`,
    );
  });
});
