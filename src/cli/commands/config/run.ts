/** `jobs config get|set|unset|list|path`. */
import { access } from 'node:fs/promises';
import { join, resolve as resolvePath } from 'node:path';
import { stringify as toYaml } from 'yaml';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../../core/errors/failures.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { credentialsFile, displayPath } from '../../../core/config/paths.js';
import { describeSource, describeToken } from '../../../core/config/describe.js';
import { formatDuration } from '../../../core/config/duration.js';
import { checkKey, editTarget, parseKey, setKey, typedValue, unsetKey } from '../../../core/config/edit.js';
import { isSoleReference } from '../../../core/config/interpolate.js';
import { isJavaScriptConfig, locateConfigFiles } from '../../../core/config/load.js';
import { cloneData, defineKey, isPlainObject } from '../../../core/config/plain.js';
import { lookup, resolveDetailed } from '../../../core/config/resolve.js';
import { effectiveRows, fileRows, renderRows, rowsJson } from '../../output/settings-table.js';
import type { SettingSource } from '../../../core/config/types.js';
import { isJson, writeJson, writeNote, writeWarnings } from '../../output/command-io.js';

const EFFECTIVE_KEYS = ['profile', 'base_url', 'token', 'auth_scheme', 'concurrency', 'timeout', 'retries', 'allow_insecure_http'];

function resolveInput(ctx: Context) {
  return { cwd: ctx.cwd, env: ctx.env, globals: ctx.globals };
}

export async function runConfigGet(ctx: Context, keyText: string): Promise<number> {
  const path = parseKey(keyText);
  if (path.length > 1 || !EFFECTIVE_KEYS.includes(keyText)) checkKey(path);
  const details = await resolveDetailed(resolveInput(ctx));
  writeWarnings(ctx, details.config.warnings);

  let value: unknown;
  let source: SettingSource | undefined;
  if (keyText === 'token') {
    const token = details.config.token;
    if (isJson(ctx)) writeJson(ctx, { key: 'token', set: token !== undefined, source: token?.source ?? null });
    else if (token) ctx.io.stdout.write(`${describeToken(token.source, ctx.cwd, ctx.env)}\n`);
    return token ? 0 : notSet(ctx, keyText);
  }
  if (EFFECTIVE_KEYS.includes(keyText)) {
    const row = effectiveRows(details.config, ctx.cwd, ctx.env).find((r) => r.key === keyText)!;
    value = keyText === 'timeout' ? formatDuration(details.config.timeoutMs.value) : (row.value ?? undefined);
    source = row.source;
  } else {
    const found = lookup(details.found.layers, path);
    value = maskTokens(path, found?.value);
    source = found?.source;
  }
  if (value === undefined) {
    if (isJson(ctx)) writeJson(ctx, { key: keyText, value: null, source: null });
    return notSet(ctx, keyText);
  }
  if (isJson(ctx)) writeJson(ctx, { key: keyText, value, source: source ?? null });
  else if (isPlainObject(value) || Array.isArray(value)) ctx.io.stdout.write(sanitize(toYaml(value), true));
  else ctx.io.stdout.write(`${sanitize(String(value))}\n`);
  return 0;
}

function notSet(ctx: Context, key: string): number {
  if (!ctx.globals.quiet) ctx.io.stderr.write(`${ctx.name}: ${key} is not set\n`);
  return ExitCode.rejected;
}

/** Literal tokens inside a value shown by `get` become "(set)"; `${VAR}` references stay. */
function maskTokens(path: string[], value: unknown): unknown {
  const isTokenPath = (p: string[]) => p.length === 3 && p[0] === 'profiles' && p[2] === 'token';
  const mask = (p: string[], v: unknown): unknown => {
    if (isTokenPath(p)) return typeof v === 'string' && isSoleReference(v) ? v : '(set)';
    if (isPlainObject(v)) {
      const out = cloneData(v);
      for (const [k, item] of Object.entries(out)) defineKey(out, k, mask([...p, k], item));
      return out;
    }
    return v;
  };
  return value === undefined ? undefined : mask(path, value);
}

export async function runConfigSet(ctx: Context, keyText: string, rawValue: string, options: { project: boolean }): Promise<number> {
  const path = parseKey(keyText);
  const value = typedValue(path, rawValue);
  const target = await editTarget({ cwd: ctx.cwd, env: ctx.env, configFlag: ctx.globals.config, project: options.project });
  if (target.scope === 'project' && keyText === 'allow_insecure_http') {
    throw new UsageError('allow_insecure_http is not read from a project config: a checkout must not be able to send your token over plain http', {
      details: ["Set it in your user config: 'jobs config set allow_insecure_http true' (without --project)."],
    });
  }
  if (target.scope === 'project' && path.length === 3 && path[0] === 'profiles' && path[2] === 'ca_file') {
    throw new UsageError('ca_file is not read from a project config: a checkout must not be able to add a certificate authority you trust', {
      details: [`Set it in your user config: 'jobs config set ${keyText} <file>' (without --project), or set JOBS_CA_FILE.`],
    });
  }
  const result = await setKey(target, path, value, ctx.cwd, ctx.env);
  const shown = displayPath(target.path, ctx.cwd, ctx.env);
  if (isJson(ctx)) writeJson(ctx, { key: keyText, value, file: target.path });
  else ctx.io.stdout.write(`Set ${keyText} = ${sanitize(JSON.stringify(value))} in ${shown}.\n`);
  writeWarnings(
    ctx,
    result.otherProblems.map((p) => `${p} (not changed by this command)`),
  );
  const unused = await unusedBecause(ctx, path, target.path);
  if (unused) writeNote(ctx, `Note: ${unused}`);
  return 0;
}

/**
 * Why a key just set will not be used, if it will not: a profile that is not the one in use, or a
 * setting that a flag, the environment or a nearer file overrides. Undefined when it is used (or
 * when the settings cannot be resolved: the command that reads them will say why).
 */
async function unusedBecause(ctx: Context, path: string[], file: string): Promise<string | undefined> {
  let config;
  try {
    config = (await resolveDetailed(resolveInput(ctx), { allowUnknownProfile: true })).config;
  } catch {
    return undefined;
  }
  const from = (source: SettingSource) => describeSource(source, ctx.cwd, ctx.env);
  const here = (source: SettingSource) => source.kind === 'file' && resolvePath(source.path) === resolvePath(file);
  const selected = config.profile.value;
  if (path[0] === 'profiles' && path.length >= 2) {
    const name = path[1]!;
    if (name !== selected) {
      const inUse = selected === undefined ? 'no profile is selected' : `the profile in use is "${sanitize(selected)}" (from ${from(config.profile.source)})`;
      const select =
        config.profile.source.kind === 'flag' || config.profile.source.kind === 'env'
          ? `--profile ${name} or JOBS_PROFILE=${name}`
          : `'${ctx.name} config set profile ${name}', --profile ${name} or JOBS_PROFILE=${name}`;
      return `profiles.${sanitize(name)} is not used: ${inUse}; select it with ${sanitize(select)}`;
    }
    const setting = path.length === 3 ? { base_url: config.baseUrl, auth_scheme: config.authScheme, token: config.token }[path[2]!] : undefined;
    if (setting && !here(setting.source) && setting.source.kind !== 'default')
      return `${path.join('.')} is not used while ${from(setting.source)} is set: it wins over the config`;
    return undefined;
  }
  if (path.length !== 1) return undefined;
  const top = { profile: config.profile, concurrency: config.concurrency, timeout: config.timeoutMs, retries: config.retries }[path[0]!];
  if (top && !here(top.source) && top.source.kind !== 'default')
    return `${path[0]} is not used while ${from(top.source)} is set: it wins over ${displayPath(file, ctx.cwd, ctx.env)}`;
  return undefined;
}

export async function runConfigUnset(ctx: Context, keyText: string, options: { project: boolean }): Promise<number> {
  const path = parseKey(keyText);
  const target = await editTarget({ cwd: ctx.cwd, env: ctx.env, configFlag: ctx.globals.config, project: options.project });
  const result = await unsetKey(target, path, ctx.cwd, ctx.env);
  const shown = displayPath(target.path, ctx.cwd, ctx.env);
  if (isJson(ctx)) writeJson(ctx, { key: keyText, removed: result.changed, file: target.path });
  else if (result.changed) ctx.io.stdout.write(`Removed ${keyText} from ${shown}.\n`);
  else ctx.io.stdout.write(`${keyText} is not set in ${shown}; nothing to remove.\n`);
  writeWarnings(
    ctx,
    result.otherProblems.map((p) => `${p} (not changed by this command)`),
  );
  return 0;
}

export async function runConfigList(ctx: Context): Promise<number> {
  const details = await resolveDetailed(resolveInput(ctx));
  const effective = effectiveRows(details.config, ctx.cwd, ctx.env);
  const fromFiles = fileRows(details.found.layers, ctx.cwd, ctx.env);
  if (isJson(ctx)) {
    writeJson(ctx, {
      settings: rowsJson(effective),
      file_settings: rowsJson(fromFiles),
      files: details.config.files,
      warnings: details.config.warnings,
    });
    return 0;
  }
  writeWarnings(ctx, details.config.warnings);
  ctx.io.stdout.write(renderRows([...effective, ...fromFiles]));
  if (details.config.files.length === 0) writeNote(ctx, `No config file found; '${ctx.name} config path' shows where it looks.`);
  return 0;
}

export async function runConfigPath(ctx: Context): Promise<number> {
  const located = await locateConfigFiles({ cwd: ctx.cwd, env: ctx.env, configFlag: ctx.globals.config });
  const store = credentialsFile(ctx.env);
  const storeExists = await access(store).then(
    () => true,
    () => false,
  );
  if (isJson(ctx)) {
    writeJson(ctx, {
      explicit: located.explicit ? { path: located.explicit.path, exists: located.explicit.exists, source: located.explicit.source } : null,
      project: located.project ?? null,
      user: located.user ?? null,
      user_dir: located.userDir,
      credentials: { path: store, exists: storeExists },
    });
    return 0;
  }
  const show = (file: string) => displayPath(file, ctx.cwd, ctx.env);
  const lines: Array<[string, string]> = [];
  if (located.explicit) {
    const from = describeSource(located.explicit.source, ctx.cwd, ctx.env);
    lines.push(['config file', `${show(located.explicit.path)} (from ${from}${located.explicit.exists ? '' : '; missing'})`]);
    lines.push(['project config', `not searched (${from} given)`]);
    lines.push(['user config', `not read (${from} given)`]);
  } else {
    const project =
      located.project &&
      (isJavaScriptConfig(located.project) ? `${show(located.project)} (JavaScript: not run unless named with --config)` : show(located.project));
    lines.push(['project config', project ?? 'none found (searched for .jobsrc.yaml and others from here up to your home)']);
    lines.push(['user config', located.user ? show(located.user) : `none (would be ${show(join(located.userDir, 'config.yaml'))})`]);
  }
  lines.push(['credentials', `${show(store)}${storeExists ? '' : ' (not created yet)'}`]);
  const width = Math.max(...lines.map(([label]) => label.length));
  for (const [label, value] of lines) ctx.io.stdout.write(`${label.padEnd(width)}  ${sanitize(value)}\n`);
  return 0;
}
