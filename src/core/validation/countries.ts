/**
 * "Did you mean US?" for a country written some other way than its ISO 3166-1 alpha-2 code: a
 * lower-case code (`fr`), an alpha-3 code (`USA`, `GBR`), a numeric code (`578`), or an English name
 * or common alias (`Norway`, `UK`, `Great Britain`). Names and codes come from i18n-iso-countries (a
 * maintained list); a suggestion is made only when the schema permits the code. The list is loaded
 * when a country error needs a suggestion, never on the way to a valid advert.
 */

interface CountryList {
  registerLocale(data: unknown): void;
  alpha3ToAlpha2(code: string): string | undefined;
  numericToAlpha2(code: string): string | undefined;
  getAlpha2Code(name: string, lang: string): string | undefined;
  getName(code: string, lang: string): string | undefined;
}

let list: CountryList | undefined;

function countries(): CountryList {
  if (!list) {
    // Required at run time (not bundled): a CLI start never reads it. node:module when needed: it
    // loads Node's ESM loader, which no start needs. The single executable bundles the package
    // instead (scripts/build-binary.mjs drops this line).
    const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);
    list = require('i18n-iso-countries') as CountryList;
    list.registerLocale(require('i18n-iso-countries/langs/en.json'));
  }
  return list;
}

export interface CountrySuggestion {
  code: string;
  /** English name, for the message. */
  name: string;
}

/** The permitted alpha-2 code `text` most likely means, or undefined. */
export function suggestCountry(text: string, permitted: readonly unknown[]): CountrySuggestion | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const allowed = (code: string | undefined) => (code !== undefined && permitted.includes(code) ? code : undefined);
  const upper = trimmed.toUpperCase();
  let code = allowed(upper);
  try {
    const iso = countries();
    if (code === undefined && /^[A-Za-z]{3}$/.test(trimmed)) code = allowed(iso.alpha3ToAlpha2(upper));
    if (code === undefined && /^\d{3}$/.test(trimmed)) code = allowed(iso.numericToAlpha2(trimmed));
    if (code === undefined) code = allowed(iso.getAlpha2Code(trimmed, 'en'));
    return code === undefined ? undefined : { code, name: iso.getName(code, 'en') ?? code };
  } catch {
    // The list could not be loaded (a broken install): the message simply has no suggestion.
    return code === undefined ? undefined : { code, name: code };
  }
}
