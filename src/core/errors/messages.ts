/**
 * Message identifiers: parsing per the spec's pattern and a human sentence for every identifier in
 * the spec's common list. Unknown identifiers, and messages that don't match the pattern, are shown
 * as they came.
 */
const MESSAGE_PATTERN = /^([_a-z]+)((?::\w+)*)$/;

export interface ParsedMessage {
  id: string;
  data: string[];
}

export function parseMessage(message: string): ParsedMessage | undefined {
  const m = MESSAGE_PATTERN.exec(message);
  if (!m) return undefined;
  const data = m[2] ? m[2].slice(1).split(':') : [];
  return { id: m[1]!, data };
}

type Describe = (data: string[]) => string | undefined;

const one =
  (f: (x: string) => string): Describe =>
  (data) =>
    data.length === 1 ? f(data[0]!) : undefined;

/** The spec's common messages, worded as the end of a sentence about the parameter. */
const CATALOGUE: Record<string, Describe> = {
  missing: () => 'is missing (required)',
  invalid: () => 'is invalid',
  blank: () => 'must not be blank',
  taken: () => 'is already taken',
  inclusion: () => 'is not one of the permitted values',
  not_a_number: () => 'must be a number',
  not_an_integer: () => 'must be an integer',
  greater_than: one((n) => `must be at most ${n}`),
  greater_than_or_equal_to: one((n) => `must be less than ${n}`),
  less_than: one((n) => `must be at least ${n}`),
  less_than_or_equal_to: one((n) => `must be greater than ${n}`),
  too_long: one((n) => `is too long (maximum ${n} characters)`),
  too_short: one((n) => `is too short (minimum ${n} characters)`),
  quota_exceeded: () => 'too many API calls (rate quota exceeded)',
  unauthorized: () => 'authentication failed',
  not_found: () => 'was not found',
  // Local only: a field the schema does not have (data: the nearest known field).
  unknown_field: (data) => (data[0] ? `is not a known field; did you mean ${data[0]}?` : 'is not a known field'),
};

/** Human text for a message, or undefined when the identifier is not in the catalogue. */
export function describeMessage(message: string): string | undefined {
  const parsed = parseMessage(message);
  if (!parsed) return undefined;
  const describe = CATALOGUE[parsed.id];
  return describe ? describe(parsed.data) : undefined;
}
