/**
 * Profile names for shell completion: those defined in the config files that apply here and those
 * in the credentials store. Called on every <Tab>, so it reads only what it needs, and a broken
 * config file yields the names it could read instead of an error (completion must never fail loudly).
 */
import type { Context } from '../context.js';
import { readCredentials } from '../../core/config/credentials.js';
import { loadConfigFiles } from '../../core/config/load.js';

export async function profileNames(ctx: Context): Promise<string[]> {
  const names = new Set<string>();
  try {
    const found = await loadConfigFiles({
      cwd: ctx.cwd,
      env: ctx.env,
      configFlag: ctx.globals.config,
      ...(ctx.globals.allowEnv ? { allowEnv: ctx.globals.allowEnv } : {}),
    });
    for (const layer of found.layers) for (const name of Object.keys(layer.profiles)) names.add(name);
  } catch {
    // an unreadable config: complete what the store knows
  }
  try {
    const { store } = await readCredentials(ctx.env);
    for (const name of Object.keys(store.profiles)) names.add(name);
  } catch {
    // a damaged store: complete what the config files know
  }
  return [...names].sort();
}
