/**
 * Shell completion in the real shells: the scripts complete what a user expects in bash, zsh and
 * fish (npm run test:real checks they are installed; a missing shell fails): commands,
 * subcommands, options, option values, profile names and file paths.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputFormats } from '../../src/cli/output/format-registry.js';
import { completionProject } from './completion-project.js';

let dir: string;
let env: Record<string, string>;
let scripts: Record<string, string>;

beforeAll(async () => {
  ({ dir, env, scripts } = await completionProject());
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What bash offers for a command line ending where the cursor is ('' for a new word). */
function bashComplete(...words: string[]): string[] {
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `source ${join(dir, 'jobs.bash')}; COMP_WORDS=(${quoted}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _jobs_cli; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    {
      cwd: join(dir, 'project'),
      env,
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  return out.split('\n').filter((l) => l !== '');
}

describe('bash', () => {
  it('completes commands, then subcommands', () => {
    expect(bashComplete('jobs', 'va')).toEqual(['validate']);
    expect(bashComplete('jobs', 'co')).toEqual(['config', 'convert', 'completion']);
    expect(bashComplete('jobs', 'config', '')).toEqual(['get', 'set', 'unset', 'list', 'path']);
    expect(bashComplete('jobs', '--profile', 'prod', 'sy')).toEqual(['sync']);
  });

  it("completes a command's options and the global ones", () => {
    expect(bashComplete('jobs', 'sync', 'adverts/', '--d')).toEqual(['--dry-run', '--detailed-exitcode']);
    expect(bashComplete('jobs', 'validate', '--pro')).toEqual(['--profile']);
    expect(bashComplete('jobs', 'config', 'set', '--pr')).toEqual(['--project', '--profile']);
    expect(bashComplete('jobs', '--vers')).toEqual(['--version']);
  });

  it('completes option values: fixed lists, profile names, paths; nothing for free text', () => {
    expect(bashComplete('jobs', '--output', '')).toEqual(outputFormats());
    expect(bashComplete('jobs', 'validate', '--output', '=', 'j')).toEqual(['json', 'junit']);
    expect(bashComplete('jobs', '--profile', '')).toEqual(['ci', 'prod', 'staging']);
    expect(bashComplete('jobs', 'sync', 'adverts', '--state', 'adv')).toEqual(['adverts']);
    expect(bashComplete('jobs', 'event', 'app_1', 'recruiter_view', '--data', '')).toEqual([]);
  });

  it('completes arguments: paths, shells, commands for help', () => {
    expect(bashComplete('jobs', 'validate', 'adverts/b')).toEqual(['adverts/backend.yaml']);
    expect(bashComplete('jobs', 'completion', '')).toEqual(['bash', 'zsh', 'fish']); // not the hidden helper
    expect(bashComplete('jobs', 'schema', 'u')).toEqual(['update']);
    expect(bashComplete('jobs', 'help', 'sy')).toEqual(['sync']);
    // help topics beside the commands, and event kinds
    expect(bashComplete('jobs', 'help', 'e')).toEqual(['export', 'event', 'events', 'exit-codes', 'environment']);
    expect(bashComplete('jobs', 'help', 'con')).toEqual(['config', 'convert']); // config: the command and the topic, once
    expect(bashComplete('jobs', 'event', 'app_1', '')).toEqual(['recruiter_view', 'recruiter_like', 'recruiter_reject']);
    expect(bashComplete('jobs', 'event', 'app_1', 'recruiter_l')).toEqual(['recruiter_like']);
    // an option's value is not taken for the command: --config's file, then the command
    expect(bashComplete('jobs', '--config', 'x.yaml', 'val')).toEqual(['validate']);
  });
});

describe('zsh', () => {
  it('is valid zsh and registers _jobs_cli for jobs and jobs-cli (not _jobs: zsh has its own)', () => {
    const file = join(dir, 'jobs.zsh');
    execFileSync('zsh', ['-n', file]);
    const out = execFileSync(
      'zsh',
      ['-f', '-c', `autoload -Uz compinit && compinit -u -D -d ${join(dir, 'zcompdump')}; source ${file}; print -r -- $_comps[jobs] $_comps[jobs-cli]`],
      { env, encoding: 'utf8', timeout: 10_000 },
    );
    expect(out).toBe('_jobs_cli _jobs_cli\n');
    expect(scripts.zsh).not.toMatch(/^_jobs\(\)/m);
  });

  it('completes in an interactive zsh (commands, profile names)', () => {
    // A real interactive zsh on a pseudo-terminal: type, press Tab, read the screen.
    const driver = `
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z 'PROMPT="> "; autoload -Uz compinit; compinit -u -D -d ${join(dir, 'zcompdump-i')}; source ${join(dir, 'jobs.zsh')}'
zpty -w -n z "$1"$'\\t'
local out='' chunk i
for i in {1..100}; do
  zpty -r -t z chunk && out+=$chunk
  [[ \${out//$'\\a'/} == *"$2"* ]] && break
  sleep 0.1
done
zpty -d z
print -r -- "$out"`;
    const run = (typed: string, expected: string) =>
      execFileSync('zsh', ['-f', '-c', driver, 'driver', typed, expected], { cwd: join(dir, 'project'), env, encoding: 'utf8', timeout: 20_000 }).replace(
        // Escape sequences, and the bell zsh may ring as it completes (it does for help's argument).
        /\x1b\[[0-9;?]*[A-Za-z]|\x07/g,
        '',
      );
    expect(run('jobs valid', 'jobs validate ')).toContain('jobs validate ');
    const profiles = run('jobs --profile ', 'staging');
    expect(profiles).toMatch(/ci\s+prod\s+staging/);
    expect(run('jobs help exit', 'jobs help exit-codes ')).toContain('jobs help exit-codes ');
    expect(run('jobs help envi', 'jobs help environment ')).toContain('jobs help environment ');
    expect(run('jobs event app_1 recruiter_l', 'jobs event app_1 recruiter_like ')).toContain('jobs event app_1 recruiter_like ');
  });
});

describe('fish', () => {
  const fishComplete = (line: string) =>
    execFileSync('fish', ['--no-config', '-c', `source ${join(dir, 'jobs.fish')}; complete -C '${line}'`], {
      cwd: join(dir, 'project'),
      env,
      encoding: 'utf8',
      timeout: 10_000,
    })
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[0]);

  it('is valid fish', () => {
    execFileSync('fish', ['--no-execute', join(dir, 'jobs.fish')]);
  });

  it('completes commands, subcommands, options, values and paths', () => {
    expect(fishComplete('jobs va')).toEqual(['validate']);
    expect(fishComplete('jobs config ')).toEqual(['get', 'list', 'path', 'set', 'unset']);
    expect(fishComplete('jobs sync adverts --dr')).toEqual(['--dry-run']);
    expect(fishComplete('jobs --profile ')).toEqual(['ci', 'prod', 'staging']);
    expect(fishComplete('jobs --output ')).toEqual(outputFormats().sort());
    expect(fishComplete('jobs validate adverts/b')).toEqual(['adverts/backend.yaml']);
    expect(fishComplete('jobs completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(fishComplete('jobs help exi')).toEqual(['exit-codes']);
    expect(fishComplete('jobs help env')).toEqual(['environment']);
    expect(fishComplete('jobs event app_1 recruiter_')).toEqual(['recruiter_like', 'recruiter_reject', 'recruiter_view']);
  });
});
