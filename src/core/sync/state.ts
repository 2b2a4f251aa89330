/**
 * The sync state: what this tool published, per service, since the service cannot list adverts.
 * A human-readable JSON file with a version field, plus an append-only log beside it: each success
 * is appended to the log at once (a kill or Ctrl-C loses nothing), and the log is folded into the
 * state file, written atomically (temp file + rename), at the end of a run or at the next start.
 *
 * Its parts live in state/: the records in memory (model.ts), the file's format, read and written
 * (file-format.ts), the log (log.ts), the files a state brings (files.ts). The line that sums the
 * file up for a sync that finds nothing to do is state-check.ts.
 */
import { UsageError } from '../errors/failures.js';
import { canonicalServiceKey } from '../config/service-key.js';
import { removeOwnFile, replaceFile } from '../storage/replace.js';
import { logPathOf, readIfExists, reasonOf } from './state/files.js';
import { readStateFile, stateFileOf, writeStateFile, type StateFile } from './state/file-format.js';
import { StateLog } from './state/log.js';
import { StateRecords, type AdvertRecord, type StateChange } from './state/model.js';

export { acquireLock, type Lock } from '../storage/lock.js';
export { DEFAULT_STATE_FILE, defaultStateOf, EARLIER_STATE_FILE, reasonOf, stateFiles } from './state/files.js';
export { STATE_VERSION, type StateFile } from './state/file-format.js';
export type { AdvertRecord } from './state/model.js';

export class SyncState {
  private readonly records = new StateRecords();
  /** The records differ from the state file (something was recorded, or a log was folded in). */
  private changed = false;
  private readonly log: StateLog;

  private constructor(readonly path: string) {
    this.log = new StateLog(logPathOf(path));
  }

  get logPath(): string {
    return this.log.path;
  }

  static load(path: string): SyncState {
    const state = new SyncState(path);
    const bytes = readIfExists(path, 'sync state');
    if (bytes !== undefined) readStateFile(path, bytes, state.records);
    state.log.replay((change) => state.apply(change));
    return state;
  }

  /** The records of one service, by reference. */
  adverts(service: string): ReadonlyMap<string, AdvertRecord> {
    return this.records.services.get(canonicalServiceKey(service))?.adverts ?? new Map();
  }

  /** Whether most records of a service have a text hash (a state written since text hashes were recorded). */
  hasTextHashes(service: string): boolean {
    const adverts = this.records.services.get(canonicalServiceKey(service))?.adverts;
    if (!adverts || adverts.size === 0) return false;
    let withHash = 0;
    for (const r of adverts.values()) if (r.text_hash !== undefined) withHash++;
    return withHash * 2 > adverts.size;
  }

  /**
   * Records the text hash an unchanged advert's file now has (a comment edited, or a record from
   * before text hashes), when the state is to be written anyway: a run that records nothing leaves
   * the file as it is. No log line: a text hash lost to a kill costs a payload hash, not a request.
   */
  refreshTextHash(service: string, reference: string, textHash: string): void {
    if (!this.changed) return;
    const records = this.records.services.get(canonicalServiceKey(service));
    const record = records?.adverts.get(reference);
    if (record && record.text_hash !== textHash) records!.adverts.set(reference, record.withTextHash(textHash));
  }

  /**
   * Opens the log for appending, before anything is sent: a run whose successes could not be
   * recorded is refused (exit 2) instead of started.
   */
  openLog(): void {
    try {
      this.log.open();
    } catch (error) {
      throw new UsageError(`cannot write the sync log ${this.logPath} (${reasonOf(error)}); nothing was sent`, {
        details: ['it records each success at once, beside the state: choose a writable place for the state with --state <file>'],
      });
    }
  }

  /** Records a success durably before the run goes on; throws the file system's error when the log cannot take it. */
  put(service: string, reference: string, record: AdvertRecord): void {
    this.record({ op: 'put', service: canonicalServiceKey(service), reference, record });
  }

  remove(service: string, reference: string): void {
    this.record({ op: 'delete', service: canonicalServiceKey(service), reference });
  }

  /**
   * Writes the state file atomically when anything changed, then drops the log it now contains.
   * Nothing changed: the file is left as it is (same bytes, same time). When the state cannot be
   * written, the temp file is removed and the log kept (the next run folds it in); the file
   * system's error is thrown.
   */
  save(): void {
    if (this.changed) {
      try {
        // Durable: the log is removed next, so the state must be on disk before it goes (a power
        // cut must not leave an empty state and no log). A no-op run writes nothing at all. A state
        // named through a link (--state) gets the link swapped for the file, never written through.
        replaceFile(this.path, (fd) => writeStateFile(fd, this.records), { durable: true, mode: 0o644, symlink: 'replace' });
      } catch (error) {
        this.log.close();
        throw error;
      }
      this.changed = false;
    }
    this.log.close();
    removeOwnFile(this.logPath);
  }

  /** The state as written to its file. */
  toJSON(): StateFile {
    return stateFileOf(this.records);
  }

  /** In memory first, then the log: the append throws when the log cannot take it (the change stays in memory). */
  private record(change: StateChange): void {
    this.apply(change);
    this.log.append(change);
  }

  private apply(change: StateChange): void {
    this.records.apply(change);
    this.changed = true;
  }
}
