import { defineConfig } from 'vitest/config';

// Tests against real components (shells, a browser, proxies, a keyring, man, pre-commit, JUnit
// readers, a tmpfs mounted as root) are named *.real.test.ts and run by `npm run test:real`, whose
// project first checks that every component is here (scripts/real-components.mjs) and fails naming
// what is missing. `npm test` runs the rest, which need only Node and npm.
const REAL = ['test/**/*.real.test.ts'];
// The memory tests hold the built binary to a small V8 heap (28 and 32 MB). How close a run comes to
// that limit depends on how the collector is paced, which a machine busy with the rest of the suite
// changes, so they run last, one at a time.
const MEMORY = ['test/e2e/*-memory.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20000,
    hookTimeout: 20000,
    pool: 'forks',
    reporters: ['default', './test/support/closing-line.ts'],
    // The run's own temp folder, each file's inside it, and the checks that the tests leave nothing there.
    globalSetup: ['./test/support/temp-run.ts'],
    setupFiles: ['./test/support/temp-file.ts'],
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: [...MEMORY, ...REAL], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'memory', include: MEMORY, fileParallelism: false, sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: { name: 'real', include: REAL, globalSetup: ['./test/support/temp-run.ts', './scripts/real-components.mjs'], sequence: { groupOrder: 2 } },
      },
    ],
  },
});
