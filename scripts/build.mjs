// Build: compile the JSON Schemas to validation code (ajv standalone), then bundle with esbuild:
// - dist/cli.cjs: the CLI as one CommonJS bundle, written as its module wrapper function (modules inside still initialise lazily), ASCII only
//   (scripts/ascii-only.mjs), with a V8 code cache (dist/cli.cache) so each start skips most of the
//   compiling; see bin/jobs.js.
// - dist/validate-worker.cjs: the worker thread of a large `validate`, a bundle of its own.
// - dist/index.js (+ chunks): the programmatic API as ES modules; dependencies stay in node_modules.
// - dist/man/man1/*.1: the man pages, made from the commander program itself (manPages()), listed in
//   package.json's `man`.
// First, src/cli/commands/index.ts from the command folders (generate-commands.mjs).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { generateValidators } from './generate-validators.mjs';
import { CLI_WRAPPER, makeCodeCache } from './code-cache.mjs';
import { writeCommands } from './generate-commands.mjs';
import { asciiOnly } from './ascii-only.mjs';
import { lazyNamespaces } from './lazy-namespaces.mjs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

/**
 * commander requires node:child_process when it loads (for executable subcommands, which jobs does
 * not use), and that module pulls in net, dgram and more. Hand commander a proxy that loads it only
 * if it is ever used.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'jobs-lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'jobs-lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_target, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

/**
 * cosmiconfig's JavaScript loader (load.ts runs a config the user trusts with it) stays in
 * node_modules: its import() of a config file needs Node's module loader, which code compiled through
 * vm.Script (bin/jobs.js) has none of. The search itself is src/core/config/explorer.ts.
 */
const cosmiconfigLoaders = {
  name: 'cosmiconfig-loaders',
  setup(b) {
    b.onResolve({ filter: /^cosmiconfig\/dist\/loaders\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
const common = {
  absWorkingDir: new URL('.', root).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  minifySyntax: true,
  legalComments: 'none',
  define: { __JOBS_VERSION__: JSON.stringify(pkg.version) },
  // cosmiconfig loads TypeScript only for .ts config files, which we do not load. The keyring
  // package is an optional dependency with a native binary: required from node_modules when a
  // command needs it (src/core/config/keyring.ts), absent without harm.
  external: ['typescript', '@napi-rs/keyring'],
  logLevel: 'warning',
};

/** The commands whose run.ts stays in dist/cli.cjs: the start-up that is measured. */
const IN_CLI = new Set(['validate']);
const srcRoot = new URL('.', root).pathname;
const commandsDir = join(srcRoot, 'src', 'cli', 'commands');

/**
 * Beside the other commands' run.ts, the modules dist/cli.cjs loads with import() that validate
 * does not use (src/ paths, or packages by name): the API client and what asks for a token, the
 * embedded sandbox, the spinner (ora, cli-spinners), the JUnit and Code Quality reports.
 */
const REST = [
  'ora',
  'src/cli/client-for.ts',
  'src/cli/output/codequality.ts',
  'src/cli/output/hidden-prompt.ts',
  'src/cli/output/junit.ts',
  'src/cli/output/live-line.ts',
  'src/cli/output/prompt.ts',
  'src/cli/output/request-status.ts',
  'src/core/config/keyring.ts',
  'src/core/sandbox/embedded.ts',
];

/** The key of an import() of `spec` from `importer`: its path from the project root, or the package's name. */
function restKey(spec, importer) {
  if (!spec.startsWith('.')) return spec;
  return relative(srcRoot, resolve(dirname(importer), spec)).replace(/\.js$/, '.ts');
}

// import.meta.url in a CommonJS bundle: the bundle's own file URL, made when it is read. Made in the
// banner, pathToFileURL cost 0.5 ms of every start, where only some commands' code reads it.
const IMPORT_META = "const __jobsImportMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };";

const cliOptions = {
  ...common,
  format: 'cjs',
  // Less to read and hash at every start; names stay, so --verbose stack traces still read.
  minifyWhitespace: true,
  // import() of Node built-ins becomes require(): code compiled through vm.Script (bin/jobs.js)
  // has no loader for real dynamic imports.
  supported: { 'dynamic-import': false },
  // The sources are ES modules; in the CommonJS bundle import.meta.url is the bundle's own URL.
  define: { ...common.define, 'import.meta.url': '__jobsImportMeta.url' },
  banner: { js: IMPORT_META },
  metafile: true,
  write: false,
};

writeCommands();
await generateValidators();
await rm(new URL('dist', root), { recursive: true, force: true });
await Promise.all([
  declarations(),
  manPages(),
  cliBundles(),
  // The worker threads of a large `validate` (src/core/bulk/run-files.ts), loaded only by such a run.
  build({
    ...common,
    entryPoints: ['src/core/bulk/worker.ts'],
    outfile: 'dist/validate-worker.cjs',
    format: 'cjs',
    minifyWhitespace: true,
    supported: { 'dynamic-import': false },
    define: { ...common.define, 'import.meta.url': '__jobsImportMeta.url' },
    banner: { js: IMPORT_META },
    write: false,
  }).then(writeAscii),
  build({
    ...common,
    entryPoints: ['src/index.ts'],
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // The dependencies are installed beside the package: import them from node_modules, so Node's
    // own CommonJS interop applies. Bundled into split ES chunks, a CommonJS package such as yaml
    // became a chunk with only a default export, and `(await import('yaml')).parse` was undefined.
    packages: 'external',
  }),
]);
await makeCodeCache();

/**
 * The CLI in two files. dist/cli.cjs holds what every start needs and validate's whole path;
 * dist/cli-rest.cjs the other commands' run.ts and what only they use (sync, events, export,
 * report, the API client, markdown-it, ...), required by bin/jobs.js's loader at the first
 * import() of such a run.ts, with its own code cache. A start of validate so reads and compiles
 * only dist/cli.cjs, and creates none of the rest's functions (esbuild hoists every module's
 * functions to the bundle's top level, where V8 creates them all as the bundle loads).
 *
 * Modules both use exist once, in dist/cli.cjs (one instance: error classes, the output streams,
 * the lock): it lists them (`__jobsModules`, a require of each) and dist/cli-rest.cjs reads them
 * from it. Only the modules the rest imports directly are listed: each becomes a lazily
 * initialised module in dist/cli.cjs, a little dearer.
 */
async function cliBundles() {
  const runs = (await readdir(commandsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && !IN_CLI.has(entry.name) && existsSync(join(commandsDir, entry.name, 'run.ts')))
    .map((entry) => `src/cli/commands/${entry.name}/run.ts`);
  // What goes to dist/cli-rest.cjs: the modules these import() calls load, and what only they use.
  const restKeys = [...runs, ...REST].sort();
  const restSource =
    'export function load(key) {\n  switch (key) {\n' +
    restKeys.map((key) => `    case ${JSON.stringify(key)}: return import(${JSON.stringify(key.startsWith('src/') ? `./${key}` : key)});`).join('\n') +
    "\n  }\n  return Promise.reject(new Error('jobs: dist/cli-rest.cjs has no ' + key));\n}\n";

  // In dist/cli.cjs, an import() of one of them becomes dist/cli-rest.cjs's load(), which makes the
  // same import() there: the same module namespace, a promise of it.
  const toRest = {
    name: 'cli-rest-imports',
    setup(b) {
      b.onResolve({ filter: /^\.\/cli(-rest)?\.cjs$/ }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        let moved = false;
        const contents = text.replace(/(\btypeof\s+)?\bimport\((['"])([^'"]+)\2\)/g, (call, type, _quote, spec) => {
          const key = type ? undefined : restKey(spec, args.path);
          if (!key || !restKeys.includes(key)) return call;
          moved = true;
          return `require('./cli-rest.cjs').load(${JSON.stringify(key)})`;
        });
        return moved ? { contents, loader: 'ts', resolveDir: dirname(args.path) } : undefined;
      });
    },
  };
  const mainEntry = (modules) => ({
    contents:
      `export * from './src/cli/main.ts';\nexport const __jobsModules = {\n` +
      modules.map((file) => `  ${JSON.stringify(file)}: () => require(${JSON.stringify(`./${file}`)}),`).join('\n') +
      '\n};\n',
    resolveDir: srcRoot,
    sourcefile: 'cli-entry.ts',
    loader: 'ts',
  });
  const mainBuild = (modules) =>
    build({ ...cliOptions, stdin: mainEntry(modules), outfile: 'dist/cli.cjs', plugins: [lazyChildProcess, cosmiconfigLoaders, toRest] });
  const restBuild = (shared) =>
    build({
      ...cliOptions,
      stdin: { contents: restSource, resolveDir: srcRoot, sourcefile: 'cli-rest-entry.ts', loader: 'ts' },
      outfile: 'dist/cli-rest.cjs',
      plugins: [
        lazyChildProcess,
        cosmiconfigLoaders,
        {
          name: 'cli-shared',
          setup(b) {
            b.onResolve({ filter: /^\.\/cli\.cjs$/ }, (args) => ({ path: args.path, external: true }));
            b.onResolve({ filter: /.*/ }, async (args) => {
              if (args.pluginData === 'cli-shared' || args.namespace !== 'file' || shared.size === 0) return undefined;
              const found = await b.resolve(args.path, { importer: args.importer, resolveDir: args.resolveDir, kind: args.kind, pluginData: 'cli-shared' });
              const file = found.errors.length === 0 && found.namespace === 'file' ? relative(srcRoot, found.path) : undefined;
              return file && shared.has(file) ? { path: file, namespace: 'jobs-main' } : undefined;
            });
            b.onLoad({ filter: /.*/, namespace: 'jobs-main' }, (args) => ({
              contents: `module.exports = require('./cli.cjs').__jobsModules[${JSON.stringify(args.path)}]();`,
              loader: 'js',
              resolveDir: srcRoot,
            }));
          },
        },
      ],
    });

  // First the two graphs, to find the modules the rest imports from the main bundle.
  const [mainGraph, restGraph] = await Promise.all([mainBuild([]), restBuild(new Set())]);
  const inMain = new Set(Object.keys(mainGraph.metafile.inputs));
  const shared = new Set();
  for (const [file, input] of Object.entries(restGraph.metafile.inputs)) {
    if (inMain.has(file)) continue;
    for (const imported of input.imports) if (inMain.has(imported.path) && !imported.path.includes(':')) shared.add(imported.path);
  }
  const list = [...shared].sort();
  const [main, rest] = await Promise.all([mainBuild(list), restBuild(shared)]);
  const twice = Object.keys(rest.metafile.inputs).filter((file) => main.metafile.inputs[file] && !file.includes(':'));
  if (twice.length > 0) throw new Error(`dist/cli-rest.cjs would hold its own copy of ${twice.join(', ')}`);
  const shape = (file) => (code) => asFunction(lazyNamespaces(code, file));
  await Promise.all([writeAscii(main, shape('dist/cli.cjs')), writeAscii(rest, shape('dist/cli-rest.cjs'))]);
}

/** Writes an esbuild result's one file as ASCII (see scripts/ascii-only.mjs; bin/jobs.js reads dist/cli.cjs as latin1), shaped by `shape`. */
async function writeAscii({ outputFiles: [file] }, shape = (code) => code) {
  await mkdir(dirname(file.path), { recursive: true });
  await writeFile(file.path, asciiOnly(shape(file.text), file.path));
}

/**
 * dist/cli.cjs is written as the function Node would wrap a CommonJS module in, which bin/jobs.js
 * compiles as it is read: wrapping it at every start copied the 1.5 MB text into a new string
 * (some 400 page faults and 2 M instructions of each start). scripts/code-cache.mjs takes the cache
 * from a run of bin/jobs.js itself, so both compile the same text, as V8 requires.
 */
function asFunction(code) {
  return `${CLI_WRAPPER}${code}\n})`;
}

/**
 * dist/man/man1/: one page per command, from the same commander program the CLI runs (its
 * descriptions, options, notes and examples), so `man jobs-sync` cannot drift from `jobs sync --help`.
 * package.json's `man` lists them (a test checks it), so npm installs them with the package.
 */
async function manPages() {
  const dir = await mkdtemp(join(tmpdir(), 'jobs-man-build-'));
  const script = join(dir, 'write-man-pages.cjs');
  try {
    await build({
      ...common,
      entryPoints: ['src/cli/help/write-man-pages.ts'],
      outfile: script,
      format: 'cjs',
      external: [...common.external, 'cosmiconfig'],
      define: { ...common.define, 'import.meta.url': '__jobsImportMeta.url' },
      banner: { js: IMPORT_META },
    });
    const written = createRequire(import.meta.url)(script).writeManPages(new URL('dist/man/man1', root).pathname);
    await listManPages(written);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * package.json's `man`, the pages npm installs, is the list of pages just written: npm reads it
 * from package.json itself, so it is written there (jobs.1 first, then by name) when it differs.
 * test/adopt/man.test.ts fails when it is stale.
 */
async function listManPages(files) {
  const man = [...files].sort((a, b) => (a === 'jobs.1' ? -1 : b === 'jobs.1' ? 1 : a < b ? -1 : 1)).map((file) => `./dist/man/man1/${file}`);
  const file = new URL('package.json', root);
  const current = JSON.parse(await readFile(file, 'utf8'));
  if (JSON.stringify(current.man) === JSON.stringify(man)) return;
  const tmp = new URL('package.json.tmp', root);
  await writeFile(tmp, `${JSON.stringify({ ...current, man }, null, 2)}\n`);
  await rename(tmp, file);
  console.log(`package.json: man lists the ${man.length} pages built`);
}

/**
 * dist/index.d.ts (and the .d.ts files it refers to) for the programmatic API: tsc writes only
 * declarations (tsconfig.build.json), in a child process running beside esbuild, so the build takes
 * as long as the slower of the two rather than their sum.
 */
function declarations() {
  const tsc = new URL('node_modules/typescript/bin/tsc', root).pathname;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: new URL('.', root).pathname, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tsc (type declarations) failed with exit code ${code}`))));
  }).then(() =>
    // Declarations import the generated validators' types; tsc does not copy a .d.ts input.
    cp(new URL('src/core/generated/validators.d.ts', root), new URL('dist/core/generated/validators.d.ts', root)),
  );
}
