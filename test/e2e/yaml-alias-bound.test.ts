/**
 * Every YAML input has the adverts' bound on alias expansion (util/yaml-aliases.ts): a 1 MB file
 * whose aliases repeat a 900,000-character text 1,000 times is refused at the alias that passes
 * 1,000,000 characters, with file:line:col and the documented exit code. Before, an events file
 * expanded each event to hundreds of MB (a dry run printed gigabytes for minutes), and configs and
 * --data-file were read whole, bounded only by the yaml package's count of 100 aliases.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const TEXT = 'a'.repeat(900_000);
const ALIASES = `[${Array.from({ length: 1000 }, () => '*n').join(', ')}]`;
const SAID = 'the alias *n makes aliases repeat over 1000000 characters in the document (an alias bomb?); write the value out once, or use fewer aliases';
const ADVERT = join(ROOT, 'examples/adverts/backend-engineer.yaml');
// Each error points at the second alias of the list: the first past the bound.

describe('the alias bound on YAML inputs other than adverts (built binary)', () => {
  it('an events file: exit 3 at the alias, nothing posted', async () => {
    const dir = tempDir('jobs-alias-events-');
    writeFileSync(
      join(dir, 'events.yaml'),
      `- application_id: "1"\n  kind: recruiter_view\n  data: {note: &n "${TEXT}"}\n- application_id: "2"\n  kind: recruiter_view\n  data: {many: ${ALIASES}}\n`,
    );
    const r = await jobs(['--sandbox', 'events', 'events.yaml', '--dry-run'], { cwd: dir, env: isolatedEnv(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout + r.stderr).toContain(`events.yaml:6:21: ${SAID}`);
    expect(r.stdout.length).toBeLessThan(10_000);
  }, 30_000);

  it('a project config: exit 2 at the alias', async () => {
    const dir = tempDir('jobs-alias-project-');
    writeFileSync(join(dir, '.jobsrc.yaml'), `x-text: &n "${TEXT}"\ndefaults:\n  skills: ${ALIASES}\n`);
    const r = await jobs(['validate', ADVERT], { cwd: dir, env: isolatedEnv(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`.jobsrc.yaml:3:16: invalid YAML: ${SAID}`);
  }, 30_000);

  it('the user config, read by a command and by config set: exit 2 at the alias', async () => {
    const env = isolatedEnv();
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'jobs'));
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), `x-text: &n "${TEXT}"\nx-many:\n  - ${ALIASES}\n`);
    const dir = tempDir('jobs-alias-user-');
    for (const args of [
      ['validate', ADVERT],
      ['config', 'set', 'concurrency', '3'],
    ]) {
      const r = await jobs(args, { cwd: dir, env, timeoutMs: 20_000 });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`config.yaml:3:10: invalid YAML: ${SAID}`);
    }
  }, 30_000);

  it('event --data-file: exit 3 at the alias, nothing posted', async () => {
    const dir = tempDir('jobs-alias-data-');
    writeFileSync(join(dir, 'data.yaml'), `note: &n "${TEXT}"\nx: 1\nmany: ${ALIASES}\n`);
    const r = await jobs(['--sandbox', 'event', '1', 'recruiter_view', '--data-file', 'data.yaml'], { cwd: dir, env: isolatedEnv(), timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`--data-file data.yaml:3:12: ${SAID}`);
  }, 30_000);
});
