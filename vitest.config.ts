import { defineConfig } from 'vitest/config';

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
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: MEMORY, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'memory', include: MEMORY, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
