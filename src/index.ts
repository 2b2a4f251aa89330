/**
 * The programmatic API of `jobs`: the stable surface of the pieces the CLI is built from.
 *
 *   import { JobsClient, loadAdverts, checkAdvert, renderTreeLines, syncFolder } from 'jobs-cli';
 *
 * Every failure is a JobsError (ApiError, ConfigError, InvalidInputError, UsageError, ...) with the
 * `exitCode` the CLI would exit with.
 *
 * This file is the contract: what it exports follows semver (a removal or an incompatible change is a
 * major version), and etc/jobs-cli.api.md records it (`npm run api:update` after a deliberate change;
 * test/adopt/api-report.test.ts fails until then). Nothing else under src/ is public: the sync
 * state, the plan and its execution, the lock and the bulk pipeline change shape freely, so
 * they are not exported, and syncFolder's hooks speak only the types below.
 */
import type { AdvertSource } from './core/adverts/types.js';
import type { Finding } from './core/errors/findings.js';
import { findingsFromTree as findingsWithAdvice } from './core/validation/tree-findings.js';
import type { ErrorTree } from './core/errors/tree.js';
import type { Env } from './core/config/inputs.js';
import { defaultHistoryDir as historyDirFor } from './core/history/store.js';
import type { Plan } from './core/sync/plan.js';
import {
  plannedEntry,
  syncedEntry,
  syncFolder as syncFolderWithHooks,
  type PlannedEntry,
  type SyncedEntry,
  type SyncFolderOptions,
  type SyncFolderResult,
} from './core/sync/sync-folder.js';

// The service: one method per endpoint; retries, rate limits and timeouts built in.
export { JobsClient, type Stats, type ApplicationEvent, type ClientOptions, type CallOptions } from './core/api/client.js';
export type { RetryWait } from './core/api/transport.js';
export type { ProxyEnv } from './core/api/proxy.js';
export type { CaFileLabel } from './core/api/tls-hints.js';
export type { Env } from './core/config/inputs.js';

// Advert files: YAML with positions, then the checks the CLI runs before sending anything.
export { loadAdverts, type LoadAdvertsOptions } from './core/adverts/load-with-defaults.js';
export type { LoadedAdverts } from './core/adverts/load.js';
export type { ReadResult as ParsedAdverts } from './core/adverts/types.js';
export { parseAdverts } from './core/adverts/parse.js';
export type { AdvertSource, LoadProblem, Position, PathSegment } from './core/adverts/types.js';
export type { AdvertDates } from './core/adverts/dates.js';
export { validateAdvert, validateEventPayload, type AdvertMode, type ValidateOptions } from './core/validation/validate.js';
export { checkAdvert, isValid, NO_SETTINGS, type CheckedAdvert, type AdvertSettings } from './core/validation/check.js';
// The rules by place an advert is checked with (docs/rules.md): ruleSettingsFor builds them as the CLI does.
export { ruleSettingsFor } from './core/rules/settings.js';
export type { RuleSettings, RuleFile, Rule, Requirement, EmployerFacts, RuleLevel, PlaceKind, Money, PayRangeOptions, CheckKind } from './core/rules/types.js';
// The wording checks (docs/wording.md): their settings and data types, and the neutral-title test the rules by place use.
export type { WordingSettings, WordingFile, WordingSource, PhraseKind } from './core/wording/types.js';
export { genderedTitle, type GenderedTitle } from './core/wording/neutral-title.js';

// The error tree: the service's `{"errors": {...}}`, local or remote, and its one renderer.
export { renderTreeLines, renderTreeNested } from './core/errors/render.js';
export { flattenTree, isErrorTree, hasError, type ErrorTree, type ErrorEntry } from './core/errors/tree.js';
export { formatFinding, type Finding } from './core/errors/findings.js';
export {
  ApiError,
  CancelledError,
  ConfigError,
  InvalidInputError,
  PartialFailureError,
  UsageError,
  JobsError,
  ExitCode,
  type ApiErrorKind,
} from './core/errors/failures.js';

/**
 * Each error of a tree as a finding: located at `file:line:column` when the advert's source is given
 * (as loaded), with the advice the CLI prints.
 */
export function findingsFromTree(
  tree: ErrorTree,
  source?: Pick<AdvertSource, 'file' | 'locate'> & Partial<Pick<AdvertSource, 'value'>>,
  reference?: string,
): Finding[] {
  return findingsWithAdvice(tree, source, reference);
}

// Sync: `jobs sync` as one call.
export type { SyncFolderOptions, SyncFolderResult, PlannedEntry, SyncedEntry, PlanAction } from './core/sync/sync-folder.js';

/** What a caller sees of a sync as it goes; every hook is optional. */
export interface SyncFolderHooks {
  /** The plan, before anything is sent (without dryRun, once a client is at hand: missing credentials fail first). Unchanged adverts are left out. */
  onPlan?: (plan: PlannedEntry[], info: { dryRun: boolean; statePath: string }) => void;
  /** A plan that deletes adverts, after onPlan and before anything is sent: throw to send nothing. */
  confirmDeletions?: (plan: PlannedEntry[]) => void | Promise<void>;
  /** Sending starts: this many requests to make. */
  onSend?: (total: number) => void | Promise<void>;
  /** One advert's request ended (sent or failed). */
  onResult?: (result: SyncedEntry) => void;
}

const changedEntries = (plan: Plan): PlannedEntry[] => plan.changes.filter((c) => c.action !== 'unchanged').map(plannedEntry);

/**
 * Runs `jobs sync` on a folder: the same config files, state file, lock and plan as the command.
 * Resolves to the plan (dryRun) or the results, with the exit code the CLI would use; throws
 * InvalidInputError (exit 3, each finding located) when an advert is invalid, UsageError or
 * ConfigError for a bad folder, state or setting, PartialFailureError when what was done could not
 * be recorded. Failed requests are results, not errors.
 */
export function syncFolder(options: SyncFolderOptions, hooks: SyncFolderHooks = {}): Promise<SyncFolderResult> {
  const { onPlan, confirmDeletions, onSend, onResult } = hooks;
  return syncFolderWithHooks(options, {
    ...(onPlan && { onPlan: (plan, info) => onPlan(changedEntries(plan), info) }),
    ...(confirmDeletions && { confirmDeletions: (plan) => confirmDeletions(changedEntries(plan)) }),
    ...(onSend && { onSend }),
    ...(onResult && { onResult: (result) => onResult(syncedEntry(result)) }),
  });
}

// Statistics over time: the local history `jobs stats` records, what changed, and the HTML report.
export { History, normaliseService, type Snapshot, type Counters, type Visitor as SnapshotVisitor } from './core/history/store.js';
export {
  baselinesFor,
  seriesByAdvert,
  insight,
  difference,
  attentionReasons,
  sortInsights,
  SORT_KEYS,
  type Insight,
  type Change,
  type Baselines,
  type SortKey,
} from './core/history/insights.js';
/** `$XDG_STATE_HOME/jobs/history`, or `~/.local/state/jobs/history` (a relative XDG path is ignored). */
export function defaultHistoryDir(env: Env): string {
  return historyDirFor(env);
}
export { recordAndCompare, type Observed, type RecordOptions } from './core/history/record.js';
export { buildReport, type ReportOptions, type ReportModel, type AdvertReport, type DayTotals } from './core/report/model.js';
export { renderReportHtml } from './core/report/html.js';

// The CLI itself, in-process: run(['validate', 'adverts/']) resolves to the exit code.
export { run, type RunOptions } from './cli/main.js';
export { VERSION } from './core/version.js';
