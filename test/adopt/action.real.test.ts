/**
 * action.yml, the composite GitHub Action, run as a runner would run it: each step's `run:` script in
 * bash, with the inputs substituted the way the runner does (${{ inputs.x }} in `env:` values), the
 * runner's variables (RUNNER_TEMP, GITHUB_ENV, GITHUB_ACTION_PATH) set, and the tool installed from
 * this repository's own `npm pack` (offline: the dependencies are in npm's cache after `npm ci`).
 * The command runs against a sandbox on 127.0.0.1 and gives GitHub annotations.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { action, ROOT } from './action-file.js';
import { runProcess, type Run } from '../support/run-process.js';
import { liveSandbox } from '../e2e/sandbox.js';
import { advertYaml } from '../commands/harness.js';
import { isolatedEnv } from '../e2e/helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const LIMIT_MS = 150_000;

function exec(file: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<Run> {
  return runProcess(file, args, { ...options, timeoutMs: options.timeoutMs ?? 90_000 });
}

/** The environment without npm's own variables (set under `npm test`), the suite's node first on PATH. */
function baseEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) env[k] = v;
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  return { ...env, ...extra };
}

/** `${{ inputs.x }}` and `${{ github.action_path }}` as the runner expands them. */
function expand(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(inputs\.([\w-]+)|github\.action_path)\s*\}\}/g, (_, _all, name: string | undefined) => (name ? (inputs[name] ?? '') : ROOT));
}

let tarball: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/cli.cjs'))) throw new Error('dist/ is missing: run `npm run build` before this test (npm test does)');
  const work = tempDir('jobs-action-pack-');
  const pack = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, env: baseEnv({}) });
  expect(pack.code, pack.stderr).toBe(0);
  tarball = join(work, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
}, LIMIT_MS);

/** Runs the action's steps in order, as a runner would; stops at the first that fails. */
async function runAction(given: Record<string, string>, workspace: string, env: Record<string, string>): Promise<{ steps: Run[]; last: Run }> {
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = given[name] ?? spec.default ?? '';
  const runnerTemp = tempDir('jobs-runner-temp-');
  const githubEnv = join(runnerTemp, 'github-env');
  writeFileSync(githubEnv, '');
  const steps: Run[] = [];
  for (const step of action.runs.steps) {
    if (step.run === undefined) continue;
    // Variables earlier steps wrote to GITHUB_ENV, as the runner passes them on.
    const exported = Object.fromEntries(
      readFileSync(githubEnv, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), inputs)]));
    const cwd = resolve(workspace, expand(step['working-directory'] ?? '.', inputs));
    expect(step.shell).toBe('bash');
    const r = await exec('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run, inputs)], {
      cwd,
      env: baseEnv({
        ...env,
        ...exported,
        ...stepEnv,
        RUNNER_TEMP: runnerTemp,
        GITHUB_ENV: githubEnv,
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_WORKSPACE: workspace,
        npm_config_prefer_offline: 'true',
      }),
    });
    steps.push(r);
    if (r.code !== 0) break;
  }
  return { steps, last: steps.at(-1)! };
}

function workspace(files: Record<string, string>): string {
  const dir = tempDir('jobs-action-ws-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('action.yml (composite action)', () => {
  it(
    'runs the command given with --output github: annotations and exit 3 on an invalid advert, 0 when valid',
    async () => {
      const s = await liveSandbox();
      const ws = workspace({ 'adverts/a.yaml': advertYaml('ACT-1'), 'adverts/b.yaml': advertYaml('ACT-2').replace('seniority: 0', 'seniority: -1') });
      const env = isolatedEnv();
      const bad = await runAction({ command: 'validate adverts/', version: tarball }, ws, env);
      expect(bad.steps).toHaveLength(2);
      expect(bad.steps[0]!.code, bad.steps[0]!.stderr).toBe(0);
      expect(bad.last.code).toBe(3);
      expect(bad.last.stdout).toBe('::error file=adverts/b.yaml,line=11,col=12,title=jobs%3A less_than::seniority: must be at least 0 [less_than:0]\n');

      writeFileSync(join(ws, 'adverts/b.yaml'), advertYaml('ACT-2'));
      const published = await runAction({ command: 'publish adverts/', version: tarball }, ws, { ...env, JOBS_BASE_URL: s.baseUrl, JOBS_TOKEN: 'sandbox' });
      expect(published.last.code, published.last.stderr).toBe(0);
      expect(
        s.sandbox
          .state()
          .adverts.map((a) => a.reference)
          .sort(),
      ).toEqual(['ACT-1', 'ACT-2']);
    },
    LIMIT_MS,
  );

  it(
    'installs the version of the action itself when none is given (package.json names it)',
    async () => {
      const step = action.runs.steps.find((x) => x.run?.includes('npm install'))!;
      // The install resolves `jobs-cli@<this package's version>`; shown without running npm against the registry.
      const r = await exec('bash', ['-c', step.run!.replace(/npm install .*/, 'echo "$spec"; exit 0')], {
        cwd: ROOT,
        env: baseEnv({
          JOBS_ACTION_VERSION: '',
          GITHUB_ACTION_PATH: ROOT,
          RUNNER_TEMP: tempDir('jobs-runner-temp-'),
          GITHUB_ENV: '/dev/null',
        }),
      });
      const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
      expect(r.stdout.trim()).toBe(`jobs-cli@${version}`);
    },
    LIMIT_MS,
  );

  it(
    'says what to write when jobs-cli is not on the npm registry (a registry on 127.0.0.1 that answers 404)',
    async () => {
      const registry = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}'));
      await new Promise<void>((ready) => registry.listen(0, '127.0.0.1', ready));
      const { port } = registry.address() as AddressInfo;
      const runnerTemp = tempDir('jobs-runner-temp-');
      try {
        const step = action.runs.steps.find((x) => x.run?.includes('npm install'))!;
        const r = await exec('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
          cwd: runnerTemp,
          env: baseEnv({
            JOBS_ACTION_VERSION: '',
            GITHUB_ACTION_PATH: ROOT,
            GITHUB_ACTION_REPOSITORY: 'acme/jobs',
            RUNNER_TEMP: runnerTemp,
            GITHUB_ENV: join(runnerTemp, 'github-env'),
            npm_config_registry: `http://127.0.0.1:${port}/`,
            npm_config_cache: join(runnerTemp, 'npm-cache'),
            npm_config_fetch_retries: '0',
          }),
          timeoutMs: 60_000,
        });
        const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain('E404');
        expect(r.stdout).toBe(
          `::error title=jobs-cli is not on the npm registry::jobs-cli@${version} could not be installed: jobs-cli is not published on the npm registry yet. ` +
            `Give the action the release's packed tarball instead: with: { version: https://github.com/acme/jobs/releases/download/v${version}/jobs-cli-${version}.tgz } (docs/install.md)\n`,
        );
      } finally {
        registry.close();
      }
    },
    LIMIT_MS,
  );

  describe('a command input of several lines', () => {
    const step = action.runs.steps.find((x) => x.run?.includes('JOBS_ACTION_COMMAND'))!;
    /** Runs the command step with a stand-in for the installed tool that writes down what it was given. */
    async function runCommandStep(command: string): Promise<Run & { ran: string }> {
      const dir = tempDir('jobs-action-command-');
      {
        const bin = join(dir, 'jobs-cli');
        writeFileSync(bin, `#!/bin/sh\nprintf '%s|' "$@" > "${dir}/ran"\n`);
        chmodSync(bin, 0o755);
        const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), { command })]));
        const r = await exec('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run!, { command })], {
          cwd: dir,
          env: baseEnv({ ...stepEnv, JOBS_ACTION_BIN: bin }),
        });
        return { ...r, ran: existsSync(join(dir, 'ran')) ? readFileSync(join(dir, 'ran'), 'utf8') : '' };
      }
    }

    it('is refused (exit 2, an annotation) and nothing runs: a --dry-run on the second line is not dropped for a real prune', async () => {
      const r = await runCommandStep('sync adverts/ --prune --yes\n--dry-run');
      expect(r.code).toBe(2);
      expect(r.ran).toBe('');
      expect(r.stdout).toBe(
        '::error title=jobs-cli action::the command input has more than one line; write the command on one line (in YAML, command: >- folds lines into one). Nothing was run.\n',
      );
      expect(r.stderr).toContain('the command input has more than one line');
      for (const crlf of ['validate a/\r\n--dry-run', 'validate a/\rx']) expect((await runCommandStep(crlf)).code).toBe(2);
    });

    it('one line ending in a line break (`command: |`) runs as written', async () => {
      const r = await runCommandStep('sync adverts/ --dry-run\n');
      expect(r.code, r.stderr).toBe(0);
      expect(r.ran).toBe('--output|github|--no-input|sync|adverts/|--dry-run|');
    });
  });
});
