/**
 * Local validation of adverts and events against the JSON Schemas (compiled at build time), giving
 * the service's error tree.
 */
import { advertFieldTypes, validateCreate, validateEvent, validateUpdate, type ValidateFunction } from '../generated/validators.js';
import type { ErrorTree } from '../errors/tree.js';
import { ajvErrorsToTree } from './ajv-errors.js';

export type AdvertMode = 'create' | 'update';

export interface ValidateOptions {
  /** Accept fields the schema does not know (they are sent as written). Default: they are errors. */
  allowUnknownFields?: boolean;
}

const fieldsByParent = new Map<string, string[]>();
for (const key of Object.keys(advertFieldTypes)) {
  if (key.endsWith('[]')) continue;
  const dot = key.lastIndexOf('.');
  const parent = dot < 0 ? '' : key.slice(0, dot);
  const list = fieldsByParent.get(parent) ?? [];
  list.push(key.slice(dot + 1));
  fieldsByParent.set(parent, list);
}
const knownFields = (parent: string) => fieldsByParent.get(parent) ?? [];

function run(validate: ValidateFunction, value: unknown, options: ValidateOptions, immutable?: string): ErrorTree {
  if (validate(value)) return {};
  let errors = validate.errors ?? [];
  // The tool's own `jobs:` block is never sent: a key it does not know is a mistake, whatever is allowed of the advert.
  if (options.allowUnknownFields) errors = errors.filter((e) => e.keyword !== 'additionalProperties' || e.instancePath.startsWith('/jobs'));
  const tree = ajvErrorsToTree(
    errors.filter((e) => !(immutable && e.keyword === 'additionalProperties' && e.instancePath === '' && e.params.additionalProperty === immutable)),
    value,
    {},
    { knownFields },
  );
  // The reference can't be changed by an update: it is invalid there, not unknown.
  if (immutable && value !== null && typeof value === 'object' && immutable in value) tree[immutable] = ['invalid'];
  return tree;
}

/** Validates an advert for create (every required field) or update (any subset, no reference). */
export function validateAdvert(value: unknown, mode: AdvertMode = 'create', options: ValidateOptions = {}): ErrorTree {
  return mode === 'create' ? run(validateCreate, value, options) : run(validateUpdate, value, options, 'reference');
}

/** Validates a job application event payload ({kind, data?}). */
export function validateEventPayload(value: unknown): ErrorTree {
  return run(validateEvent, value, {});
}

export { advertFieldTypes };
