/**
 * The tool names itself as invoked (`jobs`, `jobs-cli`; `jobs-cli` for `node bin/jobs.js`) in help,
 * usage errors, hints and errors; each command's help lists its own options, then the global ones
 * with their descriptions; usage errors name that command's help and, with --json, are JSON on stdout; `-o`
 * and `version`. Every example in `jobs --help` runs as written in a clone.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellWords } from '../adopt/cli-shape.js';
import { BIN, ROOT, isolatedEnv } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
let links: string;

beforeAll(() => {
  // The names npm's bin links give the program.
  links = tempDir('jobs-names-');
  for (const name of ['jobs', 'jobs-cli']) symlinkSync(BIN, join(links, name));
});

/** Runs the built binary as `script` (a bin link or bin/jobs.js); 15 s at most. */
function run(script: string, args: string[], env: Record<string, string> = isolatedEnv()) {
  const r = spawnSync(process.execPath, [script, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 15_000, input: '' });
  expect(r.error).toBeUndefined();
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const as = (name: string) => (name === 'node bin/jobs.js' ? BIN : join(links, name));

describe('the name it was invoked under', () => {
  it.each([
    ['jobs-cli', 'jobs-cli'],
    ['jobs', 'jobs'],
    ['node bin/jobs.js', 'jobs-cli'],
  ])('as %s, it calls itself %s in help, usage errors and hints', (invoked, name) => {
    const help = run(as(invoked), ['publish', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: ${name} publish \\[options\\] <paths\\.\\.\\.>`));
    expect(help.stdout).toContain(`  $ ${name} publish adverts/backend-engineer.yaml\n`);

    const typo = run(as(invoked), ['publsh', 'adverts/']);
    expect(typo).toEqual({ code: 2, stdout: '', stderr: `${name}: unknown command 'publsh'\n(Did you mean publish?)\nRun '${name} --help' for usage.\n` });

    // A hint written by a command, and one from the layer below (config), which has no context.
    const login = run(as(invoked), ['login', '--no-input']);
    expect(login.code).toBe(2);
    expect(login.stderr).toContain(`echo "$JOBS_TOKEN" | ${name} login --with-token`);
    const noToken = run(as(invoked), ['stats', 'A-1'], isolatedEnv({ JOBS_BASE_URL: 'http://127.0.0.1:9' }));
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain(`or run \`${name} login\``);
    expect(noToken.stderr).not.toMatch(new RegExp(`[\`']${name === 'jobs' ? 'jobs-cli' : 'jobs'} `));
  });

  it('config warnings from the layer below name it too', () => {
    const env = isolatedEnv({ JOBS_BASE_URL: 'http://127.0.0.1:9' });
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'jobs'), { recursive: true });
    writeFileSync(
      join(env.XDG_CONFIG_HOME!, 'jobs', 'credentials.json'),
      JSON.stringify({ version: 1, profiles: { default: { token: 't', base_url: 'https://a.example' } } }),
      { mode: 0o600 },
    );
    const r = run(as('jobs-cli'), ['stats', 'A-1'], env);
    expect(r.stderr).toContain(`jobs-cli: warning: the token stored by 'jobs-cli login' for profile "default" is for https://a.example`);
    expect(r.stderr).toContain(`run 'jobs-cli login' for that URL`);
  });

  it('as the jobs function of shell-init (JOBS_CLI_NAME=jobs), it calls itself jobs', () => {
    const r = run(BIN, ['valdate'], isolatedEnv({ JOBS_CLI_NAME: 'jobs' }));
    expect(r.stderr).toBe("jobs: unknown command 'valdate'\n(Did you mean validate?)\nRun 'jobs --help' for usage.\n");
  });
});

describe("each command's help", () => {
  it("lists its own options, then the global ones it inherits, described (as gh's INHERITED FLAGS)", () => {
    const r = run(as('jobs-cli'), ['sync', '--help']);
    expect(r.code).toBe(0);
    const [own, rest] = r.stdout.split('\nGlobal options:\n');
    expect(own).toContain('Options:\n');
    expect(own).toMatch(/--dry-run +\S/);
    expect(own).not.toContain('--base-url');
    const block = rest!.split('\n\n')[0]!;
    expect(block).toMatch(/^ {2}--profile <name> +use this profile from the config/m);
    expect(block).toMatch(/^ {2}-o, --output <format> +output format/m);
    expect(block).toMatch(/^ {2}--sandbox +run against the embedded local sandbox/m);
    expect(block).not.toContain('--version');
    expect(rest).toContain('Examples:\n  $ jobs-cli sync');
  });

  it('the program itself still describes every global option', () => {
    const r = run(as('jobs-cli'), ['--help']);
    expect(r.stdout).toMatch(/-o, --output <format> +output format/);
    expect(r.stdout).toMatch(/--sandbox +run against the embedded local sandbox/);
    expect(r.stdout).not.toContain('Global options (see');
  });
});

describe('usage errors', () => {
  it('point at the help of the command that was typed', () => {
    expect(run(as('jobs-cli'), ['publish', 'adverts/', '--dryrun']).stderr).toBe(
      "jobs-cli: unknown option '--dryrun'\n(Did you mean --dry-run?)\nRun 'jobs-cli publish --help' for usage.\n",
    );
    expect(run(as('jobs-cli'), ['--profile', 'x', 'config', 'set', 'a']).stderr).toBe(
      "jobs-cli: missing required argument 'value'\nRun 'jobs-cli config set --help' for usage.\n",
    );
  });

  it.each([['--json'], ['-o', 'json'], ['--output=json'], ['-ojson']])('with %s, are also one JSON document on stdout', (...flag) => {
    const r = run(as('jobs-cli'), ['publish', ...flag, 'adverts/', '--dryrun']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: 1,
      error: { exit_code: 2, message: "unknown option '--dryrun'", details: ['(Did you mean --dry-run?)', "Run 'jobs-cli publish --help' for usage."] },
    });
    expect(r.stderr).toContain("Run 'jobs-cli publish --help' for usage.");
  });

  it('with --json and no command, say so in JSON', () => {
    const r = run(as('jobs-cli'), ['--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: 1,
      error: { exit_code: 2, message: 'no command given', details: ["Run 'jobs-cli --help' for usage."] },
    });
  });
});

describe('-o and version', () => {
  it('-o is short for --output', () => {
    const r = run(as('jobs-cli'), ['validate', '-o', 'json', 'examples/adverts/']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true });
  });

  it('`version` prints what --version prints', () => {
    const command = run(as('jobs-cli'), ['version']);
    const flag = run(as('jobs-cli'), ['--version']);
    expect(command).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(flag).toEqual(command);
  });
});

describe('the examples of jobs --help, in a clone', () => {
  it('each runs as written and exits 0 (one sandbox state for all, in order)', () => {
    const env = isolatedEnv();
    const help = run(as('jobs-cli'), ['--help'], env).stdout;
    const examples = help
      .split(/^Examples:$/m)[1]!
      .split('\n\n')[0]!
      .split('\n')
      .filter((l) => l.startsWith('  $ '))
      .map((l) => shellWords(l.slice(4)));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const words of examples) {
      expect(words[0], words.join(' ')).toBe('jobs-cli');
      expect(
        words.filter((w) => /^[|;&<>]/.test(w)),
        'one command, no shell operators',
      ).toEqual([]);
      const r = run(BIN, words.slice(1), env);
      expect(r.code, `$ ${words.join(' ')}\n${r.stderr}`).toBe(0);
    }
  });

  it('publishing the whole examples/ folder to the sandbox works (the CI recipe is not read as an advert)', () => {
    const r = run(as('jobs'), ['--sandbox', 'publish', 'examples/']);
    expect(r.stderr).not.toContain('.yml');
    expect(r.code, r.stderr).toBe(0);
  });
});
