/**
 * The wording checks of one advert (docs/wording.md): the words of its title and descriptions, in
 * its language, against the compiled lists. Each finding is a message of the error tree at the
 * field, whose data holds where the words are in the field's text (offset and length) and what the
 * advice needs; the table entries in validation/local-rules.ts make them warnings, describe them,
 * and say what to write instead. Positions are resolved to the file's line and column where the
 * text is at hand (bulk/check-file.ts).
 */
import { advertLanguage } from '../adverts/language.js';
import { codingOf, compiledWording, fold, forEachWord, needsFold, normal, prefixKey, type CompiledWording } from './compile.js';
import { FIRST_RELEASES } from './technologies.js';
import { genderedTitle } from './neutral-title.js';
import type { PhraseKind, WordingSettings } from './types.js';

/** The fields candidates read, in the order findings are reported. */
export const WORDING_FIELDS = ['title', 'company_description', 'job_description'] as const;

/** A requirements list longer than this is a finding (docs/wording.md says why). */
export const MAX_REQUIREMENTS = 10;

/** The wording rule ids, their message identifiers (local-rules.ts), and one line on what each checks. */
export const WORDING_RULES = {
  'wording/masculine-coded': {
    message: 'wording_masculine',
    summary: 'More masculine- than feminine-coded words (Gaucher, Friesen & Kay 2011): fewer women apply.',
  },
  'wording/feminine-coded': {
    message: 'wording_feminine',
    summary: 'Far more feminine- than masculine-coded words (more than 3): balance them with neutral words.',
  },
  'wording/gendered-title': { message: 'wording_title', summary: 'A gendered job title or word (chairman, salesman): use the neutral form.' },
  'wording/ableist': { message: 'wording_ableist', summary: 'An ableist word or a physical demand stated as a person, not as the work.' },
  'wording/condescending': { message: 'wording_condescending', summary: 'A condescending or clichéd word (rockstar, ninja, obviously).' },
  'wording/age-coded': { message: 'wording_age', summary: 'An age-coded phrase (digital native, young and dynamic).' },
  'wording/unpaid-availability': { message: 'wording_unpaid', summary: 'A demand for unpaid availability (work hard, play hard; whatever it takes).' },
  'wording/years-of-young-tech': { message: 'wording_years', summary: 'More years of a technology asked for than it has existed.' },
  'wording/long-requirements': {
    message: 'wording_requirements',
    summary: `A requirements list of more than ${MAX_REQUIREMENTS} items: fewer people apply than could do the job.`,
  },
  'wording/unused-ignore': { message: 'wording_unused_ignore', summary: 'A jobs-ignore comment that silences nothing: remove it.' },
} as const;

export type WordingRuleId = keyof typeof WORDING_RULES;

export const WORDING_RULE_IDS = Object.keys(WORDING_RULES) as WordingRuleId[];

const PHRASE_RULE: Record<PhraseKind, WordingRuleId> = {
  'gendered-title': 'wording/gendered-title',
  ableist: 'wording/ableist',
  condescending: 'wording/condescending',
  'age-coded': 'wording/age-coded',
  'unpaid-availability': 'wording/unpaid-availability',
};

export interface WordingBreach {
  path: string[];
  message: string;
}

/** Where the language came from, as message data: `x` (jobs.language), the country code (inferred), `d` (default). */
function how(from: string): string {
  return from === 'jobs.language' ? 'x' : from === 'default' ? 'd' : from;
}

/**
 * The wording findings of an advert (as checked, defaults applied), in field order; none when the
 * advert's language has no lists. `today` (a UTC day number) dates the technology years.
 */
export function checkWording(advert: Record<string, unknown>, settings: WordingSettings, today: number | undefined): WordingBreach[] {
  const { language, from } = advertLanguage(advert);
  const c = compiledWording(language);
  if (!c) return [];
  const { off, allow } = settingSets(settings);
  const tail = `${language}:${how(from)}`;
  const out: WordingBreach[] = [];
  const phrasesSeen = new Set<string>();
  const texts = WORDING_FIELDS.flatMap((field) => (typeof advert[field] === 'string' ? [{ field, text: advert[field] as string }] : []));

  // Gender-coded words count over the whole advert, as the study and gender-decoder count them.
  const coded: { field: string; index: number; word: string; key: string; masculine: boolean }[] = [];
  let m = 0;
  let f = 0;
  const words = texts.map(({ field, text }) => ({ field, text, lower: text.toLowerCase(), phrased: [] as WordingBreach[] }));
  // One pass over each field's words: the coded stems counted, the phrases found.
  for (const w of words) {
    const { field, text, lower } = w;
    // A lower-cased text of another length (a rare letter lower-cases to two) keeps offsets only when read as written.
    const src = lower.length === text.length ? lower : text;
    const folding = needsFold(text);
    /** A coded word (or a hyphenated word's part) `length` long at `index`, `key` as the lists spell it. */
    const count = (length: number, index: number, key: string) => {
      const masculine = codingOf(c, key);
      if (masculine === undefined || allow.has(key)) return;
      if (masculine) m++;
      else f++;
      coded.push({ field, index, word: text.slice(index, index + length), key, masculine });
    };
    forEachWord(src, (index, end, hyphenated) => {
      // Most words are in no list: known from their first letters without making a string. (A
      // hyphenated word's later parts, a word beyond ASCII in its first four characters, which
      // folding may change, and a text whose lower case has another length are looked up whole.)
      if (src === lower && !hyphenated && (!folding || asciiHead(src, index, end)) && c.starts[prefixKey(src, index, end)] === 0) return;
      const written = src === lower ? src.slice(index, end) : src.slice(index, end).toLowerCase();
      const token = folding ? fold(written) : written;
      const hyphen = token.includes('-');
      const candidates = c.phrases.get(token) ?? (hyphen ? c.phrases.get(token.slice(0, token.indexOf('-'))) : undefined);
      if (candidates) phrase(candidates, text, index, field, w.phrased);
      // gender-decoder's reading: a hyphenated word counts whole when a coded stem has the hyphen, else each part.
      if (!hyphen || codingOf(c, token) !== undefined) count(end - index, index, token);
      else {
        let at = index;
        for (const as of written.split('-')) {
          count(as.length, at, folding ? fold(as) : as);
          at += as.length + 1;
        }
      }
    });
  }
  // gender-decoder's coding: masculine-coded when more masculine words; strongly feminine-coded beyond 3 more feminine.
  const report = m > f && !off.has('wording/masculine-coded') ? true : f - m > 3 && !off.has('wording/feminine-coded') ? false : undefined;
  if (report !== undefined) {
    const seen = new Set<string>();
    const id = report ? 'wording_masculine' : 'wording_feminine';
    for (const w of coded) {
      const key = `${w.field}\0${w.key}`;
      if (w.masculine !== report || seen.has(key)) continue;
      seen.add(key);
      out.push({ path: [w.field], message: `${id}:${w.index}:${w.word.length}:${m}:${f}:${tail}` });
    }
  }

  for (const { field, text, phrased } of words) {
    for (const b of phrased) out.push(b);
    // A German title names one gender unless it says otherwise (neutral-title.ts); English titles are in the phrase list.
    if (field === 'title' && language === 'de' && !off.has('wording/gendered-title')) {
      const g = genderedTitle(text, 'de');
      if (g && !allow.has(normal(g.word))) out.push({ path: [field], message: `wording_title:${text.indexOf(g.word)}:${g.word.length}:${tail}` });
    }
    if (today !== undefined && !off.has('wording/years-of-young-tech')) {
      const year = new Date(today * 86_400_000).getUTCFullYear();
      for (const hit of text.matchAll(c.years)) {
        const asked = Number(hit[1]);
        const tech = FIRST_RELEASES.find((t) => t.name === hit[2]);
        if (tech && asked > year - tech.year && !allow.has(normal(tech.name)))
          out.push({ path: [field], message: `wording_years:${hit.index}:${hit[0].length}:${asked}:${tech.year}:${year - tech.year}:${tail}` });
      }
    }
    if (field === 'job_description' && !off.has('wording/long-requirements')) {
      const long = longRequirements(c, text);
      if (long) out.push({ path: [field], message: `wording_requirements:${long.index}:${long.length}:${long.count}:${tail}` });
    }
  }
  return out;

  /** The longest phrase of the candidates that is written at `index`, if any, as a finding (unless allowed or off). */
  function phrase(candidates: { pattern: RegExp; rule: PhraseKind }[], text: string, index: number, field: string, into: WordingBreach[]): void {
    for (const p of candidates) {
      p.pattern.lastIndex = index;
      const found = p.pattern.exec(text);
      if (!found) continue;
      const rule = PHRASE_RULE[p.rule];
      const said = normal(found[0]);
      // One finding per phrase per field, as for coded words: a text repeating it a hundred thousand times gets one, not a hundred thousand.
      const key = `${field}\0${said}`;
      if (!allow.has(said) && !off.has(rule) && !phrasesSeen.has(key)) {
        phrasesSeen.add(key);
        into.push({ path: [field], message: `${WORDING_RULES[rule].message}:${index}:${found[0].length}:${tail}` });
      }
      return;
    }
  }
}

const sets = new WeakMap<WordingSettings, { off: Set<string>; allow: Set<string> }>();

/** The config's off and allow as sets, made once per run (per thread), not per advert: a config may list thousands of words. */
function settingSets(settings: WordingSettings): { off: Set<string>; allow: Set<string> } {
  let made = sets.get(settings);
  if (!made) sets.set(settings, (made = { off: new Set(settings.off), allow: new Set(settings.allow.map(normal)) }));
  return made;
}

/** Whether text[start, end)'s first four characters are ASCII: its first three are then what fold() leaves (a fourth could be a mark composing with the third). */
function asciiHead(text: string, start: number, end: number): boolean {
  for (let i = start; i < end && i < start + 4; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

const BULLET = /^[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]+\S/;

/** The first list under a requirements heading with more than MAX_REQUIREMENTS items: the heading's place and the count. */
function longRequirements(c: CompiledWording, text: string): { index: number; length: number; count: number } | undefined {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length; offset += lines[i]!.length + 1, i++) {
    // A line of more letters than the longest heading is no heading: most lines are prose, not worth normalising.
    if (asciiAlphanumerics(lines[i]!, c.longestHeading) > c.longestHeading) continue;
    const heading = normal(lines[i]!.replace(/^[\s#*_]+|[\s:*_]+$/g, ''));
    if (!c.headings.has(heading)) continue;
    let count = 0;
    for (let j = i + 1; j < lines.length; j++) {
      if (BULLET.test(lines[j]!)) count++;
      else if (lines[j]!.trim() !== '' || count > 0) {
        // A blank line before the list, or inside it, is part of it; text after it ends it.
        if (lines[j]!.trim() !== '') break;
      }
    }
    if (count > MAX_REQUIREMENTS) {
      const start = lines[i]!.search(/\S/);
      return { index: offset + start, length: lines[i]!.trimEnd().length - start, count };
    }
  }
  return undefined;
}

/** The ASCII letters and digits of a line, counted up to `limit` + 1 (each stays in the line normalised, so they bound its length from below). */
function asciiAlphanumerics(line: string, limit: number): number {
  let count = 0;
  for (let i = 0; i < line.length && count <= limit; i++) {
    const c = line.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)) count++;
  }
  return count;
}

/** The words of a finding in its field's text: the data's offset and length. */
export function wordAt(text: unknown, data: string[]): string | undefined {
  const [index, length] = [Number(data[0]), Number(data[1])];
  return typeof text === 'string' && Number.isInteger(index) && Number.isInteger(length) ? text.slice(index, index + length) : undefined;
}
