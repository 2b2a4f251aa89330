/**
 * `jobs-cli shell-init bash|zsh|fish` in the real shells: with a background job running, `jobs`
 * alone, its builtin options and job specs still reach the shell's builtin; everything else runs the
 * built CLI by its absolute path (nothing on PATH), which names itself `jobs`; completion is
 * registered for both `jobs` and `jobs-cli`. Each shell run is bounded and kills its `sleep`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellInitScript } from '../../../src/cli/completion/shell-init.js';
import { tempDir } from '../../support/temp-dirs.js';
const VERSION: string = JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')).version;

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/jobs.js');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
let dir: string;
let env: Record<string, string>;
/** PATH while the rc file runs: an installed jobs-cli (a bin link, as npm makes) and Node. */
let installedPath: string;

beforeAll(() => {
  dir = tempDir('jobs-shell-init-');
  // No jobs on PATH: the function must find the CLI by itself. The shells and coreutils only.
  env = { PATH: '/usr/bin:/bin', HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state'), NO_COLOR: '1', TERM: 'dumb' };
  // A profile in the credentials store: completing --profile runs the CLI by its path.
  mkdirSync(join(dir, 'config', 'jobs'), { recursive: true });
  writeFileSync(join(dir, 'config', 'jobs', 'credentials.json'), JSON.stringify({ version: 1, profiles: { ci: { token: 't' } } }), { mode: 0o600 });
  mkdirSync(join(dir, 'bin'));
  symlinkSync(BIN, join(dir, 'bin', 'jobs-cli'));
  installedPath = [join(dir, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  for (const shell of ['bash', 'zsh', 'fish']) writeFileSync(join(dir, `init.${shell}`), initOf(shell));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function initOf(shell: string): string {
  const r = spawnSync(process.execPath, [BIN, 'shell-init', shell], { env, encoding: 'utf8', timeout: 20_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** Runs a script in a fresh non-login shell, stderr merged into stdout; 20 s at most. */
function run(shell: string, script: string): string {
  const args = shell === 'bash' ? ['--norc', '--noprofile', '-c', script] : shell === 'zsh' ? ['-f', '-c', script] : ['--no-config', '-c', script];
  // sh merges the shell's stderr into its stdout, in order
  const r = spawnSync('/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', shell, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL' });
  expect(r.error, `${shell} did not finish`).toBeUndefined();
  return r.stdout;
}

/** A section marker, so each command's output can be read apart. */
const section = (output: string, name: string) => output.split(`<${name}>\n`)[1]?.split(/^</m)[0] ?? `(no section ${name})`;

/** The rc file's line, as the README gives it. */
function rcLine(shell: string): string {
  const line = shell === 'fish' ? 'jobs-cli shell-init fish | source' : `eval "$(jobs-cli shell-init ${shell})"`;
  expect(README).toContain(line);
  return line;
}

const POSIX_SCRIPT = (shell: string, completion: string) => `
${shell === 'zsh' ? `autoload -Uz compinit && compinit -u -D -d ${dir}/zcompdump` : ''}
PATH=${installedPath}
${rcLine(shell)}
# From here on, jobs-cli is not on PATH: the function finds the CLI by itself.
PATH=/usr/bin:/bin
# its output elsewhere: the test reads the shell's output to its end
sleep 30 >/dev/null 2>&1 &
sleeper=$!
trap 'kill $sleeper 2>/dev/null' EXIT
echo '<alone>'; jobs
echo '<-l>'; jobs -l
echo '<%1>'; jobs %1
echo '<-p>'; jobs -p
echo '<words>'; ${shell === 'bash' ? 'jobs -x echo %1' : 'jobs -Z renamed-shell; echo "exit $?"'}
echo '<version>'; jobs --version
echo '<validate>'; jobs validate examples/adverts/; echo "exit $?"
echo '<typo>'; jobs valdate examples/adverts/; echo "exit $?"
echo '<completion>'; ${completion}
echo '<end>'
`;

describe.each(['bash', 'zsh'])('%s', (shell) => {
  let out: string;
  beforeAll(() => {
    const completion = shell === 'bash' ? 'complete -p jobs jobs-cli' : 'print -r -- "jobs=$_comps[jobs] jobs-cli=$_comps[jobs-cli]"';
    out = run(shell, POSIX_SCRIPT(shell, completion));
  });

  it('`jobs` alone, `jobs -l`, `jobs -p` and `jobs %1` are the shell builtin: they list the background job', () => {
    expect(section(out, 'alone')).toMatch(/^\[1\] *\+ +[Rr]unning +sleep 30/);
    expect(section(out, '-l')).toMatch(/^\[1\] *\+ +\d+ +[Rr]unning +sleep 30/);
    expect(section(out, '%1')).toMatch(/^\[1\] *\+ +[Rr]unning +sleep 30/);
    // bash prints the process id alone, zsh the job with it
    expect(section(out, '-p')).toMatch(shell === 'bash' ? /^\d+\n$/ : /^\[1\] *\+ +\d+ +running +sleep 30/);
    // options whose argument is a word: bash's -x runs it with %1 replaced by the job's process id
    expect(section(out, 'words')).toMatch(shell === 'bash' ? /^\d+\n$/ : /^exit 0\n$/);
  });

  it('everything else runs the CLI, found by its absolute path, which names itself jobs', () => {
    expect(section(out, 'version')).toBe(`${VERSION}\n`);
    expect(section(out, 'validate')).toContain('3 adverts in 2 files: all valid');
    expect(section(out, 'validate')).toContain('exit 0');
    expect(section(out, 'typo')).toContain("jobs: unknown command 'valdate'");
    expect(section(out, 'typo')).toContain("Run 'jobs --help' for usage.");
    expect(section(out, 'typo')).toContain('exit 2');
  });

  it('registers completion for jobs and jobs-cli', () => {
    if (shell === 'bash') expect(section(out, 'completion')).toBe('complete -F _jobs_cli jobs\ncomplete -F _jobs_cli jobs-cli\n');
    else expect(section(out, 'completion')).toBe('jobs=_jobs_cli jobs-cli=_jobs_cli\n');
  });
});

describe('bash completion through shell-init', () => {
  it('completes commands for jobs and jobs-cli, job specs after %, and profile names', () => {
    const complete = (...words: string[]) =>
      `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _jobs_cli; echo "\${COMPREPLY[*]}"`;
    const out = run(
      'bash',
      `eval "$(cat ${dir}/init.bash)"; sleep 30 >/dev/null 2>&1 & sleeper=$!; trap 'kill $sleeper 2>/dev/null' EXIT
${complete('jobs', 'va')}; ${complete('jobs-cli', 'va')}; ${complete('jobs', '')} ; ${complete('jobs', '%')}; ${complete('jobs', '--profile', '')}`,
    );
    const lines = out.split('\n');
    expect(lines[0]).toBe('validate');
    expect(lines[1]).toBe('validate');
    expect(lines[2]).toMatch(/^validate publish create .* shell-init version help$/);
    expect(lines[3]).toBe('%sleep');
    expect(lines[4]).toBe('ci');
  });
});

describe('zsh completion through shell-init', () => {
  it('works in an rc file without compinit', () => {
    const out = run('zsh', `eval "$(cat ${dir}/init.zsh)"; print -r -- "jobs=$_comps[jobs] jobs-cli=$_comps[jobs-cli]"`);
    expect(out).toBe('jobs=_jobs_cli jobs-cli=_jobs_cli\n');
  });

  it('completes `jobs valid` at an interactive prompt', () => {
    // A real interactive zsh on a pseudo-terminal: type, press Tab, read the screen.
    const driver = `
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z 'PROMPT="> "; autoload -Uz compinit; compinit -u -D -d ${dir}/zcompdump-i; eval "$(cat ${dir}/init.zsh)"'
zpty -w -n z "$1"$'\\t'
local out='' chunk i
for i in {1..100}; do
  zpty -r -t z chunk && out+=$chunk
  [[ $out == *"$2"* ]] && break
  sleep 0.1
done
zpty -d z
print -r -- "$out"`;
    const screen = (typed: string, expected: string) =>
      execFileSync('zsh', ['-f', '-c', driver, 'driver', typed, expected], { cwd: ROOT, env, encoding: 'utf8', timeout: 20_000 }).replace(
        /\x1b\[[0-9;?]*[A-Za-z]/g,
        '',
      );
    expect(screen('jobs valid', 'jobs validate ')).toContain('jobs validate ');
    expect(screen('jobs-cli valid', 'jobs-cli validate ')).toContain('jobs-cli validate ');
  });
});

describe('fish', () => {
  let out: string;
  beforeAll(() => {
    out = run(
      'fish',
      `set -gx PATH ${installedPath.split(':').join(' ')}
${rcLine('fish')}
set -gx PATH /usr/bin /bin
sleep 30 >/dev/null 2>&1 &
set -g sleeper $last_pid
function stop --on-event fish_exit; kill $sleeper 2>/dev/null; end
echo '<alone>'; jobs
echo '<-l>'; jobs -l
echo '<%1>'; jobs %1
echo '<-p>'; jobs -p
echo '<version>'; jobs --version
echo '<validate>'; jobs validate examples/adverts/; echo "exit $status"
echo '<typo>'; jobs valdate examples/adverts/; echo "exit $status"
echo '<completion>'; complete -C 'jobs val'; complete -C 'jobs-cli val'; complete -C 'jobs config '; complete -C 'jobs --profile '
echo '<end>'`,
    );
  });

  it('`jobs` alone, `jobs -l`, `jobs -p` and `jobs %1` are the shell builtin: they list the background job', () => {
    expect(section(out, 'alone')).toMatch(/^Job\tGroup\tCPU\tState\tCommand\n1\t.*\trunning\tsleep 30 /);
    expect(section(out, '-l')).toMatch(/^Job\tGroup\tCPU\tState\tCommand\n1\t.*\trunning\tsleep 30 /);
    expect(section(out, '%1')).toMatch(/^1\t.*running\tsleep 30 /);
    expect(section(out, '-p')).toMatch(/^Process\n\d+\n$/);
  });

  it('everything else runs the CLI, found by its absolute path, which names itself jobs', () => {
    expect(section(out, 'version')).toBe(`${VERSION}\n`);
    expect(section(out, 'validate')).toContain('3 adverts in 2 files: all valid');
    expect(section(out, 'validate')).toContain('exit 0');
    expect(section(out, 'typo')).toContain("Run 'jobs --help' for usage.");
    expect(section(out, 'typo')).toContain('exit 2');
  });

  it('completes jobs and jobs-cli', () => {
    const words = section(out, 'completion')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[0]);
    expect(words).toEqual(['validate', 'validate', 'get', 'list', 'path', 'set', 'unset', 'ci']);
  });
});

describe('an installation whose path has spaces and quotes', () => {
  it('is called correctly by bash, zsh and fish', () => {
    // A bin/jobs.js at an awkward path that runs the real one.
    const awkward = join(dir, "my app's folder", 'bin');
    mkdirSync(awkward, { recursive: true });
    const script = join(awkward, 'jobs.js');
    writeFileSync(script, `require(${JSON.stringify(BIN)});\n`);
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const init = shellInitScript(shell, { node: process.execPath, script, version: VERSION }, '');
      writeFileSync(join(dir, `awkward.${shell}`), init);
      const load = shell === 'fish' ? `source ${dir}/awkward.fish` : `eval "$(cat ${dir}/awkward.${shell})"`;
      expect(run(shell, `${load}; jobs --version`), shell).toBe(`${VERSION}\n`);
    }
    expect(readFileSync(join(dir, 'awkward.bash'), 'utf8')).toContain(`'${awkward.replace(/'/g, `'\\''`)}/jobs.js'`);
  });
});
