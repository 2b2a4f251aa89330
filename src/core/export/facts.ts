/**
 * The advert's own facts that export reads from its `jobs:` block (never sent): the structured pay
 * and where a remote job may be done from, in the shape the rules by place share
 * (docs/adverts.md): `pay: { min, max?, currency, per }`, `remote: { from: [...] }`. The advert
 * schema has checked the shape; this is the one place export reads it.
 */

export type PayUnit = 'hour' | 'day' | 'week' | 'month' | 'year';

export interface Pay {
  min: number;
  /** Absent: an open-ended "from"; equal to min: a fixed pay. */
  max?: number;
  /** ISO 4217. */
  currency: string;
  per: PayUnit;
}

export interface Remote {
  /** ISO 3166-1 or 3166-2 codes (or a city place id, `US-NY/new-york-city`). */
  from: string[];
}

export interface AdvertFacts {
  pay?: Pay;
  remote?: Remote;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The pay and remote facts of a `jobs:` block (as written); a part not in the expected shape is left out. */
export function advertFacts(block: unknown): AdvertFacts {
  if (!isObject(block)) return {};
  const facts: AdvertFacts = {};
  const { pay, remote } = block;
  if (isObject(pay) && typeof pay.min === 'number' && typeof pay.currency === 'string' && typeof pay.per === 'string') {
    facts.pay = { min: pay.min, currency: pay.currency, per: pay.per as PayUnit, ...(typeof pay.max === 'number' ? { max: pay.max } : {}) };
  }
  if (isObject(remote) && Array.isArray(remote.from)) facts.remote = { from: remote.from.filter((p): p is string => typeof p === 'string') };
  return facts;
}
