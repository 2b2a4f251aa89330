/**
 * man (Debian's man-db) renders every page the build wrote without a warning.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('man pages', () => {
  it('man renders every page without a warning', () => {
    for (const file of readdirSync(join(ROOT, 'dist/man/man1'))) {
      if (file === 'jobs-cli.1') continue; // .so is resolved from a man root, not with -l
      const r = spawnSync('man', ['--warnings', '-l', join(ROOT, 'dist/man/man1', file)], {
        encoding: 'utf8',
        env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' },
        timeout: 15_000,
      });
      expect(r.error).toBeUndefined();
      expect(r.stderr, file).toBe('');
      expect(r.status, file).toBe(0);
      expect(r.stdout).toMatch(/^NAME$/m);
    }
  });
});
