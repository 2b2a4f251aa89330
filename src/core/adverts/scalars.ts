/**
 * Schema-directed scalar typing. YAML is parsed with the failsafe schema (every scalar is text), then
 * each plain scalar is typed by what the schema expects at its path: a string field keeps the exact
 * source text (`country: NO` is "NO", `reference: 00123` is "00123"), an integer field takes YAML 1.2
 * core-schema numbers only, and fields the schema does not know get the core schema's usual typing.
 * Quoted and block scalars are always strings: text never silently becomes a number.
 */

const NULL = /^(?:~|null|Null|NULL)?$/;
const BOOL = /^(?:true|True|TRUE|false|False|FALSE)$/;
const INT_DEC = /^[-+]?[0-9]+$/;
const INT_OCT = /^0o[0-7]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INF = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;

/** The YAML 1.2 core schema's reading of a plain scalar. */
export function coreScalar(text: string): unknown {
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (INT_DEC.test(text)) return safeNumber(Number(text), text);
  if (INT_OCT.test(text)) return safeNumber(parseInt(text.slice(2), 8), text);
  if (INT_HEX.test(text)) return safeNumber(parseInt(text.slice(2), 16), text);
  if (FLOAT.test(text)) return Number(text);
  if (INF.test(text)) return text[0] === '-' ? -Infinity : Infinity;
  if (NAN.test(text)) return NaN;
  return text;
}

/** Integers beyond 2^53 would silently change; keep them as text so validation reports them. */
function safeNumber(n: number, text: string): number | string {
  return Number.isSafeInteger(n) ? n : text;
}

/**
 * Types a plain scalar for a field whose JSON type(s) the schema gives (`string`, `integer`,
 * `string|integer`, ...), or undefined when the path is unknown to the schema.
 */
export function typedPlainScalar(text: string, types: string | undefined): unknown {
  if (types === undefined) return coreScalar(text);
  if (NULL.test(text)) return null;
  if (types === 'string') return text;
  const core = coreScalar(text);
  if (types.includes('string') && !(typeof core === 'number' && Number.isInteger(core))) return text;
  return core;
}
