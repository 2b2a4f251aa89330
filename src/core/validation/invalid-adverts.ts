/**
 * Advert files that stop a sending command before anything is sent: the error carries every
 * finding, and the command on top decides how to show them (terminal lines, --json, SARIF...).
 */
import type { LoadProblem } from '../adverts/types.js';
import { InvalidInputError } from '../errors/failures.js';
import { formatFinding, type Finding } from '../errors/findings.js';
import { plural } from '../util/plural.js';

export class InvalidAdvertsError extends InvalidInputError {
  constructor(
    message: string,
    /** Sorted, as they are shown. */
    readonly findings: readonly Finding[],
  ) {
    // As lines, where a caller of the API looks first; the CLI shows the findings in the format asked.
    super(message, { details: findings.map(formatFinding) });
  }
}

/** The error for these findings, counted as the files came out: adverts checked, invalid, problems. */
export function invalidAdverts(findings: readonly Finding[], counted: { adverts: number; invalid: number; problems: readonly Pick<LoadProblem, 'file' | 'code'>[] }): InvalidAdvertsError {
  const { adverts, invalid, problems } = counted;
  // A file that could not be read is said so, not counted as "0 of 0 adverts invalid".
  const duplicates = problems.filter((p) => p.code === 'duplicate_reference').length;
  const unreadable = new Set(problems.filter((p) => p.code !== 'duplicate_reference').map((p) => p.file)).size;
  const counts = [
    ...(adverts > 0 ? [`${invalid} of ${plural(adverts, 'advert')} invalid`] : []),
    ...(unreadable > 0 ? [`${plural(unreadable, 'file')} could not be read`] : []),
    ...(duplicates > 0 ? [plural(duplicates, 'duplicate reference')] : []),
  ];
  return new InvalidAdvertsError(`${plural(findings.length, 'error')} in the advert files (${counts.join(', ')}); nothing was sent`, findings);
}
