// Makes dist/cli.cache and dist/cli-<hash>.cache: the V8 code caches of dist/cli.cjs and its chunks,
// dist/cli.cjs's taken after running the command that must start fastest (validate), so the
// functions it uses are in it. The cache is the one
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

/**
 * The runs that make the caches, in order: each writes the caches of the files it compiled without
 * one (bin/jobs.js), so dist/cli.cache comes from validate's run and a chunk's from the first run
 * that loads it. A chunk none of them loads gets its cache in the user's folder at its first use.
 */
const RUNS = [['validate', 'examples/adverts'], ['--sandbox', 'sync', 'examples/adverts', '--dry-run'], ['--help']];

export async function makeCodeCache() {
  const dist = join(root, 'dist');
  for (const name of readdirSync(dist)) if (/^cli(-[A-Z0-9]+)?\.cache$/.test(name)) rmSync(join(dist, name));
  const home = mkdtempSync(join(tmpdir(), 'jobs-code-cache-'));
  try {
    // No NODE_OPTIONS: a flag changes what V8 accepts.
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), NO_COLOR: '1' };
    for (const args of RUNS) {
      const run = spawnSync(process.execPath, [join(root, 'bin', 'jobs.js'), ...args], {
        cwd: root,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
        timeout: 60_000,
      });
      if (run.status !== 0) throw new Error(`code cache: jobs ${args.join(' ')} exited ${run.status ?? run.signal}: ${run.stderr}`);
    }
    const made = readdirSync(join(home, 'cache', 'jobs')).filter((name) => name.endsWith('.cache'));
    if (!made.some((name) => name.startsWith('cli-v'))) throw new Error(`code cache: no cache of dist/cli.cjs among ${made.join(', ')}`);
    // <name>-v<node version>-<size>-<mtime>.cache (bin/jobs.js) becomes dist/<name>.cache.
    for (const name of made) copyFileSync(join(home, 'cache', 'jobs', name), join(dist, `${name.replace(/-v\d.*$/, '')}.cache`));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await makeCodeCache();
