/**
 * `jobs help config` on ${VAR}: what it says is what the tool does (issue 30: it said both "in a
 * value" and "only in profiles.<name>.token"). Each sentence is run against the built binary.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

describe('jobs help config: ${VAR}', () => {
  it('says one thing, and each part of it holds', async () => {
    const env = isolatedEnv({ ORG: 'Acme', JOBS_TOKEN: 'tok_e2e' });
    const home = env.HOME!;
    try {
      const help = await jobs(['help', 'config'], { env });
      const text = help.stdout.replace(/\s+/g, ' ');
      expect(text).toContain(
        "${VAR} in any value reads the environment variable VAR ($${VAR} is the text ${VAR}; an unset one is an error): in the user config and a file named with --config, any variable; in a project config, only those allowed by name (allow_env below, or --allow-env VAR). The token's variables (JOBS_TOKEN, and those a profiles.<name>.token reads) are read only in profiles.<name>.token",
      );
      expect(text).not.toContain('only in profiles.<name>.token for the token');

      const project = join(home, 'project');
      mkdirSync(project);
      const get = (...args: string[]) => jobs([...args, 'config', 'get', 'defaults.organization_name'], { env, cwd: project });
      // A project config: only a variable allowed by name; $${VAR} is the text.
      writeFileSync(join(project, '.jobsrc.yaml'), 'defaults:\n  organization_name: ${ORG} $${ORG}\n');
      const refused = await get();
      expect(refused.stderr).toContain('${ORG} is not read: a project config may read only the environment variables you allow by name');
      expect(refused.code).toBe(2);
      expect((await get('--allow-env', 'ORG')).stdout).toBe('Acme ${ORG}\n');
      // The user config: any variable, in any value; an unset one is an error; the token's variables only in a profile's token.
      rmSync(join(project, '.jobsrc.yaml'));
      mkdirSync(join(env.XDG_CONFIG_HOME!, 'jobs'));
      writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), 'defaults:\n  organization_name: ${ORG}\n');
      expect((await get()).stdout).toBe('Acme\n');
      writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), 'defaults:\n  organization_name: ${UNSET_E2E}\n');
      expect((await get()).stderr).toContain('environment variable UNSET_E2E is not set');
      writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), 'defaults:\n  organization_name: ${JOBS_TOKEN}\n');
      const token = await get();
      expect(token.stderr).toContain('${JOBS_TOKEN} holds the service token; only profiles.<name>.token may read it');
      expect(token.stdout + token.stderr).not.toContain('tok_e2e');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
