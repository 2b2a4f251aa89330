/**
 * The no-op shortcut, in one place: a sync whose folder is exactly what the state recorded (every
 * advert where the state has it, with the text it had) sends nothing and records nothing, and it
 * need not read the state's records to know it. The state file's last line (state-check.ts) sums
 * up each service's records; the folder is then checked hashing each file's text only (at about
 * validate's pace), and when the folder sums to the same set, the plan is "all unchanged" and the
 * records are never read. Reading them was the largest part of a sync that finds nothing to do.
 *
 * Not taken with --force, with a log beside the state (it holds records the file does not), when
 * the file was edited by hand (its bytes no longer hash to the line), or when another sync changed
 * the state meanwhile (see sync-folder.ts).
 */
import { existsSync } from 'node:fs';
import { canonicalServiceKey } from '../config/service-key.js';
import type { ExecuteOutcome } from './execute.js';
import { unchangedPlan } from './plan-folder.js';
import type { CheckedDigests as FolderDigests } from '../bulk/check-paths.js';
import type { Plan } from './plan.js';
import { readStateCheck, type StateCheck } from './state-check.js';
import { logPathOf } from './state/files.js';

export class UnchangedShortcut {
  private constructor(
    private readonly check: StateCheck | undefined,
    /** The state's sum of this service's records, when its check line has one. */
    private readonly sum: string | undefined,
  ) {}

  /** The shortcut a state offers for a service: none with --force or a log beside it. */
  static offeredBy(statePath: string, service: string, force: boolean): UnchangedShortcut {
    const check = force || existsSync(logPathOf(statePath)) ? undefined : readStateCheck(statePath);
    return new UnchangedShortcut(check, check?.sums.get(canonicalServiceKey(service)));
  }

  /** No shortcut (the state changed since it was offered). */
  static readonly none = new UnchangedShortcut(undefined, undefined);

  /** Whether the folder's adverts are hashed by their text only: the state may tell they are unchanged. */
  get textOnly(): boolean {
    return this.sum !== undefined;
  }

  /** Whether the state file is still what its check line says: then its records need not be read. */
  holds(): boolean {
    return this.sum !== undefined && this.check!.holds();
  }

  /** The plan when the folder sums to the state's sum (every advert unchanged); undefined otherwise. */
  plan(folder: FolderDigests, fileOf: (shown: string) => string): Plan | undefined {
    return this.sum === undefined ? undefined : unchangedPlan(folder, fileOf, this.sum);
  }
}

/** The outcome of a plan with nothing to send or record. */
export const NOTHING_DONE: Readonly<ExecuteOutcome> = Object.freeze({ results: [], notStarted: 0, unlogged: [] });
