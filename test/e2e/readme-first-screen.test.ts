/**
 * The README's first screen works verbatim on a fresh machine: the repository's files as a clone
 * has them (no node_modules, no dist), a fresh HOME, and the README's set-up block run line by line
 * in a shell (`npm install`, then `npm start`, which publishes the examples to the embedded
 * sandbox), then each line of its short tour, then `npm test`'s format and lint checks, which what
 * the tour wrote (`.jobs/`, new adverts) must not break. npm installs from its cache (CI ran `npm ci`
 * before), so no network is needed.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess, type Run } from '../support/run-process.js';
import { ROOT, isolatedEnv } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The lines of the first ```sh block under a `## ` heading. */
function shellBlock(heading: string): string[] {
  const section = README.split(`\n## ${heading}\n`)[1]!.split(/^## /m)[0]!;
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section)![1]!;
  return block.split('\n').filter((l) => l.trim() !== '');
}

/** Runs one line in sh, in the clone; at most `timeoutMs`. */
function sh(line: string, cwd: string, env: Record<string, string>, timeoutMs: number): Promise<Run> {
  return runProcess('/bin/sh', ['-c', line], { cwd, env, timeoutMs, label: line });
}

const clone = tempDir('jobs-first-screen-');

describe("the README's first screen, on a fresh machine", () => {
  it(
    "npm install, then npm start, then the short tour: each line exits 0, and npm test's format and lint checks pass after it",
    { timeout: 480_000 },
    async () => {
      // What a clone holds: the tracked files, and those not ignored (this change, before its commit).
      const files = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
        .stdout.split('\0')
        .filter(Boolean);
      expect(files).toContain('package.json');
      for (const file of files) {
        if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree
        mkdirSync(dirname(join(clone, file)), { recursive: true });
        cpSync(join(ROOT, file), join(clone, file));
      }
      expect(existsSync(join(clone, 'node_modules'))).toBe(false);
      expect(existsSync(join(clone, 'dist'))).toBe(false);

      const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
      const env = isolatedEnv({
        PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
        npm_config_cache: cache,
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        CI: 'true',
      });

      const setup = shellBlock('Install and first run');
      expect(setup).toEqual(['npm install', 'npm start']);
      const install = await sh(setup[0]!, clone, env, 240_000);
      expect(install.code, install.stderr).toBe(0);
      expect(existsSync(join(clone, 'dist/cli.cjs'))).toBe(true);
      const start = await sh(setup[1]!, clone, env, 60_000);
      expect(start.code, start.stderr).toBe(0);
      expect(start.stdout + start.stderr).toMatch(/ACME-0042/);

      const tour = shellBlock('A short tour');
      expect(tour.length).toBeGreaterThanOrEqual(5);
      for (const line of tour) {
        const r = await sh(line, clone, env, 60_000);
        expect(r.code, `$ ${line}\n${r.stderr}`).toBe(0);
      }
      expect(existsSync(join(clone, '.jobs', 'report.html'))).toBe(true);

      // What the tour wrote into the clone (.jobs/, the new adverts) does not break npm test's checks.
      for (const check of ['npm run format:check', 'npm run lint']) {
        const r = await sh(check, clone, env, 180_000);
        expect(r.code, `$ ${check}\n${r.stdout}${r.stderr}`).toBe(0);
      }
    },
  );
});
