/**
 * The word lists compiled to regular expressions, once per language per thread: one expression for
 * the gender-coded stems (masculine and feminine as two groups), one for the phrases, one for the
 * years asked of a technology. Every advert of a run is matched against the same expressions; none
 * is built per file.
 */
import { wordingFiles } from '../generated/wording-data.js';
import type { PhraseKind, WordingFile } from './types.js';
import { FIRST_RELEASES } from './technologies.js';

export interface CompiledWording {
  file: WordingFile;
  /** The coded stems by their first three letters (every stem has at least three): a word looks up only its own. */
  stems: Map<string, { stem: string; masculine: boolean }[]>;
  /** The phrases by their first word, each with a sticky expression that matches it whole at a word's place. */
  phrases: Map<string, { pattern: RegExp; rule: PhraseKind; instead: string }[]>;
  /** A phrase (lower case, spaces single) -> its entry. */
  phraseOf: Map<string, { rule: PhraseKind; instead: string }>;
  /** Group 1: the years, group 2: the technology. */
  years: RegExp;
  /** A heading that opens a list of requirements (lower case). */
  headings: Set<string>;
}

/**
 * A word: letters and digits, with inner hyphens (co-operative, self-confident), and what is
 * written inside a word without being seen: combining marks (a decomposed ü), a soft hyphen, a
 * zero-width joiner or non-joiner, a word joiner. Those would otherwise cut "füh\u0308rend" or
 * "compe\u00ADtitive" into pieces no list holds.
 */
export const WORD_PATTERN = /[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}\u00AD\u2060]|\u200C|\u200D)*(?:-[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}\u00AD\u2060]|\u200C|\u200D)*)*/gu;

const INVISIBLE = /\u00AD|\u200C|\u200D|\u2060/g;
const NOT_ASCII = /[^\x00-\x7f]/;

/** Whether a text needs fold() for its words (has anything beyond ASCII); one test per text, not per word. */
export const needsFold = (text: string) => NOT_ASCII.test(text);

/**
 * A word (lower case) as the lists spell it: composed (NFKC: a decomposed ü, a full-width letter, a
 * ligature ﬁ become what they show), without invisible characters (soft hyphen, joiners).
 */
export function fold(word: string): string {
  return NOT_ASCII.test(word) ? word.normalize('NFKC').replace(INVISIBLE, '').toLowerCase() : word;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const byLength = (a: string, b: string) => b.length - a.length;
const WORD = '[\\p{L}\\p{N}]';
/** Spaces in a phrase match any run of white space (a phrase may wrap across lines). */
const phrasePattern = (p: string) => escape(p.toLowerCase()).replace(/ +/g, '\\s+');

/** "N years" in each language, then up to 40 characters of the same sentence before the technology. */
const YEARS: Record<string, string> = {
  en: '(\\d{1,2})\\s*\\+?\\s*(?:[Yy]ears?|[Yy]rs)(?![\\p{L}])[^.\\n;]{0,40}?',
  de: '(\\d{1,2})\\s*\\+?\\s*Jahren?(?![\\p{L}])[^.\\n;]{0,40}?',
};

const compiled = new Map<string, CompiledWording | null>();

/** The compiled lists of a language; undefined when the tool has none for it (docs/wording.md). */
export function compiledWording(language: string): CompiledWording | undefined {
  let c = compiled.get(language);
  if (c === undefined) {
    const entry = (wordingFiles as { file: string; data: WordingFile }[]).find((f) => f.data.language === language);
    c = entry ? compile(entry.data) : null;
    compiled.set(language, c);
  }
  return c ?? undefined;
}

/** The languages the wording checks cover. */
export function coveredLanguages(): string[] {
  return (wordingFiles as { data: WordingFile }[]).map((f) => f.data.language);
}

function compile(file: WordingFile): CompiledWording {
  const stems = new Map<string, { stem: string; masculine: boolean }[]>();
  const addStem = (stem: string, masculine: boolean) => {
    const s = stem.toLowerCase();
    const key = s.slice(0, 3);
    const list = stems.get(key) ?? [];
    list.push({ stem: s, masculine });
    stems.set(
      key,
      list.sort((x, y) => byLength(x.stem, y.stem)),
    );
  };
  for (const s of file.gender.masculine) addStem(s, true);
  for (const s of file.gender.feminine) addStem(s, false);
  const phraseOf = new Map<string, { rule: PhraseKind; instead: string }>();
  const phrases = new Map<string, { pattern: RegExp; rule: PhraseKind; instead: string }[]>();
  for (const p of file.phrases.list)
    for (const m of p.match) {
      const key = normal(m);
      phraseOf.set(key, { rule: p.rule, instead: p.instead });
      const first = key.match(WORD_PATTERN)?.[0] ?? key;
      const list = phrases.get(first) ?? [];
      list.push({ pattern: new RegExp(`${phrasePattern(key)}(?!${WORD})`, 'iuy'), rule: p.rule, instead: p.instead });
      phrases.set(
        first,
        list.sort((x, y) => y.pattern.source.length - x.pattern.source.length),
      );
    }
  const techs = [...FIRST_RELEASES]
    .map((t) => t.name)
    .sort(byLength)
    .map(escape);
  // The technology as it is written (React is a verb too): matched with its case.
  const years = new RegExp(`${YEARS[file.language] ?? YEARS.en}(?<!${WORD})(${techs.join('|')})(?!${WORD})`, 'gu');
  return { file, stems, phrases, phraseOf, years, headings: new Set(file.requirements.headings.map(normal)) };
}

/** Whether a word (lower case) starts with a coded stem: masculine (true), feminine (false), or neither. */
export function codingOf(c: CompiledWording, word: string): boolean | undefined {
  const list = word.length < 3 ? undefined : c.stems.get(word.slice(0, 3));
  if (list) for (const s of list) if (word.startsWith(s.stem)) return s.masculine;
  return undefined;
}

/** Lower case, runs of white space as one space: how phrases and headings are compared. */
export function normal(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The stem a coded word starts with (the longest), for its alternative. */
export function stemOf(c: CompiledWording, word: string): { stem: string; gender: 'masculine' | 'feminine' } | undefined {
  const w = fold(word.toLowerCase());
  let best: { stem: string; gender: 'masculine' | 'feminine' } | undefined;
  for (const gender of ['masculine', 'feminine'] as const)
    for (const stem of c.file.gender[gender]) if (w.startsWith(stem.toLowerCase()) && (!best || stem.length > best.stem.length)) best = { stem, gender };
  return best;
}
