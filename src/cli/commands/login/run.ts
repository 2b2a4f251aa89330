/** `jobs login`: the token of the selected profile, into the credentials store (logout/run.ts takes it out). */
import { canPrompt, type Context } from '../../context.js';
import { UsageError } from '../../../core/errors/failures.js';
import { storeKey } from '../../../core/config/credentials.js';
import { saveToken, tokenDestination } from '../../../core/config/token-store.js';
import { displayPath, tildePath } from '../../../core/config/paths.js';
import { resolveDetailed } from '../../../core/config/resolve.js';
import { usesSandbox } from '../../../core/config/sandbox-source.js';
import { promptHidden } from '../../output/hidden-prompt.js';
import { isJson, readAllStdin, writeJson, writeNote } from '../../output/command-io.js';

export async function runLogin(ctx: Context, options: { withToken: boolean; insecureStorage?: boolean }): Promise<number> {
  const { config, profileDefined } = await resolveDetailed(
    { cwd: ctx.cwd, env: ctx.env, globals: ctx.globals },
    { allowUnknownProfile: true, skipKeyring: true },
  );
  const profile = storeKey(config.profile.value);
  // The sandbox has its own token; a token stored now would be bound to no service URL.
  if (usesSandbox(config))
    throw new UsageError(
      `--sandbox uses the sandbox's own token: there is nothing to log in to; run '${ctx.name} login' without --sandbox to store a token for the service`,
    );

  // Said before the token is asked for: where it is about to go.
  const destination = `The token will be stored in ${tokenDestination(ctx.env, config.profile.value, { insecureStorage: Boolean(options.insecureStorage) })}.`;
  let input: string;
  if (options.withToken) {
    if (ctx.io.stdin.isTTY) writeNote(ctx, `${destination}\nPaste the token, then press Enter and Ctrl-D.`);
    input = await readAllStdin(ctx);
  } else if (canPrompt(ctx)) {
    writeNote(ctx, destination);
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
  const saved = await saveToken(ctx.env, config.profile.value, token, { baseUrl, insecureStorage: Boolean(options.insecureStorage) });
  const where = saved.storage === 'keyring' ? `the ${saved.label}` : tildePath(saved.path, ctx.env);
  if (isJson(ctx)) {
    writeJson(ctx, { profile, storage: saved.storage, stored_in: saved.storage === 'keyring' ? saved.label : saved.path, base_url: baseUrl ?? null });
  } else {
    ctx.io.stdout.write(`Stored the token for profile "${profile}" in ${where}${baseUrl ? ` (for ${baseUrl})` : ''}.\n`);
  }
  // Said once, here: later commands read the file without a word.
  if (saved.fallback !== undefined) {
    writeNote(
      ctx,
      `Note: no OS keyring answered, so the token is in a file only you can read (mode 0600): ${saved.fallback}. Pass --insecure-storage to choose the file without trying the keyring.`,
    );
  }
  if (ctx.env.JOBS_TOKEN) writeNote(ctx, 'Note: JOBS_TOKEN is set in this environment and takes precedence over the stored token.');
  else if (ctx.globals.tokenFile) writeNote(ctx, 'Note: --token-file takes precedence over the stored token.');
  else if (config.token && config.token.source.kind === 'file') {
    writeNote(
      ctx,
      `Note: profile "${profile}" has a token in ${displayPath(config.token.source.path, ctx.cwd, ctx.env)}, which takes precedence over the stored one.`,
    );
  }
  if (!profileDefined && config.profile.value !== undefined && !baseUrl) {
    writeNote(ctx, `Note: profile "${profile}" has no base URL yet: ${ctx.name} config set profiles.${profile}.base_url <url>`);
  }
  writeNote(ctx, `Run '${ctx.name} doctor' to check that the service accepts it.`);
  return 0;
}
