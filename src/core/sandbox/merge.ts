/**
 * Partial updates: a nested object in the update merges into the stored one field by field (a
 * recruiter holding only phone keeps the stored email); any other value, arrays included, replaces.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function mergeUpdate(stored: JsonObject, update: JsonObject): JsonObject {
  const out: JsonObject = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    const current = out[key];
    out[key] = isJsonObject(current) && isJsonObject(value) ? mergeUpdate(current, value) : value;
  }
  return out;
}
