/**
 * `jobs.disclosures`: statements the tool adds to the text that is sent, so that a fact kept in the
 * never-sent `jobs:` block still reaches the candidate. Each is appended to `job_description` as a
 * paragraph of its own, in this order (publish --dry-run and the payload show them):
 *
 *   jobs:
 *     closes: 2026-12-31
 *     disclosures:
 *       benefits: Health, dental and vision insurance; 20 days of paid leave.
 *       deadline: true            # "Applications close on 2026-12-31." (from jobs.closes, in the advert's language)
 *       ai_screening: We do not use AI to screen, assess or select applicants.
 *       vacancy: This posting is for an existing vacancy.
 *       overpayment: Bereitschaft zur Überzahlung.
 *
 * A disclosure satisfies its rule whatever its words (it is the statement); text found elsewhere in
 * the advert satisfies it only by the words statements.ts looks for.
 */
import type { StatementKind } from './statements.js';

export const DISCLOSURE_KINDS: Record<string, StatementKind> = {
  benefits: 'benefits',
  deadline: 'deadline',
  ai_screening: 'ai_screening',
  vacancy: 'vacancy_status',
  overpayment: 'overpayment',
};

export { languageOf, type Language } from '../adverts/language.js';
import { languageOf, type Language } from '../adverts/language.js';

const DEADLINE: Record<Language, (date: string) => string> = {
  en: (d) => `Applications close on ${d}.`,
  de: (d) => `Bewerbungen bis ${d}.`,
  fr: (d) => `Candidatures jusqu'au ${d}.`,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The paragraphs the tool adds to job_description, with the statement each makes. */
export function disclosuresOf(advert: Record<string, unknown>): { kind: StatementKind; text: string }[] {
  const block = isObject(advert.jobs) ? advert.jobs : undefined;
  const given = block && isObject(block.disclosures) ? block.disclosures : undefined;
  if (!given) return [];
  const out: { kind: StatementKind; text: string }[] = [];
  for (const [key, kind] of Object.entries(DISCLOSURE_KINDS)) {
    const value = given[key];
    if (key !== 'deadline' && typeof value === 'string' && value.trim() !== '') out.push({ kind, text: value.trim() });
    else if (key === 'deadline' && value === true && typeof block!.closes === 'string') out.push({ kind, text: DEADLINE[languageOf(advert)](block!.closes) });
  }
  return out;
}

/** The payload with its disclosures appended to job_description (the payload itself when it has none). */
export function withDisclosures(payload: Record<string, unknown>, advert: Record<string, unknown>): Record<string, unknown> {
  const added = disclosuresOf(advert);
  if (added.length === 0 || typeof payload.job_description !== 'string') return payload;
  return { ...payload, job_description: [payload.job_description.trimEnd(), ...added.map((d) => d.text)].join('\n\n') };
}
