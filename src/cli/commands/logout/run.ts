/** `jobs logout`: the token of the selected profile, out of the credentials store (keyring and file). */
import type { Context } from '../../context.js';
import { storeKey } from '../../../core/config/credentials.js';
import { forgetToken } from '../../../core/config/token-store.js';
import { tildePath } from '../../../core/config/paths.js';
import { resolveDetailed } from '../../../core/config/resolve.js';
import { isJson, writeJson, writeNote } from '../../output/command-io.js';

export async function runLogout(ctx: Context): Promise<number> {
  const { config } = await resolveDetailed({ cwd: ctx.cwd, env: ctx.env, globals: ctx.globals }, { allowUnknownProfile: true, skipKeyring: true });
  const profile = storeKey(config.profile.value);
  const { path, removed, from, keyringError } = await forgetToken(ctx.env, config.profile.value);
  const places = from.map((place) => (place === 'keyring' ? 'the OS keyring' : tildePath(path, ctx.env))).join(' and ');
  if (isJson(ctx)) {
    writeJson(ctx, { profile, removed, from, path });
  } else if (removed) {
    ctx.io.stdout.write(`Removed the stored token for profile "${profile}" from ${places}.\n`);
  } else if (keyringError === undefined) {
    ctx.io.stdout.write(`No token was stored for profile "${profile}"; nothing to remove.\n`);
  }
  if (keyringError !== undefined) {
    // The token may still be in the keyring: the file keeps its mark, so the next logout tries again.
    ctx.io.stderr.write(
      `${ctx.name}: could not remove the token of profile "${profile}" from the OS keyring: ${keyringError}\n  Unlock the keyring and run '${ctx.name} logout' again, or delete the entry (service "jobs-cli", account "${profile}") with your keychain tool.\n`,
    );
    return 1;
  }
  if (ctx.env.JOBS_TOKEN) writeNote(ctx, 'Note: JOBS_TOKEN is still set in this environment, and is still used.');
  return 0;
}
