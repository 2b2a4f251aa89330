// Makes dist/cli.cache: the V8 code cache of dist/cli.cjs, taken after running the command that
// must start fastest (validate), so the functions it uses are in it. The cache is the one
// bin/jobs.js makes for itself when it has none (in the user's cache folder), from a real run in a
// clean environment: the same source, options and flags as every start, which V8 requires for a
// cache to be accepted, and the same path through stdout, stderr, signals and exit, which an
// in-process run with stand-in streams left out (2.7 M more instructions at each start).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** How dist/cli.cjs begins (scripts/build.mjs): a function of CommonJS's arguments, which bin/jobs.js calls. */
export const CLI_WRAPPER = '(function (exports, require, module, __filename, __dirname) {';

export async function makeCodeCache() {
  const cache = join(root, 'dist', 'cli.cache');
  rmSync(cache, { force: true });
  const home = mkdtempSync(join(tmpdir(), 'jobs-code-cache-'));
  try {
    // No NODE_OPTIONS: a flag changes what V8 accepts.
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), NO_COLOR: '1' };
    const run = spawnSync(process.execPath, [join(root, 'bin', 'jobs.js'), 'validate', join(root, 'examples', 'adverts')], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (run.status !== 0) throw new Error(`code cache: jobs validate examples/adverts exited ${run.status ?? run.signal}: ${run.stderr}`);
    const made = readdirSync(join(home, 'cache', 'jobs')).filter((name) => name.endsWith('.cache'));
    if (made.length !== 1) throw new Error(`code cache: the run made ${made.length} caches`);
    copyFileSync(join(home, 'cache', 'jobs', made[0]), cache);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await makeCodeCache();
