/**
 * What configuration contributes to every advert before validation: defaults merged underneath,
 * and named constants (`contract_id: permanent`) replaced by the service's ids.
 */
import type { ConstantFamily } from './types.js';
import { cloneData, deepMerge, isPlainObject, ownValue, type PlainObject } from './plain.js';

/** Defaults deep-merged under the advert: advert values win, arrays are replaced, inputs untouched. */
export function applyDefaults(advert: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  return deepMerge(defaults, advert);
}

export type Constants = Partial<Record<ConstantFamily, Record<string, number | string>>>;

export interface ConstantError {
  path: string[];
  message: string;
}

/** Fields that may hold a constant's name, with their family; `*_id` fields also accept integer strings. */
const CONSTANT_FIELDS: ReadonlyArray<{ path: readonly string[]; family: ConstantFamily; isId: boolean }> = [
  { path: ['contract_id'], family: 'contract', isId: true },
  { path: ['salary_id'], family: 'salary', isId: true },
  { path: ['industry_id'], family: 'industry', isId: true },
  { path: ['department_id'], family: 'department', isId: true },
  { path: ['organization_type'], family: 'organization_type', isId: false },
  { path: ['recruiter', 'organization_type'], family: 'organization_type', isId: false },
];

const INTEGER_TEXT = /^-?\d+$/;

/** The constant family a field takes names from (`contract_id` -> contract), if any. */
export function constantFamilyAt(path: readonly string[]): ConstantFamily | undefined {
  return CONSTANT_FIELDS.find((f) => f.path.length === path.length && f.path.every((k, i) => k === path[i]))?.family;
}

/**
 * Replaces constant names by their ids. A string that is neither a name in its family's map nor one
 * of the map's values (nor, for `*_id` fields, an integer) gives an `inclusion` error at its path.
 * Without a map for a family its strings are left for the schema to judge. Numbers pass unchanged.
 */
export function applyConstants(advert: Record<string, unknown>, constants: Constants): { advert: Record<string, unknown>; errors: ConstantError[] } {
  const result = cloneData(advert);
  const errors: ConstantError[] = [];
  for (const field of CONSTANT_FIELDS) {
    const parent = parentOf(result, field.path);
    const key = field.path[field.path.length - 1]!;
    if (!parent) continue;
    const value = ownValue(parent, key);
    const map = constants[field.family];
    if (typeof value !== 'string' || !isPlainObject(map)) continue;
    if (Object.prototype.hasOwnProperty.call(map, value)) {
      parent[key] = map[value];
    } else if (!(field.isId && INTEGER_TEXT.test(value)) && !Object.values(map).includes(value)) {
      errors.push({ path: [...field.path], message: 'inclusion' });
    }
  }
  return { advert: result, errors };
}

function parentOf(root: PlainObject, path: readonly string[]): PlainObject | undefined {
  let node: PlainObject = root;
  for (const key of path.slice(0, -1)) {
    const next = ownValue(node, key);
    if (!isPlainObject(next)) return undefined;
    node = next;
  }
  return node;
}
