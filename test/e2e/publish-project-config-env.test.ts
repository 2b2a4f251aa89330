/**
 * The built binary against a real loopback server: a project config's `${AWS_SECRET_ACCESS_KEY}`
 * reaches neither the wire nor the output; a variable the user config allows by name does reach
 * the body. The server records every request it receives.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advertYaml } from '../commands/harness.js';
import { isolatedEnv, jobs } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const TOKEN = 'tok_live_0123456789abcdef';
const AWS = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
let server: Server;
let base: string;
let received: string[];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${body}`);
      res.writeHead(req.method === 'POST' ? 201 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
});

function project(question: string): string {
  const dir = tempDir('jobs-project-');
  writeFileSync(join(dir, '.jobsrc.yaml'), `defaults:\n  question: "${question}"\n`);
  writeFileSync(join(dir, 'a.yaml'), advertYaml('A-1'));
  return dir;
}

describe('the built jobs and a project config reading the environment', () => {
  it('${AWS_SECRET_ACCESS_KEY}: publish and publish --dry-run exit 2; nothing on the wire, the secret in no output', async () => {
    const dir = project('${AWS_SECRET_ACCESS_KEY}');
    const env = isolatedEnv({ JOBS_BASE_URL: base, JOBS_TOKEN: TOKEN, AWS_SECRET_ACCESS_KEY: AWS });
    for (const args of [
      ['publish', 'a.yaml'],
      ['publish', 'a.yaml', '--dry-run'],
      ['publish', 'a.yaml', '--dry-run', '--json'],
    ]) {
      const r = await jobs(args, { cwd: dir, env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('${AWS_SECRET_ACCESS_KEY} is not read: a project config may read only the environment variables you allow by name');
      expect(r.stdout + r.stderr).not.toContain(AWS);
    }
    expect(received).toEqual([]);
  });

  it('a variable the user config allows by name is read and sent', async () => {
    const dir = project('${WHY_US}');
    const env = isolatedEnv({ JOBS_BASE_URL: base, JOBS_TOKEN: TOKEN, WHY_US: 'Robots!' });
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'jobs'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), 'allow_env: [WHY_US]\n');
    const r = await jobs(['publish', 'a.yaml'], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatch(/^POST \/jobs \{/);
    expect(JSON.parse(received[0]!.slice('POST /jobs '.length))).toMatchObject({ reference: 'A-1', question: 'Robots!' });
  });
});
