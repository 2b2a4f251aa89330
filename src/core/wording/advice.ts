/**
 * The sentences of the wording findings (docs/wording.md): what was found, and what to write
 * instead, from the words at the finding's place in the field's text and the message's data.
 */
import { compiledWording, normal, stemOf } from './compile.js';
import { wordAt } from './check.js';
import { genderedTitle } from './neutral-title.js';

/** Where the language came from, for a finding whose language was not written in the advert. */
function languageNote(language: string | undefined, how: string | undefined): string {
  if (how === undefined || how === 'x') return '';
  return how === 'd' ? ` (language ${language} by default: set jobs.language)` : ` (language ${language}, inferred from the country ${how})`;
}

/** The data's language and its source, the two last items. */
const tailOf = (data: string[]) => [data[data.length - 2], data[data.length - 1]] as const;

export function describeWording(kind: string, data: string[]): string {
  const [language, how] = tailOf(data);
  const note = languageNote(language, how);
  switch (kind) {
    case 'wording_masculine':
      return `uses masculine-coded wording (${data[2]} masculine- and ${data[3]} feminine-coded words): fewer women apply; write neutral words${note}`;
    case 'wording_feminine':
      return `uses strongly feminine-coded wording (${data[3]} feminine- and ${data[2]} masculine-coded words): balance it with neutral words${note}`;
    case 'wording_years':
      return `asks for ${data[2]} years of a technology first released in ${data[3]} (${data[4]} years ago): ask for the years it can have, or for the skill${note}`;
    case 'wording_requirements':
      return `lists ${data[2]} requirements: keep the few the job needs from day one (at most 10), and name the rest as a plus${note}`;
    default:
      return `uses wording that keeps candidates away${note}`;
  }
}

export function adviseWording(kind: string, text: unknown, data: string[]): string | undefined {
  const words = wordAt(text, data);
  if (words === undefined) return undefined;
  const [language, how] = tailOf(data);
  const note = languageNote(language, how);
  const c = compiledWording(language ?? '');
  if (!c) return undefined;
  if (kind === 'wording_masculine' || kind === 'wording_feminine') {
    const stem = stemOf(c, words);
    const instead = stem && c.file.gender.instead[stem.stem];
    const counts = `${data[2]} masculine- and ${data[3]} feminine-coded words in the advert (Gaucher, Friesen & Kay 2011)`;
    return kind === 'wording_masculine'
      ? `"${words}" is masculine-coded (${counts}): ${instead ? `write "${instead}" instead` : 'write a neutral word instead'}${note}`
      : `"${words}" is feminine-coded (${counts}): balance the advert with neutral words${note}`;
  }
  if (kind === 'wording_years' || kind === 'wording_requirements')
    return `${describeWording(kind, data)}`.replace(/^/, kind === 'wording_years' ? `"${words}": ` : '');
  if (kind === 'wording_title' && language === 'de' && typeof text === 'string') {
    const g = genderedTitle(text, 'de');
    return g ? `"${g.word}" names one gender: write ${g.instead}${note}` : undefined;
  }
  const entry = c.phraseOf.get(normal(words));
  if (!entry) return undefined;
  const what: Record<string, string> = {
    'gendered-title': 'is gendered',
    ableist: 'is ableist: it excludes people for what the job does not need',
    condescending: 'is condescending or a cliché that tells candidates little',
    'age-coded': 'is age-coded: it tells older candidates they are not wanted',
    'unpaid-availability': 'asks for unpaid availability',
  };
  return `"${words}" ${what[entry.rule]}: write ${entry.instead.startsWith('"') ? entry.instead : `"${entry.instead}"`} instead${note}`;
}
