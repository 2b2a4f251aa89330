/**
 * The pay an advert shows: its salary_text (what is sent) read by pay.ts, with the structured
 * `jobs.pay` where the two agree (it adds the currency's code and the period a text may leave out).
 * Where salary_text is left out, it is written from jobs.pay in the advert's language.
 */
import { languageOf } from './disclosures.js';
import { disagreement, PERIODS, readSalaryText, writeSalaryText, type Pay, type Per } from './pay.js';

export type ShownPay = { kind: 'pay'; pay: Pay } | { kind: 'link'; url: string } | { kind: 'unread'; why: string } | { kind: 'none' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const amount = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** `jobs.pay` when it is well formed (the schema and pay checks report it otherwise). */
export function structuredPay(advert: Record<string, unknown>): (Pay & { currency: string }) | undefined {
  const block = isObject(advert.jobs) ? advert.jobs : undefined;
  const pay = block && isObject(block.pay) ? block.pay : undefined;
  if (!pay || !amount(pay.min) || (pay.max !== undefined && !amount(pay.max)) || typeof pay.currency !== 'string') return undefined;
  if (pay.per !== undefined && !PERIODS.includes(pay.per as Per)) return undefined;
  if (pay.max !== undefined && (pay.max as number) < (pay.min as number)) return undefined;
  return {
    min: pay.min as number,
    ...(pay.max === undefined ? {} : { max: pay.max as number }),
    currency: pay.currency,
    ...(pay.per === undefined ? {} : { per: pay.per as Per }),
  };
}

/** The pay the candidate sees. */
export function shownPay(advert: Record<string, unknown>): ShownPay {
  const text = advert.salary_text;
  if (typeof text !== 'string' || text.trim() === '') return { kind: 'none' };
  const read = readSalaryText(text);
  if (read.kind !== 'pay') return read;
  const pay = structuredPay(advert);
  return { kind: 'pay', pay: pay && disagreement(read.pay, pay) === undefined ? { ...read.pay, ...pay } : read.pay };
}

/** Where salary_text and jobs.pay disagree: `min`, `max`, `currency`, `per`, or `unread` (the text shows no pay that can be compared). */
export function payDisagreement(advert: Record<string, unknown>): string | undefined {
  const pay = structuredPay(advert);
  if (!pay || typeof advert.salary_text !== 'string') return undefined;
  const read = readSalaryText(advert.salary_text);
  return read.kind === 'pay' ? disagreement(read.pay, pay) : 'unread';
}

/** The advert with salary_text written from jobs.pay, when it has a pay and no salary_text; else the advert itself. */
export function withSalaryText(advert: Record<string, unknown>): Record<string, unknown> {
  if (advert.salary_text !== undefined) return advert;
  const pay = structuredPay(advert);
  return pay ? { ...advert, salary_text: writeSalaryText(pay, languageOf(advert)) } : advert;
}
