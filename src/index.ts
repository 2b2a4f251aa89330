/**
 * The programmatic API of `jobs`: the same pieces the CLI is built from.
 *
 *   import { JobsClient, loadAdverts, checkAdvert, renderTreeLines, syncFolder } from 'jobs-cli';
 *
 * Every failure is a JobsError (ApiError, ConfigError, InvalidInputError, UsageError, ...) with the
 * `exitCode` the CLI would exit with.
 */

// The service: one method per endpoint; retries, rate limits and timeouts built in.
export { JobsClient, type Stats, type ApplicationEvent, type ClientOptions, type CallOptions } from './core/api/client.js';

// Advert files: YAML with positions, then the checks the CLI runs before sending anything.
export { loadAdverts, type LoadAdvertsOptions } from './core/adverts/load-with-defaults.js';
export type { LoadedAdverts } from './core/adverts/load.js';
export { parseAdverts } from './core/adverts/parse.js';
export type { AdvertSource, LoadProblem, Position, PathSegment } from './core/adverts/types.js';
export { validateAdvert, validateEventPayload, type AdvertMode, type ValidateOptions } from './core/validation/validate.js';
export { checkAdvert, isValid, NO_SETTINGS, type CheckedAdvert, type AdvertSettings } from './core/validation/check.js';
export { publishAdvert, type PublishMode, type PublishOutcome } from './core/publishing/publish.js';

// The error tree: the service's `{"errors": {...}}`, local or remote, and its one renderer.
export { renderTreeLines, renderTreeNested, describeEntry } from './core/errors/render.js';
export { describeMessage, parseMessage } from './core/errors/messages.js';
export { flattenTree, isErrorTree, hasError, type ErrorTree, type ErrorEntry } from './core/errors/tree.js';
export { formatFinding, type Finding } from './core/errors/findings.js';
export { findingsFromTree } from './core/validation/tree-findings.js';
export { ApiError, CancelledError, ConfigError, InvalidInputError, PartialFailureError, UsageError, JobsError, ExitCode, type ApiErrorKind } from './core/errors/failures.js';

// Sync: `jobs sync` as one call, and the pieces it is made of for callers who need another shape.
export { syncFolder, type SyncFolderOptions, type SyncFolderResult, type PlannedEntry, type SyncedEntry, type PlanAction, type SyncHooks } from './core/sync/sync-folder.js';
export { makePlan, hasChanges, type Plan, type PlannedChange, type PlanOptions, type Action } from './core/sync/plan.js';
export { executePlan, type ChangeResult, type ExecuteOptions, type ExecuteOutcome, type ResultStatus } from './core/sync/execute.js';
export { SyncState, acquireLock, DEFAULT_STATE_FILE, type AdvertRecord, type StateFile, type Lock } from './core/sync/state.js';

// Statistics over time: the local history `jobs stats` records, what changed, and the HTML report.
export { History, defaultHistoryDir, normaliseService, type Snapshot, type Counters } from './core/history/store.js';
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
export { recordAndCompare, type Observed, type RecordOptions } from './core/history/record.js';
export { buildReport, type ReportModel, type AdvertReport, type DayTotals } from './core/report/model.js';
export { renderReportHtml } from './core/report/html.js';

// The CLI itself, in-process: run(['validate', 'adverts/']) resolves to the exit code.
export { run, type RunOptions } from './cli/main.js';
export { VERSION } from './core/version.js';
