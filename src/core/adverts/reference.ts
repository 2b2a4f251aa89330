/**
 * References that can never be used, and the one form a reference takes.
 *
 * A reference is one segment of the advert's URL (`/jobs/<reference>`), where `.` and `..` are path
 * navigation (even percent-encoded, the URL parser removes them): an advert created with one could
 * never be updated, fetched or deleted. Text that is not well-formed Unicode (a lone UTF-16
 * surrogate, `"\uD800"` in YAML) has no UTF-8 form, so it cannot be put in a URL at all. A reference
 * that is blank when printed (a zero-width space alone) could be neither told apart nor typed.
 * Every other text round-trips (src/core/config/base-url.ts encodes `/`, `%`, `?`, spaces, ...); blank
 * ones are the schema's.
 *
 * References are compared, stored and sent in Unicode normalisation form C (NFC): `café` typed as
 * one code point or as `e` plus a combining accent (what some editors save) is one advert.
 */
import { InvalidInputError, UsageError } from '../errors/failures.js';

const WHY = `a reference is part of the advert's URL (/jobs/<reference>), where "." and ".." mean folders`;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

let invisible: RegExp | undefined;
/**
 * Characters that print as nothing: white space, controls, format characters (zero-width space and
 * joiners, the byte order mark, bidi marks), variation selectors, the combining grapheme joiner, and
 * the fillers that render blank. Made at its first use (about 0.4 ms: V8 reads each `\p{...}` from
 * ICU), which a reference with a letter or digit never reaches.
 */
const INVISIBLE = () => (invisible ??= /[\s\p{Cc}\p{Cf}\p{Z}\u2800\u3164\uFFA0]|\p{Variation_Selector}|\u034F|\u115F|\u1160|\u17B4|\u17B5/gu);

/** True when the text holds a lone surrogate: it is not well-formed Unicode. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** True when the text is not empty but shows nothing when printed. */
export function blankWhenPrinted(text: string): boolean {
  // A printable ASCII character other than space shows: none of them is in INVISIBLE.
  if (/[!-~]/.test(text)) return false;
  return text.trim() !== '' && text.replace(INVISIBLE(), '') === '';
}

/** The text with every character outside printable ASCII as \uXXXX, to show what is there. */
function escaped(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += code >= 0x20 && code < 0x7f ? text[i] : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `"${out}"`;
}

/** Why a text cannot be an identifier in a URL (`what`: "reference", "application id"), or undefined. */
export function unusableIdentifier(text: string, what: string): string | undefined {
  if (hasLoneSurrogate(text)) {
    return `the ${what} ${escaped(text)} is not well-formed Unicode (it holds half of a UTF-16 surrogate pair, which has no UTF-8 form), so it cannot be put in a URL; write the character it was meant to be`;
  }
  if (blankWhenPrinted(text)) {
    return `the ${what} ${escaped(text)} is blank when printed (only invisible characters), so no one could tell it apart or type it; choose a visible ${what}`;
  }
  return undefined;
}

/** Why a reference in an advert can never be used, or undefined when it can. */
export function unusableReference(reference: string): string | undefined {
  if (reference === '.' || reference === '..') {
    return `"${reference}" cannot be a reference: ${WHY}, so the advert could never be updated, fetched or deleted; choose another reference`;
  }
  return unusableIdentifier(reference, 'reference');
}

/** A reference in the form the tool compares, stores and sends it: NFC. */
export function normalReference(reference: string): string {
  // A lone surrogate is refused by the checks above; normalising it would not fail, but keep it as written.
  return hasLoneSurrogate(reference) ? reference : reference.normalize('NFC');
}

/**
 * Refuses references given as arguments (update, delete, stats) before anything is asked or sent,
 * and returns them in NFC.
 */
export function refuseUnusableReferences(references: readonly string[]): string[] {
  const bad = references.find((r) => r === '.' || r === '..');
  if (bad !== undefined) throw new InvalidInputError(`no advert can have the reference "${bad}": ${WHY}; nothing was sent`);
  refuseUnusableArguments(references, 'reference');
  return references.map(normalReference);
}

/** Refuses identifiers given on the command line that cannot be put in a URL: a usage error. */
export function refuseUnusableArguments(values: readonly string[], what: string): void {
  for (const value of values) {
    const why = unusableIdentifier(value, what);
    if (why !== undefined) throw new UsageError(`${why}; nothing was sent`);
  }
}

/** An advert read from a file, with its `reference` in NFC (the readers call this on every document). */
export function withNormalReference(value: Record<string, unknown>): Record<string, unknown> {
  const reference = value.reference;
  // Most references are ASCII, already in every normal form.
  if (typeof reference !== 'string' || /^[\x00-\x7f]*$/.test(reference)) return value;
  const normal = normalReference(reference);
  if (normal !== reference) Object.defineProperty(value, 'reference', { value: normal, enumerable: true, writable: true, configurable: true });
  return value;
}
