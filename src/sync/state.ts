/**
 * The sync state: what this tool published, per service, since the service cannot list adverts.
 * A human-readable JSON file with a version field, plus an append-only log beside it: each success
 * is appended to the log at once (a kill or Ctrl-C loses nothing), and the log is folded into the
 * state file, written atomically (temp file + rename), at the end of a run or at the next start.
 */
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { ConfigError, UsageError } from '../errors/failures.js';

export const STATE_VERSION = 1;
export const DEFAULT_STATE_FILE = '.jobs-state.json';

export interface AdvertRecord {
  /** The file it came from, relative to the synced folder. */
  file: string;
  document: number;
  /** Hash of the payload last sent (or adopted). */
  hash: string;
  /** Short hash per top-level field, to name what changed. */
  fields: Record<string, string>;
  published_at: string;
}

export interface StateFile {
  version: number;
  /** service key (base URL, or `sandbox`) -> reference -> record */
  services: Record<string, { adverts: Record<string, AdvertRecord> }>;
}

type LogLine = { op: 'put'; service: string; reference: string; record: AdvertRecord } | { op: 'delete'; service: string; reference: string };

export class SyncState {
  private constructor(
    readonly path: string,
    private data: StateFile,
  ) {}

  get logPath(): string {
    return `${this.path}.log`;
  }

  static load(path: string): SyncState {
    let data: StateFile = { version: STATE_VERSION, services: {} };
    if (existsSync(path)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new ConfigError(`${path}: the sync state is not valid JSON (${(error as Error).message}); restore it from version control or move it away (a sync without state adopts existing adverts safely)`);
      }
      data = validateState(path, parsed);
    }
    const state = new SyncState(path, data);
    state.replayLog();
    return state;
  }

  adverts(service: string): Record<string, AdvertRecord> {
    return this.data.services[service]?.adverts ?? {};
  }

  /** Records a success durably before the run goes on. */
  put(service: string, reference: string, record: AdvertRecord): void {
    this.apply({ op: 'put', service, reference, record });
    this.append({ op: 'put', service, reference, record });
  }

  remove(service: string, reference: string): void {
    this.apply({ op: 'delete', service, reference });
    this.append({ op: 'delete', service, reference });
  }

  /** Writes the state file atomically and drops the log it now contains. */
  save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.data, null, 2)}\n`);
    renameSync(tmp, this.path);
    rmSync(this.logPath, { force: true });
  }

  private apply(line: LogLine): void {
    const service = (this.data.services[line.service] ??= { adverts: {} });
    if (line.op === 'put') service.adverts[line.reference] = line.record;
    else delete service.adverts[line.reference];
  }

  private append(line: LogLine): void {
    mkdirSync(dirname(this.path), { recursive: true });
    appendFileSync(this.logPath, `${JSON.stringify(line)}\n`);
  }

  /** Folds in what an interrupted run logged; a torn last line (killed mid-write) is ignored. */
  private replayLog(): void {
    if (!existsSync(this.logPath)) return;
    for (const text of readFileSync(this.logPath, 'utf8').split('\n')) {
      if (text.trim() === '') continue;
      try {
        const line = JSON.parse(text) as LogLine;
        if ((line.op === 'put' || line.op === 'delete') && typeof line.service === 'string' && typeof line.reference === 'string') this.apply(line);
      } catch {
        // the line a kill cut short: the request it recorded is adopted or repeated safely next time
      }
    }
  }
}

function validateState(path: string, value: unknown): StateFile {
  const v = value as StateFile;
  if (v === null || typeof v !== 'object' || typeof v.version !== 'number' || v.services === null || typeof v.services !== 'object') {
    throw new ConfigError(`${path}: not a jobs sync state (expected {"version": ${STATE_VERSION}, "services": {...}})`);
  }
  if (v.version > STATE_VERSION) throw new ConfigError(`${path}: written by a newer jobs (state version ${v.version}); upgrade jobs`);
  return v;
}

export interface Lock {
  release(): void;
}

/** One sync per state at a time. A lock left by a process that no longer runs is taken over. */
export function acquireLock(
  statePath: string,
  options: { unlock?: boolean; notice: (text: string) => void; /** what holds it, for messages */ what?: string; file?: string },
): Lock {
  const what = options.what ?? 'sync';
  const file = options.file ?? 'state';
  const path = `${statePath}.lock`;
  const cannot = (error: unknown) =>
    new UsageError(`cannot create the lock ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was sent`, {
      details: [`choose a writable place for the ${file}`],
    });
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw cannot(error);
  }
  const me = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      writeSync(fd, `${JSON.stringify(me)}\n`);
      closeSync(fd);
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannot(error);
      const holder = readHolder(path);
      const stale = holder && holder.host === me.host && !isRunning(holder.pid);
      if (options.unlock || stale) {
        options.notice(`${stale ? `removing a stale lock left by process ${holder!.pid}, which is no longer running` : 'removing the lock (--unlock)'}: ${path}`);
        rmSync(path, { force: true });
        continue;
      }
      throw new UsageError(
        `another ${what} holds the lock on this ${file}${holder ? ` (process ${holder.pid} on ${holder.host}, since ${holder.started_at})` : ''}: ${path}`,
        { details: [what === 'sync' ? 'wait for it to finish; if it is not running any more, run again with --unlock' : `wait for it to finish; if it is not running any more, remove ${path}`] },
      );
    }
  }
  throw new UsageError(`cannot take the lock ${path}`);
}

function readHolder(path: string): { pid: number; host: string; started_at: string } | undefined {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8'));
    return typeof v.pid === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
