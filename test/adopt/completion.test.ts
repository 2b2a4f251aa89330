/**
 * Shell completion: the scripts come from the program's own definitions (every command and option
 * is in them); what they complete in the real shells is completion.real.test.ts.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobs } from '../commands/harness.js';
import { jobsModel } from './cli-shape.js';
import { completionProject } from './completion-project.js';
import { allCommands } from '../../src/cli/completion/model.js';
import { tempDir } from '../support/temp-dirs.js';

let dir: string;
let env: Record<string, string>;
let scripts: Record<string, string>;

beforeAll(async () => {
  ({ dir, env, scripts } = await completionProject());
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
