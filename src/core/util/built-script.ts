/**
 * A script built beside the code that runs (a worker thread's bundle in dist/): next to the CLI
 * bundle (dist/cli.cjs), one folder up from the programmatic API's chunks (dist/chunks/). Undefined
 * when running from sources (tests), where the callers do without the thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function builtScript(name: string): string | undefined {
  // The single executable is one file: a script beside it is not ours to start.
  if (SINGLE_EXECUTABLE) return undefined;
  for (const relative of [`./${name}`, `../${name}`]) {
    try {
      const path = fileURLToPath(new URL(relative, import.meta.url));
      if (existsSync(path)) return path;
    } catch {
      // not a file: URL
    }
  }
  return undefined;
}

declare const __JOBS_SINGLE_EXECUTABLE__: boolean | undefined;

/**
 * True in the single executable (scripts/build-binary.mjs defines it). It has no worker scripts on
 * disk, and a worker thread cannot load one from inside it: runs use one thread there.
 */
export const SINGLE_EXECUTABLE: boolean = typeof __JOBS_SINGLE_EXECUTABLE__ === 'boolean' && __JOBS_SINGLE_EXECUTABLE__;
