// npm run build:binary: `jobs` as ONE executable file for the machine it runs on (jobs.exe on
// Windows), for people without Node: Node's single executable applications.
//
//   1. esbuild bundles the whole CLI (the sandbox and the report included) into one CommonJS file,
//      every dependency inside: the executable has no node_modules to require from.
//   2. node --experimental-sea-config turns it into a blob (with V8's code cache).
//   3. postject injects the blob into a copy of this node binary (NODE_SEA_FUSE sentinel).
//
// The worker threads' bundles are assets inside it. What the single file does without: the OS
// keyring (its native module: `jobs login` keeps the token in the 0600 file), JavaScript config
// files, `shell-init`, and `schema --path`/`init`'s path to the schemas inside an installed package. Usage: node scripts/build-binary.mjs [--out <file>]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateValidators } from './generate-validators.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const windows = process.platform === 'win32';
const macos = process.platform === 'darwin';
const outArg = process.argv.indexOf('--out');
const out = resolve(outArg > 0 ? process.argv[outArg + 1] : join(root, 'build', windows ? 'jobs.exe' : 'jobs'));
const work = join(dirname(out), '.sea-work');

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) fail(`Node ${process.version} cannot build it: use Node 20.19+ (the executable is this node)`);

/**
 * A module that loads a package at run time (`const require = process.getBuiltinModule('node:module')
 * .createRequire(import.meta.url)`, validation/countries.ts) loads it from node_modules beside the
 * file; inside the executable there is none. Without that line, its `require('<package>')` calls are
 * the bundle's own, and esbuild puts the package in the bundle instead. (Replacing the expression
 * alone left `const require = require`, a reference before its definition, or `.require` of
 * node:module, undefined: the executable never named a country's code.)
 */
const LOCAL_REQUIRE = /^\s*const require = process\.getBuiltinModule\('node:module'\)\.createRequire\(import\.meta\.url\);\n/m;
const requireInBundle = {
  name: 'require-in-bundle',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('createRequire(')) return undefined;
      const contents = text.replace(LOCAL_REQUIRE, '');
      if (contents.includes('createRequire(')) fail(`${args.path}: a createRequire the executable cannot bundle (scripts/build-binary.mjs: requireInBundle)`);
      return { contents, loader: 'ts' };
    });
  },
};

// The validators compiled from the schemas: made by `npm run build` (and `npm ci`); remade here only
// when missing or older than a schema, so a build beside running tests does not rewrite them.
const generated = join(root, 'src/core/generated/validators.js');
const schemas = join(root, 'schemas');
if (
  !existsSync(generated) ||
  [join(root, 'scripts/generate-validators.mjs'), ...readdirSync(schemas).map((f) => join(schemas, f))].some(
    (f) => statSync(f).mtimeMs > statSync(generated).mtimeMs,
  )
) {
  await generateValidators();
}
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const bundle = join(work, 'jobs.cjs');
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [requireInBundle],
  // import() becomes require(): the executable's main script has no loader for dynamic imports.
  supported: { 'dynamic-import': false },
  define: {
    __JOBS_VERSION__: JSON.stringify(pkg.version),
    __JOBS_SINGLE_EXECUTABLE__: 'true',
    'import.meta.url': '__jobsImportMetaUrl',
  },
  banner: { js: "const __jobsImportMetaUrl = require('node:url').pathToFileURL(process.execPath).href;" },
  // A native module cannot be inside (the keyring falls back to the file); TypeScript is for .ts
  // config files, which jobs does not read.
  external: ['@napi-rs/keyring', 'typescript'],
};
// The worker threads' bundles ride inside as assets: a worker starts from the source (eval), with
// every module it needs bundled in (src/core/util/built-script.ts).
const workers = {
  'validate-worker.cjs': 'src/core/bulk/worker.ts',
};
await Promise.all([
  build({ ...common, entryPoints: ['src/cli/single-executable.ts'], outfile: bundle }),
  ...Object.entries(workers).map(([name, entry]) => build({ ...common, entryPoints: [entry], outfile: join(work, name) })),
]);

const blob = join(work, 'sea-prep.blob');
writeFileSync(
  join(work, 'sea-config.json'),
  JSON.stringify({
    main: bundle,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    useSnapshot: false,
    assets: Object.fromEntries(Object.keys(workers).map((name) => [name, join(work, name)])),
  }),
);
run(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')]);

mkdirSync(dirname(out), { recursive: true });
rmSync(out, { force: true });
copyFileSync(process.execPath, out);
chmodSync(out, 0o755);
// A copy of a signed binary must lose its signature before it changes (macOS; Windows: signtool).
if (macos) run('codesign', ['--remove-signature', out]);
// A distribution's node may carry its symbols and debug info (Debian's: 13 MB); the executable needs neither.
if (process.platform === 'linux' && spawnSync('strip', ['--version']).status === 0) run('strip', ['--strip-all', out]);

const { inject } = await import('postject');
await inject(out, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ...(macos ? { machoSegmentName: 'NODE_SEA' } : {}),
  overwrite: true,
});
if (macos) run('codesign', ['--sign', '-', out]);
rmSync(work, { recursive: true, force: true });

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
process.stderr.write(`built ${out} (${mb(statSync(out).size)}, ${process.platform}-${process.arch}, Node ${process.version})\n`);

function run(file, args) {
  const r = spawnSync(file, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.error || r.status !== 0) fail(`${file} ${args.join(' ')} failed${r.error ? `: ${r.error.message}` : ` with exit code ${r.status}`}`);
}

function fail(message) {
  process.stderr.write(`build:binary: ${message}\n`);
  process.exit(1);
}
