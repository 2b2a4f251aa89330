/**
 * Whether a job title names one gender where the law asks for a neutral one (Austria: GlBG § 9(1),
 * an advert may not be addressed to one gender only; docs/wording.md). German job titles are nouns
 * with a masculine or a feminine form: "Softwareentwickler" names men, "Softwareentwicklerin" women.
 * A title passes with the customary marker of all genders, (m/w/d) and its spellings, with a
 * gender-inclusive form (Softwareentwickler:in, *in, _in, /in, the capital I: SoftwareentwicklerIn),
 * with both forms written, or with a noun that has no gender (Fachkraft, Leitung, Hilfe).
 *
 * What it does not judge: English titles in a German advert (Software Engineer), whose words have no
 * gendered form; they pass. A pure function, so the rules by place (rules/check-rules.ts) and the
 * tests call it alike.
 */
import { compiledWording, normal } from './compile.js';

export interface GenderedTitle {
  /** The gendered word as written. */
  word: string;
  /** What to write instead. */
  instead: string;
}

/** (m/w/d), (w/m/d), (m/f/d), (m/w/x), (d/m/w), (all genders), (alle Geschlechter), (gn), ... */
const MARKER = /[([]\s*(?:[mwfdxi]\s*[/|,]\s*[mwfdxi](?:\s*[/|,]\s*[mwfdxi]){0,2}|all genders|alle geschlechter|gn\*?|genderneutral)\s*[)\]]/i;
/** The marker of three without brackets, as often written: "Softwareentwickler m/w/d", "Softwareentwickler - w/m/d". */
const BARE_MARKER = /(?:^|[\s\-–|,])[mwfdx]\s*\/\s*[mwfdx]\s*\/\s*[mwfdx](?=$|[\s,.;])/i;
/**
 * The German endings, made at the first German title: V8 reads `\p{Ll}` from ICU for each
 * expression it makes, which every start paid when they were made as the module loaded.
 */
let endings: { inclusive: RegExp; masculine: RegExp; feminine: RegExp } | undefined;
const germanEndings = () =>
  (endings ??= {
    /** A gender-inclusive ending: Entwickler:in, Entwickler*innen, Entwickler_in, Entwickler/in, Entwickler/-in, EntwicklerIn. */
    inclusive: /(?:[:*_·]|\/-?)in(?:nen)?$|\p{Ll}In(?:nen)?$/u,
    /** German masculine agent endings (Entwickler, Ingenieur, Direktor, Referent, Praktikant, Jurist, Kandidat, Kaufmann). */
    masculine: /\p{Ll}(?:er|eur|or|ent|ant|ist|at|mann)$/u,
    /** Their feminine forms (Entwicklerin, Ingenieurin, Kauffrau). */
    feminine: /\p{Ll}(?:erin|eurin|orin|entin|antin|istin|atin|frau)$/u,
  });
/** Words with those endings that name no person, and English title words, which have no gendered form. */
const NOT_A_PERSON = new Set(
  [
    'lager',
    'computer',
    'center',
    'zentrum',
    'management',
    'data',
    'partner',
    'manager',
    'developer',
    'engineer',
    'designer',
    'officer',
    'leader',
    'owner',
    'writer',
    'tester',
    'consultant',
    'assistant',
    'specialist',
    'scientist',
    'analyst',
    'architect',
    'controller',
    'recruiter',
    'trainer',
    'product',
    'content',
    'front',
    'frontend',
    'backend',
    'support',
    'senior',
    'junior',
    'teilzeit',
    'vollzeit',
    'winter',
    'sommer',
  ].map((w) => w.toLowerCase()),
);

/** The gendered word of a title in a language, or undefined when the title is neutral (or the language is not judged). */
export function genderedTitle(title: string, language: string): GenderedTitle | undefined {
  if (language === 'en') return englishTitle(title);
  if (language !== 'de') return undefined;
  // Full-width brackets, a non-breaking space: the marker as it shows (NFKC), not as it is encoded.
  const shown = title.normalize('NFKC');
  if (MARKER.test(shown) || BARE_MARKER.test(shown)) return undefined;
  const words = title.match(/\p{L}[\p{L}:*_·]*(?:\/-?in(?:nen)?(?!\p{L}))?/gu) ?? [];
  const folded = words.map((w) => w.toLowerCase());
  const { inclusive, masculine: masculineEnding, feminine: feminineEnding } = germanEndings();
  for (const word of words) {
    if (inclusive.test(word) || /(?:[:*_·]|\/-?)IN(?:NEN)?$/.test(word)) continue;
    const written = word.replace(/[:*_·/-]+$/, '');
    // A title in capitals (SOFTWAREENTWICKLER) is read as the noun it is: the endings are tested in lower case.
    const bare = written.length > 3 && written === written.toUpperCase() ? written[0] + written.slice(1).toLowerCase() : written;
    const lower = bare.toLowerCase();
    // A German noun is written with a capital: oder, für, über are no job.
    if (NOT_A_PERSON.has(lower) || !/^\p{Lu}/u.test(bare)) continue;
    if (masculineEnding.test(bare)) {
      // Both forms written ("Entwicklerin oder Entwickler", "Kaufmann/Kauffrau") address everyone.
      const feminine = lower.endsWith('mann') ? `${lower.slice(0, -4)}frau` : `${lower}in`;
      if (folded.includes(feminine)) continue;
      return { word: written, instead: `${bare}:in, or ${title.trim()} (m/w/d)` };
    }
    if (feminineEnding.test(bare)) {
      const masculine = lower.endsWith('frau') ? `${lower.slice(0, -4)}mann` : lower.slice(0, -2);
      if (folded.includes(masculine)) continue;
      return { word: written, instead: `${bare.slice(0, -2)}:in, or ${title.trim()} (m/w/d)` };
    }
  }
  return undefined;
}

/** An English title with a gendered word of the word list (chairman, salesman). */
function englishTitle(title: string): GenderedTitle | undefined {
  const c = compiledWording('en');
  if (!c) return undefined;
  for (const m of title.matchAll(/[\p{L}][\p{L}-]*/gu)) {
    const entry = c.phraseOf.get(normal(m[0]));
    if (entry?.rule === 'gendered-title') return { word: m[0], instead: entry.instead };
  }
  return undefined;
}
