/**
 * Temp folders of the test suite, which must leave the machine's temp directory as it found it.
 * A run gets a folder of its own (TMPDIR, set by temp-run.ts, vitest's globalSetup), each test file a
 * folder inside that one (temp-file.ts, a setup file), so `os.tmpdir()` in a test or in a process it
 * spawns with the inherited environment points there. A test makes its folders with `tempDir(prefix)`:
 * they are removed when the test file ends, after its own afterAll hooks (so a mount or a server
 * stopped there is gone first). Whatever else a file leaves in its folder fails the file, and whatever
 * is left in the run's folder fails the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new empty folder `<tmpdir>/<prefix>XXXXXX`, removed when the test file ends. */
export function tempDir(prefix = 'jobs-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made in this test file (temp-file.ts calls it). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
