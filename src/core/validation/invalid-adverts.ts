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

/** Problems a file read as text can have: its YAML is wrong, not its bytes or its path. */
const READ_BUT_WRONG = new Set(['yaml_syntax', 'duplicate_key', 'yaml_indentation', 'yaml_tag', 'not_a_mapping', 'too_complex', 'empty']);
/** A Markdown advert's shape is wrong (core/adverts/markdown.ts): its front matter or its body. */
const MARKDOWN_WRONG = new Set(['front_matter_missing', 'front_matter_unclosed', 'front_matter_documents', 'empty_body', 'job_description_twice']);

/**
 * What the problems say of the files, for a summary: "1 file with YAML errors" for a file that was
 * read (its text is wrong), "1 file could not be read" only for one that was not (missing,
 * unreadable, binary, not UTF-8, too large); and how many adverts repeat a reference.
 */
export function problemParts(problems: readonly Pick<LoadProblem, 'file' | 'code'>[]): { files: string[]; duplicates: number } {
  const wrong = new Set<string>();
  const markdown = new Set<string>();
  const unreadable = new Set<string>();
  let duplicates = 0;
  for (const p of problems) {
    if (p.code === 'duplicate_reference') duplicates++;
    else if (READ_BUT_WRONG.has(p.code)) wrong.add(p.file);
    else if (MARKDOWN_WRONG.has(p.code)) markdown.add(p.file);
    else unreadable.add(p.file);
  }
  for (const file of unreadable) {
    wrong.delete(file);
    markdown.delete(file);
  }
  for (const file of markdown) wrong.delete(file);
  const files = [
    ...(wrong.size > 0 ? [`${plural(wrong.size, 'file')} with YAML errors`] : []),
    ...(markdown.size > 0 ? [`${plural(markdown.size, 'Markdown advert')} malformed`] : []),
    ...(unreadable.size > 0 ? [`${plural(unreadable.size, 'file')} could not be read`] : []),
  ];
  return { files, duplicates };
}

/** " (1 duplicate reference)" after "2 invalid": adverts that repeat a reference are among the invalid. */
export function duplicatesNote(duplicates: number): string {
  return duplicates > 0 ? ` (${plural(duplicates, 'duplicate reference')})` : '';
}

/** The error for these findings, counted as the files came out: adverts checked, invalid (duplicates included), problems. */
export function invalidAdverts(
  findings: readonly Finding[],
  counted: { adverts: number; invalid: number; problems: readonly Pick<LoadProblem, 'file' | 'code'>[] },
): InvalidAdvertsError {
  const { adverts, invalid, problems } = counted;
  // A file that could not be read is said so, not counted as "0 of 0 adverts invalid".
  const { files, duplicates } = problemParts(problems);
  const counts = [...(adverts > 0 ? [`${invalid} of ${plural(adverts, 'advert')} invalid${duplicatesNote(duplicates)}`] : []), ...files];
  return new InvalidAdvertsError(`${plural(findings.length, 'error')} in the advert files (${counts.join(', ')}); nothing was sent`, findings);
}
