/**
 * The project both completion tests complete in: profiles in its config, one more in the
 * credentials store, an advert file, and a `jobs` on the PATH (the built CLI) for the scripts to
 * ask for profile names; with the three shells' scripts written beside it.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { expect } from 'vitest';
import { runJobs } from '../commands/harness.js';
import { tempDir } from '../support/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../..');

export type CompletionProject = { dir: string; env: Record<string, string>; scripts: Record<string, string> };

export async function completionProject(): Promise<CompletionProject> {
  const dir = tempDir('jobs-completion-');
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
  const env = {
    PATH: [bin, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    NO_COLOR: '1',
  };
  const scripts: Record<string, string> = {};
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runJobs(['completion', shell]);
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = r.stdout;
    writeFileSync(join(dir, `jobs.${shell}`), r.stdout);
  }
  return { dir, env, scripts };
}
