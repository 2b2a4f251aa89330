/** The wording checks as `jobs rules` lists them: each rule id, what it checks, and where its words come from. */
import { wordingFiles } from '../generated/wording-data.js';
import { WORDING_RULE_IDS, WORDING_RULES, MAX_REQUIREMENTS } from './check.js';
import type { WordingFile } from './types.js';

export interface ListedWordingCheck {
  id: string;
  summary: string;
  /** The languages whose lists it reads ([] when it reads none). */
  languages: string[];
  sources: { title: string; url: string; licence?: string }[];
}

const TECHNOLOGIES = {
  title: 'A dated table of first public releases, each with its source (src/core/wording/technologies.ts)',
  url: 'src/core/wording/technologies.ts',
};
// The project has no published address yet: its own paths.
const DOCS = 'docs/wording.md';

export function wordingChecks(): ListedWordingCheck[] {
  const files = (wordingFiles() as { data: WordingFile }[]).map((f) => f.data);
  const languages = files.map((f) => f.language);
  const unique = <T extends { url: string; title: string }>(list: T[]) =>
    list.filter((s, i) => list.findIndex((t) => t.url === s.url && t.title === s.title) === i);
  return WORDING_RULE_IDS.map((id) => {
    let sources: ListedWordingCheck['sources'];
    if (id === 'wording/masculine-coded' || id === 'wording/feminine-coded') sources = unique(files.map((f) => f.gender.source));
    else if (id === 'wording/years-of-young-tech') sources = [TECHNOLOGIES];
    else if (id === 'wording/long-requirements')
      sources = [{ title: `More than ${MAX_REQUIREMENTS} items under a requirements heading: the tool's threshold (docs/wording.md says why)`, url: DOCS }];
    else if (id === 'wording/unused-ignore') sources = [{ title: 'A jobs-ignore comment that silences nothing', url: DOCS }];
    else sources = unique(files.map((f) => f.phrases.source));
    return { id, summary: WORDING_RULES[id].summary, languages: id === 'wording/unused-ignore' ? [] : languages, sources };
  });
}
