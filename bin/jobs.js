#!/usr/bin/env node
// Loads the built CLI, nothing else. The only place that calls process.exit.
//
// Start-up is a feature, so this file is CommonJS (bin/package.json says so): an ES module entry
// would start Node's ESM loader, which costs more than everything below. The CLI is one CommonJS
// bundle (dist/cli.cjs, written as its module wrapper function) compiled with a V8 code cache made
// at build time (Node 20 has no compile cache of its own); when that cache does not fit this Node,
// one is made in the user's cache folder on the first run. --version answers before any of it.
'use strict';
const { mkdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const args = process.argv.slice(2);
const root = join(__dirname, '..');

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
  process.exit(0);
}

const bundle = join(root, 'dist', 'cli.cjs');
let source;
try {
  // latin1: a plain copy into a one-byte string. The build keeps the bundle ASCII (scripts/ascii-only.mjs),
  // where utf8 would decode it, slower, and one non-ASCII character would make it a two-byte string.
  source = readFileSync(bundle, 'latin1');
} catch {
  process.stderr.write('jobs: the CLI is not built (dist/cli.cjs is missing): run `npm install` or `npm run build`\n');
  process.exit(2);
}

const read = (file) => {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
};
const userCache = () => {
  const { size, mtimeMs } = statSync(bundle);
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'jobs', `cli-${process.version}-${size}-${Math.trunc(mtimeMs)}.cache`);
};
// The bundle is one function expression of CommonJS's arguments (scripts/build.mjs writes it so: a
// wrapper added here would copy its 1.5 MB into a new string at every start). The same source and
// options as scripts/code-cache.mjs: V8 accepts a cache only for them.
const compile = (cachedData) => new Script(source, { filename: bundle, cachedData });

const built = read(join(root, 'dist', 'cli.cache'));
let script = compile(built);
let cached = built !== undefined && script.cachedDataRejected === false;
if (!cached) {
  const own = read(userCache());
  if (own) {
    script = compile(own);
    cached = script.cachedDataRejected === false;
  }
}

const cli = { exports: {} };
script.runInThisContext()(cli.exports, createRequire(bundle), cli, bundle, dirname(bundle));
cli.exports.run(args, { handleSignals: true, invokedAs: process.argv[1] }).then((code) => {
  if (!cached) {
    // Best effort: a read-only or missing cache folder only costs speed.
    try {
      const file = userCache();
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, script.createCachedData());
    } catch {
      // ignore
    }
  }
  // process.exit drops what a pipe has not taken yet (`jobs events big.ndjson --dry-run | wc -l`
  // would count a fraction of the lines): exit once stdout and stderr have handed everything over
  // (src/cli/output/lazy-stdio.ts; touching process.stdout here would make a stream just to exit).
  cli.exports.drained().then(() => process.exit(code));
});
