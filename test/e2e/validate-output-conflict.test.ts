/** `--json` with another `--output` asks for two formats: refused (exit 2), never one picked silently. */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

describe('--json with --output <another format>', () => {
  it('is refused before anything runs, in either order and spelling (exit 2)', async () => {
    const env = isolatedEnv();
    try {
      for (const args of [
        ['--json', '--output', 'github', 'validate', 'examples/adverts/'],
        ['-o', 'github', 'validate', '--json', 'examples/adverts/'],
        ['--output=sarif', 'publish', '--dry-run', '--json', 'examples/adverts/'],
      ]) {
        const r = await jobs(args, { env });
        const format = args.includes('github') ? 'github' : 'sarif';
        expect(r.stderr, args.join(' ')).toBe(
          `jobs-cli: --json and --output ${format} ask for two output formats; give one\n  --json is short for --output json: drop one of them\n`,
        );
        expect(r.stdout).not.toContain('::error');
        expect(r.code).toBe(2);
      }
      // The same format twice is no conflict.
      const same = await jobs(['--json', '--output', 'json', 'validate', 'examples/adverts/'], { env });
      expect(JSON.parse(same.stdout).valid).toBe(true);
      expect(same.code).toBe(0);
    } finally {
      rmSync(env.HOME!, { recursive: true, force: true });
    }
  });
});
