/**
 * examples/.github/workflows/adverts.yml against the CLI: every `jobs` command the workflow runs parses with
 * the CLI's real options, pull requests validate with annotations, the main branch syncs with the
 * token from a secret, and the binary is never called by the bare name the shell's builtin takes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkInvocation, jobsInvocations, jobsModel } from './cli-shape.js';

const ROOT = join(import.meta.dirname, '../..');
const TEXT = readFileSync(join(ROOT, 'examples/.github/workflows/adverts.yml'), 'utf8');

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  steps: Step[];
  permissions?: Record<string, string>;
}
interface Workflow {
  on: Record<string, { branches?: string[] } | null>;
  jobs: Record<string, Job>;
}

const workflow = parse(TEXT) as Workflow;
const model = jobsModel();
const runs = (job: Job) => job.steps.filter((s) => s.run !== undefined);
const jobsCalls = (job: Job) =>
  runs(job).flatMap((step) =>
    step
      .run!.split('\n')
      .flatMap((line) => jobsInvocations(line, ['jobs', 'jobs-cli']))
      .map((args) => ({ step, args })),
  );

describe('the GitHub Actions recipe', () => {
  it('is a workflow triggered by pull requests and by pushes to main', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['pull_request', 'push']));
    expect(workflow.on.push?.branches).toContain('main');
  });

  it('runs only jobs commands that parse with the real options', () => {
    const all = Object.values(workflow.jobs).flatMap(jobsCalls);
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const { args } of all) expect(checkInvocation(model, args), `jobs ${args.join(' ')}`).toEqual([]);
  });

  it('calls the binary by its path: a bare `jobs` or `npx jobs` runs the shell builtin', () => {
    const lines = Object.values(workflow.jobs).flatMap((job) => runs(job).flatMap((s) => s.run!.split('\n')));
    for (const line of lines) {
      expect(line, line).not.toMatch(/(^|[\s;|&(])(npx\s+)?jobs\s/);
    }
    expect(lines.some((l) => l.includes('node_modules/.bin/jobs-cli '))).toBe(true);
    expect(lines.some((l) => l.includes('node_modules/.bin/jobs '))).toBe(false);
  });

  it('validates adverts on pull requests, with annotations', () => {
    const prJob = Object.values(workflow.jobs).find((j) => j.if?.includes("== 'pull_request'"));
    expect(prJob).toBeDefined();
    const validate = jobsCalls(prJob!).find(({ args }) => args.includes('validate'));
    expect(validate?.args).toEqual(['validate', '--output', 'github', 'adverts/']);
    // A plan on pull requests must send nothing.
    for (const { args } of jobsCalls(prJob!).filter(({ args }) => args.includes('sync'))) expect(args).toContain('--dry-run');
  });

  it('syncs daily on a schedule, confirming with --yes the closings the adverts ask for', () => {
    const schedule = (workflow.on as unknown as { schedule?: { cron?: string }[] }).schedule;
    expect(schedule, 'on: schedule').toBeDefined();
    // Daily: minute and hour fixed, every day of every month (advert dates are UTC days).
    expect(schedule!.map((s) => s.cron)).toContainEqual(expect.stringMatching(/^\d{1,2} \d{1,2} \* \* \*$/));
    // Scheduled runs carry the default branch's ref: the sync job must take them.
    const mainJob = Object.values(workflow.jobs).find((j) => j.if?.includes('refs/heads/main'));
    expect(mainJob!.if).not.toMatch(/event_name\s*==\s*'push'/);
    const sync = jobsCalls(mainJob!).find(({ args }) => args[0] === 'sync');
    expect(sync!.args).toContain('--yes');
    expect(sync!.args).not.toContain('--dry-run');
  });

  it('syncs on main with the token from a secret, and never a literal token', () => {
    const mainJob = Object.values(workflow.jobs).find((j) => j.if?.includes('refs/heads/main'));
    expect(mainJob).toBeDefined();
    const sync = jobsCalls(mainJob!).find(({ args }) => args[0] === 'sync');
    expect(sync, 'a jobs sync step').toBeDefined();
    expect(sync!.args).not.toContain('--dry-run');
    expect(sync!.step.env?.JOBS_TOKEN).toMatch(/^\$\{\{\s*secrets\.\w+\s*\}\}$/);
    expect(sync!.step.env?.JOBS_BASE_URL).toBeDefined();
    expect(mainJob!.permissions?.contents).toBe('write');
    // The state the sync keeps is committed back, or the next run would not know what is published.
    expect(runs(mainJob!).some((s) => /git add adverts\/\.jobs-state\b/.test(s.run!) && /git push/.test(s.run!))).toBe(true);
    expect(TEXT).not.toMatch(/JOBS_TOKEN:\s*['"]?[A-Za-z0-9_-]{8,}/);
  });

  it('says jobs-cli is not on the npm registry yet, and shows the line that installs the release tarball of this version instead', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const installs = Object.values(workflow.jobs)
      .flatMap((job) => runs(job).map((s) => s.run!))
      .filter((r) => r.includes('npm install'));
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
