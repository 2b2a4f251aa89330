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
  /** Group 1: a masculine-coded word, group 2: a feminine-coded one (a word that starts with a stem). */
  stems: RegExp;
  /** A phrase of the list, as a whole word or words. */
  phrases: RegExp;
  /** A phrase (lower case, spaces single) -> its entry. */
  phraseOf: Map<string, { rule: PhraseKind; instead: string }>;
  /** Group 1: the years, group 2: the technology. */
  years: RegExp;
  /** A heading that opens a list of requirements (lower case). */
  headings: Set<string>;
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
  const group = (stems: string[]) =>
    [...stems]
      .sort(byLength)
      .map((s) => escape(s.toLowerCase()))
      .join('|');
  const stems = new RegExp(`(?<!${WORD})(?:(${group(file.gender.masculine)})|(${group(file.gender.feminine)}))${WORD}*`, 'giu');
  const phraseOf = new Map<string, { rule: PhraseKind; instead: string }>();
  for (const p of file.phrases.list) for (const m of p.match) phraseOf.set(normal(m), { rule: p.rule, instead: p.instead });
  const all = [...phraseOf.keys()].sort(byLength).map(phrasePattern);
  const phrases = new RegExp(`(?<!${WORD})(?:${all.join('|')})(?!${WORD})`, 'giu');
  const techs = [...FIRST_RELEASES]
    .map((t) => t.name)
    .sort(byLength)
    .map(escape);
  // The technology as it is written (Go is a verb, React one too): matched with its case.
  const years = new RegExp(`${YEARS[file.language] ?? YEARS.en}(?<!${WORD})(${techs.join('|')})(?!${WORD})`, 'gu');
  return { file, stems, phrases, phraseOf, years, headings: new Set(file.requirements.headings.map(normal)) };
}

/** Lower case, runs of white space as one space: how phrases and headings are compared. */
export function normal(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The stem a coded word starts with (the longest), for its alternative. */
export function stemOf(c: CompiledWording, word: string): { stem: string; gender: 'masculine' | 'feminine' } | undefined {
  const w = word.toLowerCase();
  let best: { stem: string; gender: 'masculine' | 'feminine' } | undefined;
  for (const gender of ['masculine', 'feminine'] as const)
    for (const stem of c.file.gender[gender]) if (w.startsWith(stem.toLowerCase()) && (!best || stem.length > best.stem.length)) best = { stem, gender };
  return best;
}
