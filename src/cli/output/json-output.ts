/**
 * Every `--json` document and NDJSON line starts with `format_version`: the version of the shapes
 * that schemas/output/ describes. It is raised only when a shape changes in a way a reader must
 * know (a field removed or retyped); new fields keep it.
 */
export const FORMAT_VERSION = 1;

/** One JSON document (or NDJSON line) with its format version, and a newline. */
export function jsonText(document: object, indent?: number): string {
  return `${JSON.stringify({ format_version: FORMAT_VERSION, ...document }, null, indent)}\n`;
}
