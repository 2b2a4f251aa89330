/**
 * References that can never be used. A reference is one segment of the advert's URL
 * (`/jobs/<reference>`), where `.` and `..` are path navigation (even percent-encoded, the URL parser
 * removes them): an advert created with one could never be updated, fetched or deleted. Every other
 * text round-trips (src/core/api/url.ts encodes `/`, `%`, `?`, spaces, ...); blank ones are the schema's.
 */
import { InvalidInputError } from '../errors/failures.js';

const WHY = `a reference is part of the advert's URL (/jobs/<reference>), where "." and ".." mean folders`;

/** Why a reference in an advert can never be used, or undefined when it can. */
export function unusableReference(reference: string): string | undefined {
  if (reference !== '.' && reference !== '..') return undefined;
  return `"${reference}" cannot be a reference: ${WHY}, so the advert could never be updated, fetched or deleted; choose another reference`;
}

/** Refuses references given as arguments (update, delete, stats) before anything is asked or sent. */
export function refuseUnusableReferences(references: readonly string[]): void {
  const bad = references.find((r) => unusableReference(r) !== undefined);
  if (bad !== undefined) throw new InvalidInputError(`no advert can have the reference "${bad}": ${WHY}; nothing was sent`);
}
