/** action.yml as both action tests read it: its inputs and steps. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface Step {
  uses?: string;
  with?: Record<string, string>;
  name?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
export interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: Step[] };
}
export const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
