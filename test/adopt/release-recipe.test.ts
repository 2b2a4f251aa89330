/**
 * examples/.github/workflows/release.yml against the CLI and the package: on a tag it builds the
 * single executable on Linux, macOS and Windows with the package's own script, smoke-tests each with
 * commands that parse with the CLI's real options, and publishes to npm with provenance.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkInvocation, jobsInvocations, jobsModel } from './cli-shape.js';

const ROOT = join(import.meta.dirname, '../..');
const TEXT = readFileSync(join(ROOT, 'examples/.github/workflows/release.yml'), 'utf8');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

interface Step {
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  needs?: string | string[];
  strategy?: { matrix: { include: Array<{ os: string; file: string }> } };
  permissions?: Record<string, string>;
  steps: Step[];
}
const workflow = parse(TEXT) as { on: { push?: { tags?: string[] } }; jobs: Record<string, Job> };
const lines = (job: Job) => job.steps.flatMap((s) => (s.run ?? '').split('\n'));

describe('the release recipe', () => {
  it('runs on a version tag only', () => {
    expect(Object.keys(workflow.on)).toEqual(['push']);
    expect(workflow.on.push?.tags).toEqual(['v*.*.*']);
  });

  it('builds the single executable on Linux, macOS and Windows with npm run build:binary', () => {
    const binary = workflow.jobs.binary!;
    expect(binary.strategy!.matrix.include.map((m) => m.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest']);
    expect(PKG.scripts['build:binary']).toBeDefined();
    expect(lines(binary).some((l) => l.startsWith('npm run build:binary -- --out '))).toBe(true);
  });

  it('smoke-tests the executable with commands that parse, with no node on PATH', () => {
    const model = jobsModel();
    const calls = lines(workflow.jobs.binary!).flatMap((line) => jobsInvocations(line, ['$bin']));
    expect(calls.map((args) => args.filter((a) => !a.startsWith('-') && !a.includes('/'))[0] ?? args[0])).toEqual([
      '--version',
      'validate',
      'publish',
      'stats',
      'report',
    ]);
    for (const args of calls) expect(checkInvocation(model, args), args.join(' ')).toEqual([]);
    for (const line of lines(workflow.jobs.binary!).filter((l) => l.includes('"$bin"'))) expect(line).toMatch(/^PATH="\$PWD\/empty" /);
  });

  it('publishes to npm with provenance, with id-token: write, after the executables are built', () => {
    const npm = workflow.jobs.npm!;
    expect(npm.needs).toBe('binary');
    expect(npm.permissions?.['id-token']).toBe('write');
    const publish = npm.steps.find((s) => s.run?.startsWith('npm publish'));
    expect(publish?.run).toContain('--provenance');
    expect(publish?.env?.NODE_AUTH_TOKEN).toMatch(/^\$\{\{\s*secrets\.\w+\s*\}\}$/);
    expect(TEXT).not.toMatch(/NODE_AUTH_TOKEN:\s*['"]?[A-Za-z0-9_-]{8,}/);
  });
});
