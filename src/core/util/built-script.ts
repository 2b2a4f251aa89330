/**
 * A script built beside the code that runs (a worker thread's bundle in dist/): next to the CLI
 * bundle (dist/cli.cjs), one folder up from the programmatic API's chunks (dist/chunks/). Undefined
 * when running from sources (tests), where the callers do without the thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function builtScript(name: string): string | undefined {
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
