import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { execute } from '../../src/cli/program.js';
import { tempDir } from '../support/temp-dirs.js';

export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command in-process with fake streams and a private HOME (removed when the test file ends), as a user would type it. */
export async function runJobs(argv: string[], options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const home = tempDir('jobs-home-');
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), NO_COLOR: '1', ...options.env };
  const stdin = Object.assign(Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]), { isTTY: false });
  const code = await execute(argv, {
    io: { stdin, stdout: { write: (s: string) => (stdout += s), isTTY: false }, stderr: { write: (s: string) => (stderr += s), isTTY: false } },
    env,
    cwd: options.cwd ?? process.cwd(),
    handleSignals: false,
  });
  return { code, stdout, stderr };
}

/** A temp folder holding `files` (name: text), removed when the test file ends (temp-dirs.ts). */
export function tempFolder(files: Record<string, string>): string {
  const dir = tempDir('jobs-cmd-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

export const advertYaml = (reference: string, extra = '') => `reference: ${reference}
title: Engineer
organization_name: ACME
company_description: Robots.
job_description: Build robots.
contract_id: 1
salary_id: 2
salary_text: 50000
industry_id: 3
department_id: 4
seniority: 0
education: 0
location:
  country: NO
  city: Oslo
recruiter:
  email: hr@acme.example
${extra}`;

export const advertBody = (reference: string) => ({
  reference,
  title: 'Engineer',
  organization_name: 'ACME',
  company_description: 'Robots.',
  job_description: 'Build robots.',
  contract_id: 1,
  salary_id: 2,
  salary_text: '50000',
  industry_id: 3,
  department_id: 4,
  seniority: 0,
  education: 0,
  location: { country: 'NO', city: 'Oslo' },
  recruiter: { email: 'hr@acme.example' },
});

export const SERVICE = 'https://jobs.example.test/api';
export const serviceEnv = { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok_secret_123' };
