/** Starts sandboxes on 127.0.0.1 (port 0) and talks to them with fetch over real sockets. */
import { afterEach } from 'vitest';
import { createSandbox } from '../../src/core/sandbox/server.js';
import type { Sandbox, SandboxOptions } from '../../src/core/sandbox/types.js';

const running: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is. */
  raw?: string;
  /** undefined: `Bearer sandbox`; null: no Authorization header. */
  auth?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface Running {
  sandbox: Sandbox;
  baseUrl: string;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
}

export async function start(options: SandboxOptions = {}): Promise<Running> {
  const sandbox = createSandbox(options);
  running.push(sandbox);
  const { baseUrl } = await sandbox.listen(0, '127.0.0.1');
  return { sandbox, baseUrl, call: (method, path, o) => call(baseUrl, method, path, o) };
}

export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = {};
  if (options.auth !== null) headers.Authorization = options.auth ?? 'Bearer sandbox';
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  Object.assign(headers, options.headers);
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(5000) });
  const text = await response.text();
  let json: unknown = undefined;
  if (text !== '') json = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, json };
}

/** A complete advert that passes the create schema. */
export function advert(reference: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    reference,
    title: 'Backend Engineer',
    organization_name: 'ACME Robotics',
    company_description: 'ACME builds warehouse robots.',
    job_description: 'Design and run the route planner.',
    contract_id: 1,
    salary_id: 3,
    salary_text: '650 000 NOK',
    industry_id: 12,
    department_id: 4,
    seniority: 3,
    education: 3,
    location: { country: 'NO', city: 'Oslo' },
    recruiter: { email: 'hiring@acme.example' },
    ...overrides,
  };
}

/** A clock tests move by hand. */
export function manualClock(start = Date.UTC(2030, 0, 1)) {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}
