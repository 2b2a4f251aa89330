/**
 * `jobs sandbox`: checks its flags, starts the sandbox, says how to point jobs at it, logs each
 * request on stderr, and runs until SIGINT/SIGTERM (or the context's abort), then closes cleanly.
 */
import { jsonText } from '../../output/json-output.js';
import { isAbsolute, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors/failures.js';
import { isLoopbackHost } from '../../../core/config/base-url.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { sandboxStatePath } from '../../../core/sandbox/embedded.js';
import { fastForwardEmbedded, resetSandboxAndRecords } from '../../../core/history/fast-forward.js';
import { withLock } from '../../../core/storage/lock.js';
import { createSandbox } from '../../../core/sandbox/server.js';
import { removeData } from '../../../core/sandbox/data-file.js';
import type { SandboxOptions, SandboxQuota } from '../../../core/sandbox/types.js';
import { checkWritableDataFolder } from '../../../core/sandbox/writable-folder.js';
import { isJson } from '../../output/command-io.js';

/** The flags as commander hands them over (strings, unchecked). */
export interface RawSandboxFlags {
  port?: string;
  host?: string;
  token?: string[];
  data?: string;
  quota?: string;
  latency?: string;
  failRate?: string;
  seed?: string;
  maxBody?: string;
  reset?: boolean;
}

export interface SandboxFlags {
  port: number;
  host: string;
  tokens: string[];
  dataFile?: string;
  quota?: SandboxQuota;
  latencyMs?: number;
  failRate?: number;
  seed?: number;
  maxBodyBytes?: number;
  reset: boolean;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** Checks every flag; a bad one is a UsageError that says what was expected. */
export function parseSandboxFlags(raw: RawSandboxFlags, cwd: string): SandboxFlags {
  const port = wholeNumber(raw.port ?? '4010', '--port', 0, 65535);
  const host = (raw.host ?? '127.0.0.1').trim();
  if (host === '' || /[\s/]/.test(host)) throw new UsageError(`--host: "${sanitize(host)}" is not a host name or address`);
  const tokens = raw.token && raw.token.length > 0 ? [...new Set(raw.token)] : ['sandbox'];
  for (const token of tokens) {
    // A token must fit in an Authorization header as a single word.
    if (!/^[\x21-\x7e]+$/.test(token)) throw new UsageError('--token: a token must be printable ASCII without spaces');
  }
  const flags: SandboxFlags = { port, host, tokens, reset: Boolean(raw.reset) };
  if (raw.data !== undefined) {
    if (raw.data.trim() === '') throw new UsageError('--data: expected a file name');
    flags.dataFile = isAbsolute(raw.data) ? raw.data : resolve(cwd, raw.data);
  }
  if (raw.quota !== undefined) flags.quota = parseQuota(raw.quota);
  if (raw.latency !== undefined) flags.latencyMs = wholeNumber(raw.latency.replace(/ms$/, ''), '--latency', 0, 60_000);
  if (raw.failRate !== undefined) {
    const rate = Number(raw.failRate);
    if (raw.failRate.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
      throw new UsageError(`--fail-rate: expected a number from 0 to 1, got "${sanitize(raw.failRate)}"`);
    }
    flags.failRate = rate;
  }
  if (raw.seed !== undefined) flags.seed = wholeNumber(raw.seed, '--seed', 0, 2 ** 32 - 1);
  if (raw.maxBody !== undefined) flags.maxBodyBytes = parseSize(raw.maxBody, '--max-body');
  return flags;
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 * 1024 };

/** Bytes, or KiB/MiB with k/m: 4096, 64k, 2m; from 1k to 64m. */
export function parseSize(text: string, flag: string): number {
  const m = /^\s*(\d+)\s*([km]?)(?:i?b)?\s*$/i.exec(text);
  const bytes = m ? Number(m[1]) * SIZE_UNITS[m[2]!.toLowerCase()]! : NaN;
  if (!(bytes >= 1024 && bytes <= 64 * 1024 * 1024))
    throw new UsageError(`${flag}: expected a size from 1k to 64m, such as 256k or 2m, got "${sanitize(text)}"`);
  return bytes;
}

/** `<n>/<unit>` or `<n>/<k><unit>`: 60/m, 10/s, 100/10s. */
export function parseQuota(text: string): SandboxQuota {
  const m = /^\s*(\d+)\s*\/\s*(\d*)\s*(s|m|h)\s*$/.exec(text);
  const limit = m ? Number(m[1]) : NaN;
  const windowMs = m ? (m[2] ? Number(m[2]) : 1) * UNIT_MS[m[3]!]! : NaN;
  if (!m || !(limit >= 1) || !(windowMs >= 1000) || windowMs > 86_400_000) {
    throw new UsageError(`--quota: expected <requests>/<s|m|h>, such as 60/m or 10/s, got "${sanitize(text)}"`);
  }
  return { limit, windowMs };
}

function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`${flag}: expected a whole number from ${min} to ${max}, got "${sanitize(text)}"`);
  return n;
}

/** Addresses that mean "every interface of this machine". */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

/**
 * The URL to print and the warnings for where the sandbox listens. The client sends a token over
 * plain http only to loopback addresses, so on every interface the URL that works from this
 * machine is the loopback one; any other address needs the user to lift that guard, knowingly.
 */
export function reachability(host: string, boundUrl: string): { url: string; warnings: string[] } {
  if (isLoopbackHost(host)) return { url: boundUrl, warnings: [] };
  const port = new URL(boundUrl).port;
  const guard = 'jobs sends a token over plain http only to loopback addresses';
  if (WILDCARD_HOSTS.has(host)) {
    const url = `http://127.0.0.1:${port}`;
    return {
      url,
      warnings: [
        `warning: listening on every network interface (${host}): other machines can reach the sandbox, and its tokens are not secret`,
        `from this machine use ${url}; ${guard}, so from another machine use http://<this machine's address>:${port} with allow_insecure_http: true in that machine's user config`,
      ],
    };
  }
  return {
    url: boundUrl,
    warnings: [
      `warning: listening on ${host}: other machines can reach the sandbox, and its tokens are not secret`,
      `${guard}: to use ${boundUrl}, set allow_insecure_http: true in the user config, or run the sandbox on 127.0.0.1`,
    ],
  };
}

function describeQuota(q: SandboxQuota): string {
  const w = q.windowMs % 60_000 === 0 ? `${q.windowMs / 60_000}m` : `${q.windowMs / 1000}s`;
  return `${q.limit} requests per ${w} per token`;
}

export async function runSandbox(ctx: Context, raw: RawSandboxFlags): Promise<number> {
  const flags = parseSandboxFlags(raw, ctx.cwd);
  const { stderr } = ctx.io;

  if (flags.reset && !flags.dataFile) {
    const file = sandboxStatePath(ctx.env);
    const had = await resetSandboxAndRecords(ctx.env);
    if (!ctx.globals.quiet) {
      stderr.write(
        had
          ? `Cleared the --sandbox state (${file}), its statistics history and its record of published adverts; the next --sandbox sync of a folder sends its adverts again.\n`
          : `The --sandbox state was already empty (${file}).\n`,
      );
    }
    return 0;
  }
  const dataFile = flags.dataFile;
  if (dataFile) {
    checkWritableDataFolder(dataFile, 'Name a file in a folder you can write with --data, or make that folder writable.');
  }
  // Under the file's lock, as every change to it: another sandbox may share the file.
  if (flags.reset && dataFile) await withLock(dataFile, () => removeData(dataFile));

  const options: SandboxOptions = { tokens: flags.tokens };
  if (flags.dataFile) options.dataFile = flags.dataFile;
  if (flags.quota) options.quota = flags.quota;
  if (flags.latencyMs !== undefined) options.latencyMs = flags.latencyMs;
  if (flags.failRate !== undefined) options.failRate = flags.failRate;
  if (flags.seed !== undefined) options.seed = flags.seed;
  if (flags.maxBodyBytes !== undefined) options.maxBodyBytes = flags.maxBodyBytes;
  if (!ctx.globals.quiet) options.log = (line) => stderr.write(`${sanitize(line)}\n`);

  const sandbox = createSandbox(options);
  let baseUrl: string;
  try {
    ({ baseUrl } = await sandbox.listen(flags.port, flags.host));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${flags.port} on ${flags.host} is in use: pick another with --port (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new UsageError(`cannot listen on ${sanitize(flags.host)}: not an address of this machine (try --host 127.0.0.1)`);
    }
    if (code === 'EACCES') throw new UsageError(`not allowed to listen on port ${flags.port}: pick one above 1023 with --port`);
    throw error;
  }

  const reach = reachability(flags.host, baseUrl);
  // Said even with --quiet: it is about who else can reach this machine's sandbox.
  for (const line of reach.warnings) stderr.write(`${ctx.name}: ${sanitize(line)}\n`);
  writeBanner(ctx, flags, reach.url, baseUrl);
  await stopRequested(ctx.signal);
  await sandbox.close();
  if (!ctx.globals.quiet) stderr.write('Sandbox stopped.\n');
  return 0;
}

/** `baseUrl` is the URL that works from this machine; `boundUrl` names the address bound, if different. */
function writeBanner(ctx: Context, flags: SandboxFlags, baseUrl: string, boundUrl: string): void {
  const { stdout } = ctx.io;
  if (isJson(ctx)) {
    stdout.write(jsonText({ base_url: baseUrl, tokens: flags.tokens, data_file: flags.dataFile ?? null }));
  } else if (ctx.globals.quiet) {
    stdout.write(`${baseUrl}\n`);
  } else {
    const lines = [
      boundUrl === baseUrl ? `Sandbox listening on ${baseUrl}` : `Sandbox listening on ${boundUrl} (from this machine: ${baseUrl})`,
      `Token${flags.tokens.length > 1 ? 's' : ''}: ${flags.tokens.join(', ')}`,
      `State: ${flags.dataFile ? flags.dataFile : 'in memory (use --data <file> to keep it)'}`,
    ];
    if (flags.quota) lines.push(`Quota: ${describeQuota(flags.quota)}`);
    if (flags.latencyMs) lines.push(`Latency: ${flags.latencyMs}ms`);
    if (flags.failRate)
      lines.push(
        `Fault drill: ${Math.round(flags.failRate * 100)}% of requests fail with 500 or 503${flags.seed !== undefined ? ` (seed ${flags.seed})` : ''}`,
      );
    lines.push(
      '',
      `Point ${ctx.name} at it:`,
      `  JOBS_BASE_URL=${baseUrl} JOBS_TOKEN=${flags.tokens[0]} ${ctx.name} publish examples/`,
      '',
      // ACME-0042 is an advert of examples/adverts/: after the publish above, this works as shown.
      `Then create a job application for an advert, to post events to:`,
      `  curl -s -X POST ${baseUrl}/_sandbox/applications -d '{"reference":"ACME-0042"}'`,
      '',
      `Fixtures: GET /_sandbox/requests, /_sandbox/adverts, /_sandbox/events inspect; POST /_sandbox/reset clears.`,
      'Press Ctrl-C to stop.',
      '',
    );
    stdout.write(`${lines.join('\n')}\n`);
  }
}

/** Resolves on SIGINT, SIGTERM or the context's abort (the CLI aborts it on Ctrl-C). */
function stopRequested(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    if (signal.aborted) return done();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

const DAY_MS = 86_400_000;

/** `jobs sandbox --fast-forward <duration>`: moves the embedded sandbox's clock, then says where it is and what was recorded. */
export async function runFastForward(ctx: Context, text: string, others: { data?: string; reset?: boolean } = {}): Promise<number> {
  if (others.data !== undefined || others.reset)
    throw new UsageError('--fast-forward moves the clock of the --sandbox state; it does not go with --data or --reset');
  const { sandboxTime, offsetMs: offset, days, references } = await fastForwardEmbedded(ctx, text);
  const now = new Date(sandboxTime).toISOString().slice(0, 10);
  const ahead = Math.round(offset / DAY_MS);
  ctx.io.stderr.write(
    `the embedded sandbox's clock is now at ${now} (${ahead} day${ahead === 1 ? '' : 's'} ahead of real time; ${ctx.name} sandbox --reset puts it back)\n`,
  );
  if (references.length === 0)
    ctx.io.stderr.write(
      `no adverts in the embedded sandbox yet: publish some first (${ctx.name} --sandbox publish examples/adverts/), then fast-forward again\n`,
    );
  else
    ctx.io.stderr.write(
      `recorded ${days} daily snapshot${days === 1 ? '' : 's'} of ${references.length} advert${references.length === 1 ? '' : 's'}: see ${ctx.name} --sandbox stats <reference> --history, or ${ctx.name} --sandbox report\n`,
    );
  if (isJson(ctx)) {
    ctx.io.stdout.write(
      jsonText({ sandbox_time: new Date(sandboxTime).toISOString(), offset_days: offset / DAY_MS, snapshots: days * references.length, adverts: references }),
    );
  }
  return 0;
}
