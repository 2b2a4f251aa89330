/**
 * `syncFolder`: `jobs sync <dir>` as a function. It runs the command's own code (runSync: lock,
 * state, plan, executor) in a context built from the options, with JSON output captured and read
 * back into typed results, so the library and the CLI cannot behave differently.
 */
import { Readable } from 'node:stream';
import type { JobsClient } from '../api/client.js';
import type { SyncFlags } from '../commands/sync.js';
import { DEFAULT_NAME } from '../program-name.js';
import type { Context, GlobalOptions, InStream, OutStream } from '../context.js';
import type { ErrorTree } from '../errors/tree.js';
import { InvalidInputError, JobsError } from '../errors/failures.js';
import { formatFinding, type Finding } from '../errors/findings.js';

export interface SyncFolderOptions extends Omit<SyncFlags, 'detailedExitcode'> {
  /** The folder of advert files (searched recursively). */
  dir: string;
  /** The service's base URL; otherwise JOBS_BASE_URL or the config, as the CLI finds it. */
  baseUrl?: string;
  /** The token; otherwise JOBS_TOKEN, the config or the `jobs login` store, as the CLI finds it. */
  token?: string;
  /** A client to use instead of one built from baseUrl and token (its base URL keys the state). */
  client?: JobsClient;
  /** Run against the embedded local sandbox, like `--sandbox`. */
  sandbox?: boolean;
  /** Where `dir`, `state` and the project config are looked up from; default process.cwd(). */
  cwd?: string;
  /** The environment the config is resolved with; default process.env. */
  env?: Record<string, string | undefined>;
  /** Stops starting new requests (requests in flight get a few seconds to finish). */
  signal?: AbortSignal;
  /** Receives the human-oriented lines the command writes to stderr (plan summary, notices). */
  log?: (line: string) => void;
}

export type PlanAction = 'create' | 'update' | 'delete' | 'orphan' | 'unchanged';

export interface PlannedEntry {
  action: PlanAction;
  reference: string;
  /** The file, relative to the synced folder. */
  file: string;
  changed?: string[];
  removed?: string[];
}

export interface SyncedEntry {
  reference: string;
  file: string;
  action: PlanAction;
  status: 'created' | 'updated' | 'adopted' | 'recreated' | 'deleted' | 'failed';
  error?: { message: string; exit_code: number; status?: number | null; errors?: ErrorTree | null };
}

export interface SyncFolderResult {
  /** What `jobs sync` would exit with: 0 in sync, 1 failures, 4 token refused, 130 interrupted, ... */
  exitCode: number;
  dryRun: boolean;
  /** With dryRun: what would change (unchanged adverts are only counted). */
  plan: PlannedEntry[];
  /** Without dryRun: one entry per request made. */
  results: SyncedEntry[];
  /** The plan's counts (dry run) or the outcome's counts: created, updated, failed, unchanged, ... */
  counts: Record<string, number>;
}

export async function syncFolder(options: SyncFolderOptions): Promise<SyncFolderResult> {
  const { runSync } = await import('../commands/sync.js');
  const cwd = options.cwd ?? process.cwd();
  const env: Record<string, string | undefined> = { ...(options.env ?? process.env) };
  if (options.token !== undefined) env.JOBS_TOKEN = options.token;
  const globals: GlobalOptions = {
    output: 'json',
    quiet: true,
    verbose: false,
    color: false,
    input: false,
    sandbox: Boolean(options.sandbox),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : options.client ? { baseUrl: options.client.baseUrl } : {}),
  };
  const lines: string[] = [];
  let pending = '';
  const stdout: OutStream = {
    write(chunk: string) {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) if (part.trim() !== '') lines.push(part);
      return true;
    },
  };
  const stderr: OutStream = { write: (chunk: string) => (options.log?.(chunk.replace(/\n$/, '')), true) };
  // Nothing is read from stdin: sync takes a folder.
  const stdin: InStream = Object.assign(Readable.from([]), { isTTY: false });

  let configPromise: ReturnType<Context['config']> | undefined;
  let clientPromise: ReturnType<Context['client']> | undefined;
  const ctx: Context = {
    name: DEFAULT_NAME,
    io: { stdin, stdout, stderr },
    env,
    cwd,
    globals,
    signal: options.signal ?? new AbortController().signal,
    config() {
      configPromise ??= import('../config/resolve.js')
        .then((m) => m.resolveConfig({ cwd, env, globals }))
        .then((config) => {
          for (const warning of config.warnings) options.log?.(`warning: ${warning}`);
          return config;
        });
      return configPromise;
    },
    client() {
      clientPromise ??= options.client ? Promise.resolve(options.client) : import('../client-for.js').then((m) => m.clientFromContext(ctx));
      return clientPromise;
    },
  };

  const flags: SyncFlags = { ...options };
  let exitCode: number;
  try {
    exitCode = await runSync(ctx, options.dir, flags);
  } catch (error) {
    if (error instanceof InvalidInputError) throw withFindings(error, lines);
    throw error;
  }
  return readOutput(lines, exitCode, Boolean(options.dryRun));
}

function readOutput(lines: readonly string[], exitCode: number, dryRun: boolean): SyncFolderResult {
  const result: SyncFolderResult = { exitCode, dryRun, plan: [], results: [], counts: {} };
  for (const line of lines) {
    const record = parseLine(line) as (Record<string, unknown> & { type?: string }) | undefined;
    if (!record) continue;
    const { type, ...rest } = record;
    if (type === 'plan') result.plan.push(rest as unknown as PlannedEntry);
    else if (type === 'result') result.results.push(rest as unknown as SyncedEntry);
    else if (type === 'plan_summary' || type === 'summary') {
      for (const [k, v] of Object.entries(rest)) if (typeof v === 'number') result.counts[k] = v;
    }
  }
  return result;
}

/** The command wrote its findings as JSON; put them on the error, where a caller looks. */
function withFindings(error: JobsError, lines: readonly string[]): JobsError {
  for (const line of lines) {
    const doc = parseLine(line) as { findings?: Finding[] } | undefined;
    if (!doc || !Array.isArray(doc.findings)) continue;
    return new InvalidInputError(error.message, { cause: error, details: doc.findings.map(formatFinding) });
  }
  return error;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
