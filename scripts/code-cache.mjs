// Makes dist/cli.cache: the V8 code cache of dist/cli.cjs, taken after running the commands that
// must start fastest (help, validate), so the functions they use are in it. bin/jobs.js compiles
// the bundle, a function expression (CLI_WRAPPER), with the same options, which V8 requires for the
// cache to be accepted.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { Script } from 'node:vm';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** How dist/cli.cjs begins (scripts/build.mjs): a function of CommonJS's arguments, which bin/jobs.js calls. */
export const CLI_WRAPPER = '(function (exports, require, module, __filename, __dirname) {';

export async function makeCodeCache() {
  const bundle = join(root, 'dist', 'cli.cjs');
  // As bin/jobs.js reads it (the same string: the bundle is ASCII).
  const source = readFileSync(bundle, 'latin1');
  const script = new Script(source, { filename: bundle });
  const cli = { exports: {} };
  script.runInThisContext()(cli.exports, createRequire(bundle), cli, bundle, dirname(bundle));
  const sink = { write: () => true, isTTY: false };
  const io = () => ({ stdin: Readable.from([]), stdout: sink, stderr: sink });
  const env = { HOME: join(root, 'dist'), NO_COLOR: '1' };
  for (const argv of [['validate', join(root, 'examples', 'adverts')]]) {
    await cli.exports.run(argv, { io: io(), env, cwd: root });
  }
  writeFileSync(join(root, 'dist', 'cli.cache'), script.createCachedData());
}

if (import.meta.url === `file://${process.argv[1]}`) await makeCodeCache();
