/**
 * Shell completion: the scripts come from the program's own definitions (every command and option
 * is in them), and they complete what a user expects in a real bash, zsh and fish (CI installs
 * them; a missing shell fails): commands, subcommands, options, option values, profile names and file paths.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobs } from '../commands/harness.js';
import { jobsModel } from './cli-shape.js';
import { allCommands } from '../../src/cli/completion/model.js';
import { tempDir } from '../support/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../..');

let dir: string;
let env: Record<string, string>;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  // A project with profiles in its config, one more in the credentials store, and a `jobs` on the
  // PATH (the built CLI) for the scripts to ask for profile names.
  dir = tempDir('jobs-completion-');
  const home = join(dir, 'home');
  mkdirSync(join(home, 'config', 'jobs'), { recursive: true });
  writeFileSync(join(home, 'config', 'jobs', 'credentials.json'), JSON.stringify({ version: 1, profiles: { ci: { token: 't' } } }), { mode: 0o600 });
  mkdirSync(join(dir, 'project', 'adverts'), { recursive: true });
  writeFileSync(join(dir, 'project', '.jobsrc.yaml'), 'profiles:\n  prod:\n    base_url: https://a.example\n  staging:\n    base_url: https://b.example\n');
  writeFileSync(join(dir, 'project', 'adverts', 'backend.yaml'), 'reference: A\n');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'jobs'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/jobs.js')}" "$@"\n`);
  chmodSync(join(bin, 'jobs'), 0o755);
  env = {
    PATH: [bin, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    NO_COLOR: '1',
  };
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runJobs(['completion', shell]);
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = r.stdout;
    writeFileSync(join(dir, `jobs.${shell}`), r.stdout);
  }
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('jobs completion <shell>', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: names every command, subcommand and option of the CLI', (shell) => {
    const model = jobsModel();
    const script = scripts[shell]!;
    for (const c of allCommands(model)) expect(script, `${shell}: ${c.path.join(' ')}`).toContain(c.name);
    for (const o of [...model.globals, ...allCommands(model).flatMap((c) => c.options)]) {
      const long = o.long!.slice(2);
      expect(script, `${shell}: --${long}`).toContain(shell === 'fish' ? `-l ${long}` : `--${long}`);
    }
  });

  it('refuses an unknown shell with the choices (exit 2)', async () => {
    const r = await runJobs(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.");
  });

  it('lists profile names from the config files and the credentials store, for the scripts', async () => {
    const r = await runJobs(['completion', '__profiles'], { cwd: join(dir, 'project'), env: { HOME: env.HOME!, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME! } });
    expect(r).toEqual({ code: 0, stdout: 'ci\nprod\nstaging\n', stderr: '' });
  });

  it('lists what it can when the config is broken, and never fails', async () => {
    const broken = tempDir('jobs-completion-broken-');
    writeFileSync(join(broken, '.jobsrc.yaml'), 'profiles: [not, a, map\n');
    const r = await runJobs(['completion', '__profiles'], { cwd: broken, env: { HOME: env.HOME!, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME! } });
    expect(r).toEqual({ code: 0, stdout: 'ci\n', stderr: '' });
  });
});
