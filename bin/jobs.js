#!/usr/bin/env node
// Loads the built CLI, nothing else. The only place that calls process.exit.
//
// Start-up is a feature, so this file is CommonJS (bin/package.json says so): an ES module entry
// would start Node's ESM loader, which costs more than everything below. The CLI is CommonJS
// (dist/cli.cjs and the chunks it requires as a command needs them, each written as its module
// wrapper function) compiled with V8 code caches made at build time (Node 20 has no compile cache
// of its own); when a cache does not fit this Node, one is made in the user's cache folder on the
// first run. --version answers before any of it.
'use strict';
const { mkdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const args = process.argv.slice(2);
const root = join(__dirname, '..');

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
  process.exit(0);
}

const dist = join(root, 'dist');
const bundle = join(dist, 'cli.cjs');

const read = (file) => {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
};
const userCache = (file, name) => {
  const { size, mtimeMs } = statSync(file);
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'jobs', `${name}-${process.version}-${size}-${Math.trunc(mtimeMs)}.cache`);
};

// The CLI is dist/cli.cjs and chunks beside it (dist/cli-<hash>.cjs, scripts/build.mjs), each one
// function expression of CommonJS's arguments (a wrapper added here would copy the text into a new
// string at every start), compiled with its V8 code cache (dist/<name>.cache, else one made in the
// user cache folder). The same source and options as scripts/code-cache.mjs: V8 accepts a cache only for them.
// This file's own require: dist/ and bin/ share the package's node_modules, and a chunk is asked for by
// chunkRequire (createRequire would load node:module, and with it Node's ESM loader, at every start).
const nodeRequire = require;
const modules = new Map();
const uncached = [];
const load = (name) => {
  const file = join(dist, `${name}.cjs`);
  // latin1: a plain copy into a one-byte string. The build keeps the bundle ASCII (scripts/ascii-only.mjs),
  // where utf8 would decode it, slower, and one non-ASCII character would make it a two-byte string.
  const source = readFileSync(file, 'latin1');
  const compile = (cachedData) => new Script(source, { filename: file, cachedData });
  const built = read(join(dist, `${name}.cache`));
  let script = compile(built);
  let cached = built !== undefined && script.cachedDataRejected === false;
  if (!cached) {
    const own = read(userCache(file, name));
    if (own) {
      script = compile(own);
      cached = script.cachedDataRejected === false;
    }
    if (!cached) uncached.push({ file, name, script });
  }
  const module = { exports: {} };
  modules.set(name, module);
  script.runInThisContext()(module.exports, chunkRequire, module, file, dist);
  return module.exports;
};
// A chunk is asked for as './cli-<hash>.cjs'; anything else is Node's.
function chunkRequire(id) {
  const chunk = /^\.\/(cli(?:-rest)?)\.cjs$/.exec(id);
  if (!chunk) return nodeRequire(id);
  const module = modules.get(chunk[1]);
  return module ? module.exports : load(chunk[1]);
}
chunkRequire.resolve = nodeRequire.resolve;
chunkRequire.cache = nodeRequire.cache;

let cli;
try {
  cli = load('cli');
} catch (error) {
  if (error.code !== 'ENOENT' || error.path !== bundle) throw error;
  process.stderr.write('jobs: the CLI is not built (dist/cli.cjs is missing): run `npm install` or `npm run build`\n');
  process.exit(2);
}
cli.run(args, { handleSignals: true, invokedAs: process.argv[1] }).then((code) => {
  for (const { file, name, script } of uncached) {
    // Best effort: a read-only or missing cache folder only costs speed.
    try {
      const own = userCache(file, name);
      mkdirSync(dirname(own), { recursive: true });
      writeFileSync(own, script.createCachedData());
    } catch {
      // ignore
    }
  }
  // process.exit drops what a pipe has not taken yet (`jobs events big.ndjson --dry-run | wc -l`
  // would count a fraction of the lines): exit once stdout and stderr have handed everything over
  // (src/cli/output/lazy-stdio.ts; touching process.stdout here would make a stream just to exit).
  cli.drained().then(() => process.exit(code));
});
