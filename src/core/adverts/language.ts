/**
 * The language an advert is written in: `jobs.language` when the advert says, else the language of
 * its location's country (a small table). Read by what the tool writes into an advert (salary_text,
 * the disclosures: rules/) and by the wording checks (wording/), which say when it was inferred.
 */
export type Language = 'en' | 'de' | 'fr';

/** Countries whose adverts are read as written in a language when `jobs.language` is absent. */
const BY_COUNTRY: Record<string, Language> = {
  AT: 'de',
  DE: 'de',
  LI: 'de',
  CH: 'de',
  FR: 'fr',
  BE: 'fr',
  LU: 'fr',
  MC: 'fr',
  GB: 'en',
  IE: 'en',
  US: 'en',
  CA: 'en',
  AU: 'en',
  NZ: 'en',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The language and where it comes from: 'jobs.language', a country code (inferred), or 'default' (neither says). */
export function advertLanguage(advert: Record<string, unknown>): { language: Language; from: string } {
  const block = isObject(advert.jobs) ? advert.jobs : {};
  if (block.language === 'en' || block.language === 'de' || block.language === 'fr') return { language: block.language, from: 'jobs.language' };
  const country = isObject(advert.location) ? advert.location.country : undefined;
  const inferred = typeof country === 'string' && Object.hasOwn(BY_COUNTRY, country) ? BY_COUNTRY[country] : undefined;
  return inferred ? { language: inferred, from: country as string } : { language: 'en', from: 'default' };
}

/** The advert's language: `jobs.language`, else from its country (AT, DE, LI, CH: de; FR, BE, LU, MC: fr; else en). */
export function languageOf(advert: Record<string, unknown>): Language {
  return advertLanguage(advert).language;
}
