/**
 * action.yml, the composite GitHub Action, as written: its steps and inputs. Run in bash as a runner
 * runs it: action.real.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');

interface Step {
  uses?: string;
  with?: Record<string, string>;
  name?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: Step[] };
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

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
});
