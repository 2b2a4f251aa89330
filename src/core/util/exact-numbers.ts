/**
 * Numbers that would not reach the service as written. Data is sent as JSON made from JavaScript
 * numbers (doubles): 12345678901234567890 would be sent as 12345678901234567000, 1e400 and .inf as
 * null. Such a value is refused where it is written rather than changed in silence.
 */
import { isScalar, visit, type Document, type Node } from 'yaml';

/**
 * Why the number written as `literal` (decimal, maybe with a fraction and an exponent) would not
 * be sent as written, given `value`, the double it reads as; undefined when it would.
 */
function inexactNumber(literal: string, value: number): string | undefined {
  if (!Number.isFinite(value)) return `${literal} is out of range (it would be sent as null)`;
  if (decimal(literal) === decimal(String(value))) return undefined;
  return `${literal} cannot be represented exactly (it would be sent as ${JSON.stringify(value)})`;
}

/** The advice that follows the reason: how to send such a value. */
export const EXACT_HINT = 'write it as a string (in quotes) to send it as written';

const SHORT_INTEGER = /^-?\d{1,15}$/;

/** The first number in valid JSON `text` that would not be sent as written, with its offset. */
export function firstInexactJsonNumber(text: string): { offset: number; reason: string } | undefined {
  const number = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      // Skip the string with its escapes: digits inside it are text.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      number.lastIndex = i;
      const literal = number.exec(text)![0];
      // Up to 15 digits, an integer is a double exactly: the common case needs no comparison.
      const reason = SHORT_INTEGER.test(literal) ? undefined : inexactNumber(literal, Number(literal));
      if (reason !== undefined) return { offset: i, reason };
      i += literal.length - 1;
    }
  }
  return undefined;
}

/**
 * The first number in a YAML node (a whole document, or the data of one event) that would not be
 * sent as written, with the offset of where it is written; aliases are followed.
 */
export function firstInexactYamlNumber(
  node: Node | Document | null,
  doc: Document,
  followed = new Set<unknown>(),
): { offset: number; reason: string } | undefined {
  let found: { offset: number; reason: string } | undefined;
  const check = (target: unknown, offset: number): void => {
    if (!isScalar(target) || typeof target.value !== 'number' || typeof target.source !== 'string') return;
    const reason = yamlNumberProblem(target.source.trim(), target.value);
    if (reason !== undefined) found = { offset, reason };
  };
  visit(node, {
    Scalar(_key, scalar) {
      check(scalar, scalar.range?.[0] ?? 0);
      return found ? visit.BREAK : undefined;
    },
    Alias(_key, alias) {
      const target = alias.resolve(doc);
      // An anchor may be used many times (or inside itself): look at what it names once.
      if (target === undefined || followed.has(target)) return undefined;
      followed.add(target);
      // Point at the alias: that is where the value lands in the data.
      const at = alias.range?.[0] ?? 0;
      if (isScalar(target)) check(target, at);
      else {
        const inner = firstInexactYamlNumber(target, doc, followed);
        if (inner) found = { offset: at, reason: inner.reason };
      }
      return found ? visit.BREAK : undefined;
    },
  });
  return found;
}

function yamlNumberProblem(source: string, value: unknown): string | undefined {
  if (typeof value !== 'number') return undefined;
  // 0x1F and 0o17: compare as whole numbers; decimals compare digit by digit.
  if (/^0[xo]/i.test(source)) {
    if (!Number.isFinite(value)) return inexactNumber(source, value);
    return BigInt(source.toLowerCase()) === BigInt(value)
      ? undefined
      : `${source} cannot be represented exactly (it would be sent as ${JSON.stringify(value)})`;
  }
  if (/^[-+]?\.(inf|nan)$/i.test(source)) return `${source} has no JSON form (it would be sent as null)`;
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(source) ? inexactNumber(source, value) : undefined;
}

/** A decimal literal as `[-]digits e exponent`, without leading or trailing zeros: equal values, equal text. */
function decimal(literal: string): string {
  const m = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(literal);
  if (!m) return literal;
  const [, sign, whole = '', fraction = '', exponent = '0'] = m;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  let power = BigInt(exponent) - BigInt(fraction.length);
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  power += BigInt(trailing);
  return `${sign === '-' ? '-' : ''}${digits}e${power}`;
}
