/**
 * `jobs doctor`: every setting with where it came from, then a checklist: config readable, base URL
 * and token present, service reachable, credentials accepted. The probe is GET
 * /jobs/<random reference>/stats: a 404 (or a 200) proves both reachability and accepted credentials
 * without touching any real advert.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { ApiError, ExitCode, JobsError } from '../../../core/errors/failures.js';
import { paint } from '../../output/summary.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { describeSource } from '../../../core/config/describe.js';
import { displayPath } from '../../../core/config/paths.js';
import { resolveDetailed, type ResolvedConfigWithHttp } from '../../../core/config/resolve.js';
import { effectiveRows, renderRows, rowsJson, type SettingRow } from '../../output/settings-table.js';
import type { SettingSource } from '../../../core/config/types.js';
import { isJson, writeJson } from '../../output/command-io.js';
import { chooseProxy, describeDecision } from '../../../core/api/proxy.js';
import { baseUrlHint, rejectedTokenHint, serviceInUse } from '../../../core/config/service-in-use.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  hints?: string[];
}

export async function runDoctor(ctx: Context): Promise<number> {
  const checks: Check[] = [];
  let config: ResolvedConfigWithHttp | undefined;
  let exitCode: number = ExitCode.ok;
  const fail = (check: Omit<Check, 'ok'>, code: number) => {
    checks.push({ ...check, ok: false });
    if (exitCode === ExitCode.ok) exitCode = code;
  };
  const show = (file: string) => displayPath(file, ctx.cwd, ctx.env);

  try {
    config = (await resolveDetailed({ cwd: ctx.cwd, env: ctx.env, globals: ctx.globals })).config;
    checks.push({
      name: 'config',
      ok: true,
      detail: config.files.length > 0 ? `read ${config.files.map(show).join(', ')}` : 'no config file found; using flags, environment and defaults',
    });
  } catch (error) {
    if (!(error instanceof JobsError)) throw error;
    fail({ name: 'config', detail: error.message, hints: error.details }, error.exitCode);
  }

  // The settings are known before the probe: shown first, so a retry's line on stderr (the probe
  // waiting for the service) comes between them and the checks, not above the table.
  const rows: SettingRow[] = config ? effectiveRows(config, ctx.cwd, ctx.env) : [];
  if (!isJson(ctx)) writeSettings(ctx, rows);
  if (config) await checkService(ctx, config, checks, fail);
  return report(ctx, config, rows, checks, exitCode);
}

function writeSettings(ctx: Context, rows: SettingRow[]): void {
  if (rows.length === 0) return;
  ctx.io.stdout.write(`Settings\n${renderRows(rows, '  ')}\n`);
}

type Fail = (check: Omit<Check, 'ok'>, code: number) => void;

async function checkService(ctx: Context, config: ResolvedConfigWithHttp, checks: Check[], fail: Fail): Promise<void> {
  const from = (source: SettingSource) => describeSource(source, ctx.cwd, ctx.env);
  const place = { name: ctx.name, cwd: ctx.cwd, env: ctx.env, ...(ctx.globals.tokenFile ? { tokenFile: ctx.globals.tokenFile } : {}) };
  const use = serviceInUse(config);
  const baseUrl = use.service.kind === 'url' ? use.service.url : undefined;
  const sandbox = use.service.kind === 'sandbox';
  if (use.service.kind === 'sandbox') checks.push({ name: 'base URL', ok: true, detail: `the embedded sandbox (from ${from(use.service.source)})` });
  else if (use.service.kind === 'url') checks.push({ name: 'base URL', ok: true, detail: `${use.service.url} (from ${from(use.service.source)})` });
  else fail({ name: 'base URL', detail: 'not set', hints: [baseUrlHint(place, use.profile.value)] }, ExitCode.usage);
  const token = config.token;
  if (use.token.kind === 'sandbox') checks.push({ name: 'token', ok: true, detail: `the sandbox's own (from ${from(use.token.source)})` });
  else if (use.token.kind === 'found') checks.push({ name: 'token', ok: true, detail: `found (from ${from(use.token.source)})` });
  else fail({ name: 'token', detail: 'not found', hints: [`Run '${ctx.name} login', set JOBS_TOKEN, or pass --token-file <file>.`] }, ExitCode.usage);
  if (!sandbox && baseUrl) {
    // Which proxy the probe below goes through, and which variable said so (never its credentials).
    try {
      checks.push({ name: 'proxy', ok: true, detail: describeDecision(chooseProxy(new URL(baseUrl), config.proxyEnv ?? {})) });
    } catch (error) {
      if (!(error instanceof JobsError)) throw error;
      fail({ name: 'proxy', detail: error.message, hints: error.details }, error.exitCode);
      return;
    }
  }
  if (!sandbox && (!baseUrl || !token)) return;

  const reference = `jobs-doctor-${randomBytes(6).toString('hex')}`;
  const probe = `GET /jobs/${reference}/stats`;
  let status: number | undefined;
  try {
    // The probe should answer quickly: one retry, not the five a publish deserves, unless --retries
    // says otherwise. (The settings above were read before this.)
    ctx.globals.retries ??= 1;
    const client = await ctx.client();
    await client.stats(reference);
    status = 200;
  } catch (error) {
    if (!(error instanceof JobsError)) throw error;
    if (!(error instanceof ApiError)) {
      fail({ name: 'client', detail: error.message, hints: error.details }, error.exitCode);
      return;
    }
    switch (error.kind) {
      case 'not_found':
      case 'rejected':
        status = error.status;
        break;
      case 'unauthorized':
        checks.push({ name: 'service', ok: true, detail: `reachable (${probe} answered ${error.status ?? 401})` });
        fail(
          { name: 'credentials', detail: `rejected (${error.status ?? 401} unauthorized)`, hints: [rejectedTokenHint(place, token?.source)] },
          ExitCode.unauthorized,
        );
        return;
      case 'quota':
        checks.push({ name: 'service', ok: true, detail: `reachable (${probe} answered ${error.status ?? 429})` });
        fail({ name: 'credentials', detail: 'not checked: the rate quota is exceeded (429); try again later' }, ExitCode.quota);
        return;
      case 'server':
      case 'bad_response':
        fail({ name: 'service', detail: `failed: ${sanitize(error.message)}` }, error.exitCode);
        return;
      case 'network':
      case 'timeout':
        fail(
          {
            name: 'service',
            detail: `not reachable: ${sanitize(error.message)}`,
            hints: [`Check the base URL (from ${from(config.baseUrl.source)}), your network and any proxy.`],
          },
          ExitCode.network,
        );
        return;
    }
  }
  checks.push({ name: 'service', ok: true, detail: `reachable (${probe} answered ${status ?? 'without a status'})` });
  checks.push({ name: 'credentials', ok: true, detail: 'accepted' });
}

function report(ctx: Context, config: ResolvedConfigWithHttp | undefined, rows: SettingRow[], checks: Check[], exitCode: number): number {
  if (isJson(ctx)) {
    writeJson(ctx, {
      ok: exitCode === ExitCode.ok,
      exit_code: exitCode,
      settings: rowsJson(rows),
      files: config?.files ?? [],
      warnings: config?.warnings ?? [],
      checks: checks.map((c) => ({ name: c.name, ok: c.ok, detail: c.detail, ...(c.hints?.length ? { hints: c.hints } : {}) })),
    });
    return exitCode;
  }
  const out = ctx.io.stdout;
  const c = paint(ctx, out);
  const [pass, failMark] = out.isTTY ? ['✓', '✗'] : ['ok  ', 'FAIL'];
  out.write('Checks\n');
  for (const check of checks) {
    const mark = check.ok ? c.green(pass) : c.red(failMark);
    out.write(`  ${mark} ${check.name}: ${sanitize(check.detail)}\n`);
    for (const hint of check.hints ?? []) out.write(`      ${sanitize(hint)}\n`);
  }
  for (const warning of config?.warnings ?? []) ctx.io.stderr.write(`${ctx.name}: warning: ${sanitize(warning)}\n`);
  return exitCode;
}
