/**
 * The word lists compiled to regular expressions, once per language per thread: one expression for
 * the gender-coded stems (masculine and feminine as two groups), one for the phrases, one for the
 * years asked of a technology. Every advert of a run is matched against the same expressions; none
 * is built per file.
 */
import { wordingFiles } from '../generated/wording-data.js';
import type { PhraseKind, WordingFile } from './types.js';
import { FIRST_RELEASES } from './technologies.js';

/** A phrase of the lists: its expression is built at its first use (see lazyPhrase). */
export interface Phrase {
  readonly pattern: RegExp;
  rule: PhraseKind;
  instead: string;
}

export interface CompiledWording {
  file: WordingFile;
  /** The coded stems by their first three letters (every stem has at least three): a word looks up only its own. */
  stems: Map<string, { stem: string; masculine: boolean }[]>;
  /** The phrases by their first word, each with a sticky expression that matches it whole at a word's place. */
  phrases: Map<string, Phrase[]>;
  /** A phrase (lower case, spaces single) -> its entry. */
  phraseOf: Map<string, { rule: PhraseKind; instead: string }>;
  /** Group 1: the years, group 2: the technology. */
  years: RegExp;
  /** A heading that opens a list of requirements (lower case). */
  headings: Set<string>;
  /** The length of the longest heading. */
  longestHeading: number;
  /** 1 at the prefixKey of every phrase's first word and every stem: a word without a hyphen whose key is 0 here is in no list. */
  starts: Uint8Array;
}

let word: RegExp | undefined;
/**
 * A word: letters and digits, with inner hyphens (co-operative, self-confident), and what is
 * written inside a word without being seen: combining marks (a decomposed ü), a soft hyphen, a
 * zero-width joiner or non-joiner, a word joiner. Those would otherwise cut "füh\u0308rend" or
 * "compe\u00ADtitive" into pieces no list holds. Made at its first use (V8 reads each `\p{...}`
 * from ICU), not by every start that loads this module; forEachWord finds the same words.
 */
export const wordPattern = (): RegExp =>
  (word ??= /[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}\u00AD\u2060]|\u200C|\u200D)*(?:-[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}\u00AD\u2060]|\u200C|\u200D)*)*/gu);

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

/**
 * Each word of a text, as wordPattern() finds them, by its offsets. A scan of the characters rather
 * than matchAll: an iterator step and a match array per word made most of a wording check's cost
 * (some 100 us of an English advert of 2 KB). Only a character beyond ASCII asks the expression.
 */
export function forEachWord(text: string, visit: (start: number, end: number, hyphenated: boolean) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let w = wordCharAt(text, i, false);
    if (w === 0) {
      i++;
      continue;
    }
    const start = i;
    let hyphenated = false;
    i += w;
    for (;;) {
      while (i < n && (w = wordCharAt(text, i, true)) > 0) i += w;
      // An inner hyphen joins the next run of letters to the word.
      if (i + 1 < n && text.charCodeAt(i) === 0x2d && (w = wordCharAt(text, i + 1, false)) > 0) {
        i += 1 + w;
        hyphenated = true;
      } else break;
    }
    visit(start, i, hyphenated);
  }
}

/**
 * A 16-bit hash of the first three characters of text[start, end) before any hyphen (fewer when it
 * is shorter): a word is looked up in the lists (by a string made for it) only when its hash is one
 * of theirs. A hash shared by chance only costs that lookup; a small number makes no string and no heap number.
 */
export function prefixKey(text: string, start: number, end: number): number {
  let key = 0;
  for (let i = start, stop = false; i < start + 3; i++) {
    const c: number = stop || i >= end || text.charCodeAt(i) === 0x2d ? 0x10000 : text.charCodeAt(i);
    stop = c === 0x10000;
    key = (key * 31 + c) & 0xffffff;
  }
  return (key ^ (key >>> 16)) & 0xffff;
}

let wordStart: RegExp | undefined;
let wordInner: RegExp | undefined;
/** 1: a letter or digit (begins a word); 3: only inside one (a mark, an invisible joiner); 2: neither. Expressions made at first use. */
const charClass = (ch: string): number =>
  (wordStart ??= /^[\p{L}\p{N}]$/u).test(ch) ? 1 : (wordInner ??= /^(?:\p{M}|\u00AD|\u2060|\u200C|\u200D)$/u).test(ch) ? 3 : 2;
/** Characters of the Basic Multilingual Plane beyond ASCII as they are met: 0 not asked yet, else their charClass. */
let bmpClasses: Uint8Array | undefined;

/** The length (in UTF-16 units, 1 or 2) of the character at `i` when it begins a word (`inner`: or continues one), else 0. */
function wordCharAt(text: string, i: number, inner: boolean): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ? 1 : 0;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      const k = charClass(text.slice(i, i + 2));
      return k === 1 || (inner && k === 3) ? 2 : 0;
    }
  }
  bmpClasses ??= new Uint8Array(0x10000);
  let k = bmpClasses[c]!;
  if (k === 0) bmpClasses[c] = k = charClass(text[i]!);
  return k === 1 || (inner && k === 3) ? 1 : 0;
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
    const entry = (wordingFiles() as { file: string; data: WordingFile }[]).find((f) => f.data.language === language);
    c = entry ? compile(entry.data) : null;
    compiled.set(language, c);
  }
  return c ?? undefined;
}

/** The languages the wording checks cover. */
export function coveredLanguages(): string[] {
  return (wordingFiles() as { data: WordingFile }[]).map((f) => f.data.language);
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
  const phrases = new Map<string, (Phrase & { source: string })[]>();
  for (const p of file.phrases.list)
    for (const m of p.match) {
      const key = normal(m);
      phraseOf.set(key, { rule: p.rule, instead: p.instead });
      const first = key.match(wordPattern())?.[0] ?? key;
      const list = phrases.get(first) ?? [];
      list.push(lazyPhrase(`${phrasePattern(key)}(?!${WORD})`, p.rule, p.instead));
      phrases.set(
        first,
        list.sort((x, y) => y.source.length - x.source.length),
      );
    }
  const techs = [...FIRST_RELEASES]
    .map((t) => t.name)
    .sort(byLength)
    .map(escape);
  // The technology as it is written (React is a verb too): matched with its case.
  const years = new RegExp(`${YEARS[file.language] ?? YEARS.en}(?<!${WORD})(${techs.join('|')})(?!${WORD})`, 'gu');
  const headings = new Set(file.requirements.headings.map(normal));
  const starts = new Uint8Array(0x10000);
  for (const w of [...phrases.keys(), ...stems.keys()]) starts[prefixKey(w, 0, w.length)] = 1;
  return { file, stems, phrases, phraseOf, years, headings, longestHeading: Math.max(0, ...[...headings].map((h) => h.length)), starts };
}

/**
 * A phrase whose expression is built when an advert first has the phrase's first word. Building
 * one costs about 0.1 ms (V8 reads `\p{L}` and `\p{N}` from ICU anew for each expression): some 7 ms
 * for the English list, at the start of every run that checks wording, for the few phrases an
 * advert's words lead to.
 */
function lazyPhrase(source: string, rule: PhraseKind, instead: string): Phrase & { source: string } {
  let pattern: RegExp | undefined;
  return {
    source,
    rule,
    instead,
    get pattern() {
      return (pattern ??= new RegExp(source, 'iuy'));
    },
  };
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
