// Build: compile the JSON Schemas to validation code (ajv standalone), then bundle the CLI with
// esbuild, one chunk per lazily loaded module, so start-up reads little and compiles no schema.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { generateValidators } from './generate-validators.mjs';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

await generateValidators();
await rm(new URL('dist', root), { recursive: true, force: true });
await build({
  absWorkingDir: new URL('.', root).pathname,
  entryPoints: ['src/cli.ts', 'src/index.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  minifySyntax: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __JOBS_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __jobsCreateRequire } from 'node:module'; const require = __jobsCreateRequire(import.meta.url);" },
  // cosmiconfig loads TypeScript only for .ts config files, which we do not search for.
  external: ['typescript'],
  logLevel: 'warning',
});
