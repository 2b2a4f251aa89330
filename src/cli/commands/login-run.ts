/** `jobs login` and `jobs logout`: the token of the selected profile in the credentials store. */
import { canPrompt, type Context } from '../context.js';
import { UsageError } from '../../core/errors/failures.js';
import { removeCredential, storeCredential, storeKey } from '../../core/config/credentials.js';
import { displayPath, tildePath } from '../../core/config/paths.js';
import { resolveDetailed } from '../../core/config/resolve.js';
import { promptHidden } from '../output/hidden-prompt.js';
import { isJson, readAllStdin, writeJson, writeNote } from '../output/command-io.js';

export async function runLogin(ctx: Context, options: { withToken: boolean }): Promise<number> {
  const { config, profileDefined } = await resolveDetailed({ cwd: ctx.cwd, env: ctx.env, globals: ctx.globals }, { allowUnknownProfile: true });
  const profile = storeKey(config.profile.value);

  let input: string;
  if (options.withToken) {
    if (ctx.io.stdin.isTTY) writeNote(ctx, 'Paste the token, then press Enter and Ctrl-D.');
    input = await readAllStdin(ctx);
  } else if (canPrompt(ctx)) {
    input = await promptHidden(ctx, `Token for profile "${profile}" (input hidden): `);
  } else {
    throw new UsageError('cannot prompt for the token: no terminal (or --no-input)', {
      details: [`Pipe the token in instead:  echo "$JOBS_TOKEN" | ${ctx.name} login --with-token`],
    });
  }
  const token = input.trim();
  if (token === '') throw new UsageError(options.withToken ? 'no token on stdin; nothing was stored' : 'no token given; nothing was stored');
  if (/[\s\u0000-\u001f\u007f]/.test(token)) {
    throw new UsageError('the token contains spaces, line breaks or control characters; nothing was stored', {
      details: ['Give exactly the token, on one line.'],
    });
  }

  const baseUrl = config.baseUrl.value;
  const path = await storeCredential(ctx.env, config.profile.value, baseUrl ? { token, base_url: baseUrl } : { token });
  const shownPath = tildePath(path, ctx.env);
  if (isJson(ctx)) {
    writeJson(ctx, { profile, stored_in: path, base_url: baseUrl ?? null });
  } else {
    ctx.io.stdout.write(`Stored the token for profile "${profile}" in ${shownPath}${baseUrl ? ` (for ${baseUrl})` : ''}.\n`);
  }
  if (ctx.env.JOBS_TOKEN) writeNote(ctx, 'Note: JOBS_TOKEN is set in this environment and takes precedence over the stored token.');
  else if (ctx.globals.tokenFile) writeNote(ctx, 'Note: --token-file takes precedence over the stored token.');
  else if (config.token && config.token.source.kind === 'file') {
    writeNote(ctx, `Note: profile "${profile}" has a token in ${displayPath(config.token.source.path, ctx.cwd, ctx.env)}, which takes precedence over the stored one.`);
  }
  if (!profileDefined && config.profile.value !== undefined && !baseUrl) {
    writeNote(ctx, `Note: profile "${profile}" has no base URL yet: ${ctx.name} config set profiles.${profile}.base_url <url>`);
  }
  writeNote(ctx, `Run '${ctx.name} doctor' to check that the service accepts it.`);
  return 0;
}

export async function runLogout(ctx: Context): Promise<number> {
  const { config } = await resolveDetailed({ cwd: ctx.cwd, env: ctx.env, globals: ctx.globals }, { allowUnknownProfile: true });
  const profile = storeKey(config.profile.value);
  const { path, removed } = await removeCredential(ctx.env, config.profile.value);
  if (isJson(ctx)) {
    writeJson(ctx, { profile, removed, path });
  } else if (removed) {
    ctx.io.stdout.write(`Removed the stored token for profile "${profile}" from ${tildePath(path, ctx.env)}.\n`);
  } else {
    ctx.io.stdout.write(`No token was stored for profile "${profile}"; nothing to remove.\n`);
  }
  if (ctx.env.JOBS_TOKEN) writeNote(ctx, 'Note: JOBS_TOKEN is still set in this environment, and is still used.');
  return 0;
}
