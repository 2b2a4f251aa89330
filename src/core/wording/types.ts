/** The wording data format (schemas/wording.schema.json; docs/wording.md): one file per language in src/core/wording/data/. */

export interface WordingSource {
  title: string;
  url: string;
  licence: string;
}

export type PhraseKind = 'gendered-title' | 'ableist' | 'condescending' | 'age-coded' | 'unpaid-availability';

export interface WordingFile {
  language: string;
  gender: { source: WordingSource; masculine: string[]; feminine: string[]; instead: Record<string, string> };
  phrases: { source: WordingSource; list: { rule: PhraseKind; match: string[]; instead: string }[] };
  requirements: { headings: string[] };
}

/**
 * What a run checks wording with (config `wording:`). Plain data: handed to worker threads whole;
 * the word lists themselves are compiled into the build and compiled to regular expressions once
 * per thread (compile.ts). Absent from the settings: the wording checks are off.
 */
export interface WordingSettings {
  /** Rule ids not checked (`wording/feminine-coded`). */
  off: string[];
  /** Words and phrases never reported, lower case. */
  allow: string[];
}
