/**
 * Entry of the single executable (`npm run build:binary`, scripts/build-binary.mjs): what
 * bin/jobs.js does for the npm package (run, then exit once stdout and stderr are drained), without
 * its code cache (Node's single executable carries V8's own) and its package.json (the version is
 * built in).
 */
import { run } from './main.js';

void run(process.argv.slice(2), { handleSignals: true, invokedAs: process.argv[1] }).then((code) =>
  Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => process.exit(code)),
);

/** As in bin/jobs.js: resolves when what was written to `stream` has gone out, or it is gone. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((done) => {
    setImmediate(() => {
      if (stream.destroyed || !stream.writableLength) return done();
      stream.once('close', done);
      stream.once('error', () => done());
      stream.write('', () => done());
    });
  });
}
