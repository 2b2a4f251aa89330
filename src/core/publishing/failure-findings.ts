/**
 * Where a failed send is shown: each error of the service's tree at its YAML line, or (no tree: a
 * network error, a 404) one finding for the advert itself. A bulk run computes these while the
 * advert is at hand and keeps them instead of the advert (its payload and source map).
 */
import { ApiError, type JobsError } from '../errors/failures.js';
import type { Finding } from '../errors/findings.js';
import { findingsFromTree } from '../validation/tree-findings.js';
import type { AdvertSource } from '../adverts/types.js';

export function failureFindings(error: JobsError, source: { file: string; locate?: AdvertSource['locate'] }, reference?: string, value?: unknown): Finding[] {
  if (error instanceof ApiError && error.tree && source.locate) {
    return findingsFromTree(error.tree, { file: source.file, locate: source.locate }, reference, value === undefined ? {} : { value });
  }
  const line = source.locate ? source.locate([]).line : undefined;
  return [
    {
      kind: 'file',
      file: source.file,
      ...(line === undefined ? {} : { line, column: 1 }),
      path: '',
      message: 'failed',
      text: error.message,
      rule: 'failed',
      ...(reference === undefined ? {} : { reference }),
    },
  ];
}
