/**
 * action.yml, the composite GitHub Action, as written: its steps and inputs. Run in bash as a runner
 * runs it: action.real.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { action, ROOT } from './action-file.js';

describe('action.yml (composite action)', () => {
  it('sets up Node with actions/setup-node, then installs and runs the tool in bash steps', () => {
    expect(action.runs.using).toBe('composite');
    const [setup, ...rest] = action.runs.steps;
    expect(setup!.uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(setup!.with?.['node-version']).toBe('${{ inputs.node-version }}');
    expect(rest.every((s) => s.run !== undefined && s.shell === 'bash')).toBe(true);
    expect(action.inputs.command?.required).toBe(true);
    // Inputs reach scripts through env only: an input spliced into a script's text could inject code.
    for (const s of rest) expect(s.run, s.name).not.toMatch(/\$\{\{/);
  });

  it('is shown in README.md and docs/ci.md under the repository install.md names, with the tarball to install until jobs-cli is on the registry', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const tarball = `https://github.com/<owner>/jobs/releases/download/v${version}/jobs-cli-${version}.tgz`;
    expect(readFileSync(join(ROOT, 'docs/install.md'), 'utf8')).toContain(tarball);
    for (const file of ['README.md', 'docs/ci.md', 'action.yml']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(
        [...text.matchAll(/uses: (\S+)@/g)].map((m) => m[1]).filter((u) => u?.startsWith('<owner>/')),
        file,
      ).toEqual(['<owner>/jobs']);
      expect(text, file).toContain(`version: ${tarball}`);
    }
  });
});
