/**
 * The state's log: one JSON line per change, appended at once beside the state file (a kill or
 * Ctrl-C loses nothing), folded into the model at the next load and removed once the state file
 * holds it. A torn last line (a kill mid-write) is ignored when read and cut off before appending.
 */
import { ConfigError } from '../../errors/failures.js';
import { canonicalServiceKey } from '../../config/service-key.js';
import { AppendLog } from '../../storage/append-log.js';
import { readIfExists } from './files.js';
import type { StateChange } from './model.js';
import { describe, isObject, recordProblem } from './record-shape.js';

export class StateLog {
  private log: AppendLog | undefined;
  /** Where the log's whole lines end: a torn last line (a kill mid-write) is cut off before appending. */
  private end = { bytes: 0, torn: false, missingNewline: false };
  /** An append failed: no more lines go to the log, whose end may now be torn. */
  private failure: unknown;

  constructor(readonly path: string) {}

  /** Hands each change the log holds to `apply`, in order; a torn last line is skipped. */
  replay(apply: (change: StateChange) => void): void {
    const bytes = readIfExists(this.path, 'sync log');
    if (bytes === undefined) return;
    let start = 0;
    for (let lineNo = 1; start < bytes.length; lineNo++) {
      const newline = bytes.indexOf(0x0a, start);
      const end = newline < 0 ? bytes.length : newline;
      const lineStart = start;
      const text = bytes.subarray(start, end).toString('utf8');
      start = end + 1;
      if (text.trim() === '') continue;
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        // The line a kill cut short: the request it recorded is adopted or repeated safely next time.
        if (newline < 0) this.end = { bytes: lineStart, torn: true, missingNewline: false };
        continue;
      }
      const problem = logLineProblem(line);
      if (problem)
        throw new ConfigError(`${this.path}:${lineNo}: not a sync log line: ${problem}; remove the line (a sync adopts or repeats what it recorded safely)`);
      const change = line as StateChange;
      apply({ ...change, service: canonicalServiceKey(change.service) });
      if (newline < 0) this.end.missingNewline = true;
    }
  }

  /** Opens the log for appending (once); throws the file system's error. */
  open(): void {
    if (this.log !== undefined) return;
    try {
      // Never through a link or FIFO planted under the log's name (a pull request can commit one).
      this.log = AppendLog.open(this.path, {
        mode: 0o644,
        folderMode: 0o777,
        ...(this.end.torn ? { completeBytes: this.end.bytes } : {}),
        missingNewline: !this.end.torn && this.end.missingNewline,
      });
      this.end = { bytes: 0, torn: false, missingNewline: false };
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Appends a change's line; after a failed append, every later one throws that failure. */
  append(change: StateChange): void {
    if (this.failure !== undefined) throw this.failure;
    try {
      this.open();
      // No fsync (see storage/append-log.ts): a line lost to a power cut costs an idempotent PUT again.
      this.log!.append(`${JSON.stringify(change)}\n`);
    } catch (error) {
      // The append was undone; the run stops at the first line the log cannot take.
      this.failure = error;
      throw error;
    }
  }

  close(): void {
    this.log?.close();
    this.log = undefined;
  }
}

function logLineProblem(line: unknown): string | undefined {
  if (!isObject(line)) return `expected an object, not ${describe(line)}`;
  if (line.op !== 'put' && line.op !== 'delete') return 'op must be "put" or "delete"';
  if (typeof line.service !== 'string' || typeof line.reference !== 'string') return 'service and reference must be strings';
  if (line.op === 'put') {
    const problem = recordProblem(line.record);
    if (problem) return `record${problem.field ? `.${problem.field}` : ''}: ${problem.what}`;
  }
  return undefined;
}
