/**
 * The programmatic API of `jobs`: the same pieces the CLI is built from.
 *
 *   import { JobsClient, loadAdverts, checkAdvert } from 'jobs-cli';
 */
export { JobsClient, type Stats, type ApplicationEvent, type ClientOptions, type CallOptions } from './api/client.js';
export { loadAdverts, type LoadedAdverts, type LoadOptions } from './adverts/load.js';
export { parseAdverts } from './adverts/parse.js';
export type { AdvertSource, LoadProblem, Position, PathSegment } from './adverts/types.js';
export { validateAdvert, validateEventPayload, type AdvertMode, type ValidateOptions } from './validation/validate.js';
export { checkAdvert, isValid, type CheckedAdvert, type AdvertSettings } from './validation/check.js';
export { publishAdvert, type PublishMode, type PublishOutcome } from './publishing/publish.js';
export { renderTreeLines, renderTreeNested, describeEntry } from './errors/render.js';
export { describeMessage, parseMessage } from './errors/messages.js';
export { flattenTree, isErrorTree, hasError, type ErrorTree, type ErrorEntry } from './errors/tree.js';
export { findingsFromTree, formatFinding, type Finding } from './output/findings.js';
export { ApiError, ConfigError, InvalidInputError, UsageError, JobsError, ExitCode } from './errors/failures.js';
export { run } from './cli.js';
