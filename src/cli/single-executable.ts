/**
 * Entry of the single executable (`npm run build:binary`, scripts/build-binary.mjs): what
 * bin/jobs.js does for the npm package (run, then exit once stdout and stderr are drained), without
 * its code cache (Node's single executable carries V8's own) and its package.json (the version is
 * built in).
 */
import { drained, run } from './main.js';

void run(process.argv.slice(2), { handleSignals: true, invokedAs: process.argv[1] }).then((code) => drained().then(() => process.exit(code)));
