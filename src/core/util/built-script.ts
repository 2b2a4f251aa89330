/**
 * A script built beside the code that runs (a worker thread's bundle in dist/): next to the CLI
 * bundle (dist/cli.cjs), one folder up from the programmatic API's chunks (dist/chunks/). Undefined
 * when running from sources (tests), where the callers do without the thread.
 *
 * In the single executable there is no file beside it: its worker bundles are assets inside it
 * (scripts/build-binary.mjs), and a worker starts from the asset's source (`eval`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function builtScript(name: string): string | undefined {
  if (SINGLE_EXECUTABLE) return singleExecutableAsset(name);
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

/** The options that let `new Worker(builtScript(name), ...)` start it: its source, in the single executable. */
export function builtScriptOptions(): { eval?: true } {
  return SINGLE_EXECUTABLE ? { eval: true } : {};
}

declare const __JOBS_SINGLE_EXECUTABLE__: boolean | undefined;

/** True in the single executable (scripts/build-binary.mjs defines it). */
export const SINGLE_EXECUTABLE: boolean = typeof __JOBS_SINGLE_EXECUTABLE__ === 'boolean' && __JOBS_SINGLE_EXECUTABLE__;

function singleExecutableAsset(name: string): string | undefined {
  try {
    // Not imported: node:sea exists only where the single executable runs (and node:module, which
    // createRequire needs, loads Node's ESM loader at every start).
    const sea = process.getBuiltinModule('node:sea') as typeof import('node:sea');
    return sea.getAsset(name, 'utf8');
  } catch {
    // Not built with it: the callers do without the thread.
    return undefined;
  }
}
