/**
 * Pay as an advert shows it: the structured `jobs.pay` (never sent) and the `salary_text` that is
 * sent, read in its common forms:
 *
 *   $120,000 – $150,000 a year     650 000 - 750 000 NOK     45.000–55.000 € brutto/Jahr     £40k-£45k
 *   from $90,000 (open-ended)      $95,000 a year (fixed)     https://acme.example/pay (a link)
 *
 * What cannot be read is said so (`unread`, with why), never guessed: two amounts that are not a
 * range, a number with an ambiguous separator, no amount at all.
 */
import { advertFacts } from '../generated/advert-facts.js';

export type Per = 'hour' | 'day' | 'week' | 'month' | 'year';

export const PERIODS: readonly Per[] = ['hour', 'day', 'week', 'month', 'year'];

/** A pay: min and max (a range), min alone (open-ended "from"), max alone ("up to"), min == max (fixed). */
export interface Pay {
  min?: number;
  max?: number;
  /** ISO 4217, or `$` / `kr` where the text's symbol names a family, not one currency. */
  currency?: string;
  per?: Per;
}

export type ReadPay = { kind: 'pay'; pay: Pay } | { kind: 'link'; url: string } | { kind: 'unread'; why: string };

const SYMBOLS: Record<string, string> = {
  US$: 'USD',
  C$: 'CAD',
  CA$: 'CAD',
  A$: 'AUD',
  NZ$: 'NZD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  $: '$',
  kr: 'kr',
};
const DOLLARS = new Set(['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN']);
const KRONER = new Set(['NOK', 'SEK', 'DKK', 'ISK']);

// An amount: digits grouped by thousands (`120,000`, `650 000`, `45.000`) or not, an optional
// decimal part of one or two digits, an optional `k`.
const AMOUNT = String.raw`(\d{1,3}(?:[,. \u00a0\u202f'’]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)\s?([kK](?![a-zA-Z]))?`;
const CURRENCY = String.raw`(US\$|CA?\$|A\$|NZ\$|\$|€|£|¥|₹|\b[A-Z]{3}\b|\bkr\b)`;
const MONEY = new RegExp(String.raw`(?:${CURRENCY}\s?)?${AMOUNT}(?:\s?${CURRENCY})?`, 'g');
const URL_PATTERN = /\bhttps?:\/\/\S+|\bwww\.\S+/i;
// Hyphen, the Unicode dashes and minus, a tilde, or a word.
const RANGE_JOIN = /^\s*(?:-|‐|‑|‒|–|—|−|~|〜|to|bis|à|a|til|till|до)\s*$/i;
// `between $100k and $120k`, `zwischen ... und ...`, `entre ... et ...`: a range only with its opening word.
const BETWEEN = [/\b(?:between|zwischen|entre)\s*$/i, /^\s*(?:and|und|et)\s*$/i] as const;
const FROM = /(?:\bfrom|\bstarting (?:at|from)|\bat least|\bminimum|\bmin\.?|\bab|\bvon|\bmindestens|\bmind\.|(?:^|\s)à partir de|(?:^|\s)dès|\bfra)\s*$/i;
// After one amount: `$90,000+`, `$90,000 and up`, `or more` (Colorado's own example of a refused range).
const OPEN_AFTER = /^\s*(?:\+|and (?:up|above)\b|or (?:more|higher|above)\b|und mehr\b|et plus\b)/i;
const UP_TO = /(?:\bup to|\bmax(?:imum|\.)?|\bbis zu|\bjusqu'à|\binntil)\s*$/i;

const PER_BEFORE_JOIN = /^\s*(?:\/\s?|per\s+|an?\s+)[^\s\d/–—-]+/i;

const PER_WORDS: [Per, RegExp][] = [
  // Norwegian `time` only as `per time` / `/time`: `full time` is not a period.
  ['hour', /\b(?:hour|hr|hourly|stunde|std|heure)\b|\bstundenlohn|\b(?:per|pr\.?)\s?time\b|\/\s?(?:h|time)\b|stündlich/i],
  ['day', /\b(?:day|daily|tag|jour|dag)\b|täglich/i],
  ['week', /\b(?:week|wk|weekly|woche|semaine|uke)\b|wöchentlich/i],
  ['month', /\b(?:month|mo|monthly|monat|mois|måned|mnd)\b|\bmonats(?:gehalt|lohn|brutto)|monatlich|\/\s?m\b/i],
  // French `an` only as `par an` / `/an`: English `an hour` is not a year. `\b` knows only ASCII letters: `år` and `année` have their own edges.
  [
    'year',
    /\b(?:year|yr|annum|annual|annually|jahr|yearly)\b|\bjahres(?:gehalt|lohn|brutto)|(?<![a-zæøå])år(?![a-zæøå])|\bannée(?![a-z])|jährlich|\bp\.?\s?a\.?(?![a-z])|\bpar an\b|\/\s?an\b/i,
  ],
];

// The periods in one pattern, a group each: the text is scanned once (the first period written wins).
const PER_ANY = new RegExp(PER_WORDS.map(([, re]) => `(${re.source})`).join('|'), 'i');

/** The same salary_text in many adverts of a folder is read once (a few hundred kept; the results are never changed). */
const memo = new Map<string, ReadPay>();

/** The number an amount is written as, or undefined when its separators are ambiguous. */
function amountOf(digits: string, k: string | undefined): number | undefined {
  let text = digits.replace(/[ \u00a0\u202f'’]/g, '');
  const grouped = /^\d{1,3}(?:[,.]\d{3})+(?:[.,]\d{1,2})?$/.test(text);
  if (grouped) {
    const decimal = /[.,](\d{1,2})$/.exec(text);
    const whole = (decimal ? text.slice(0, -decimal[0].length) : text).replace(/[.,]/g, '');
    text = decimal ? `${whole}.${decimal[1]}` : whole;
  } else text = text.replace(',', '.');
  const value = Number(text);
  // Digits past any pay (a number Number() cannot hold): said as too large, not as ambiguous.
  if (!Number.isFinite(value)) return Infinity;
  return k ? Math.round(value * 1000) : value;
}

let iso: ReadonlySet<string> | undefined;
/** A three-letter word is a currency only when ISO 4217 lists it (`DOE`, `OTE` are not). */
const isIsoCode = (code: string) => (iso ??= new Set(advertFacts.enums['jobs.pay.currency'] as string[] | undefined)).has(code);

function currencyOf(written: string | undefined): string | undefined {
  if (written === undefined) return undefined;
  return SYMBOLS[written] ?? (/^[A-Z]{3}$/.test(written) && isIsoCode(written) ? written : undefined);
}

/** The currencies a text names, a symbol's family (`$`, `kr`) folded into the one code of it named beside (`$80,000 CAD`). */
function currenciesOf(found: RegExpMatchArray[]): Set<string> {
  const out = new Set(found.flatMap((m) => [currencyOf(m[1]), currencyOf(m[4])]).filter((c): c is string => c !== undefined));
  const codes = [...out].filter((c) => c !== '$' && c !== 'kr');
  if (codes.length === 1) {
    if (out.has('$') && DOLLARS.has(codes[0]!)) out.delete('$');
    if (out.has('kr') && KRONER.has(codes[0]!)) out.delete('kr');
  }
  return out;
}

/** Reads a salary_text. */
export function readSalaryText(text: string): ReadPay {
  let read = memo.get(text);
  if (read === undefined) {
    if (memo.size >= 512) memo.clear();
    memo.set(text, (read = readOnce(text)));
  }
  return read;
}

function readOnce(text: string): ReadPay {
  // A percentage (`plus 10% bonus`), a 401(k) and a count of payments (`(14x)`) are not amounts of pay.
  let found = /\d/.test(text)
    ? [...text.matchAll(MONEY)].filter((m) => m[2] !== undefined && !/^\s?(?:%|\(k\)|[x×](?![a-z]))/i.test(text.slice(m.index! + m[0].length)))
    : [];
  if (found.length === 0) {
    const url = URL_PATTERN.exec(text);
    if (url) return { kind: 'link', url: url[0] };
    return { kind: 'unread', why: 'it names no amount' };
  }
  // `$60,000–$70,000 a year; $5,000 signing bonus`: a range, then extras set apart by `;`, `,`, `+`, `(` or `plus`.
  if (found.length > 2 && /[;,+(]|\bplus\b/i.test(text.slice(found[1]!.index! + found[1]![0].length, found[2]!.index))) found = found.slice(0, 2);
  if (found.length > 2) return { kind: 'unread', why: `it names ${found.length} amounts, not one or a range of two` };
  const amounts = found.map((m) => amountOf(m[2]!, m[3]));
  if (amounts.some((a) => a === undefined)) return { kind: 'unread', why: 'an amount has separators that could be read two ways' };
  if (amounts.some((a) => a === Infinity)) return { kind: 'unread', why: 'an amount is too large to be a pay' };
  const currencies = currenciesOf(found);
  if (currencies.size > 1) return { kind: 'unread', why: `it names two currencies (${[...currencies].join(', ')})` };
  const periodMatch = PER_ANY.exec(text);
  const per = periodMatch ? PER_WORDS[periodMatch.slice(1).findIndex((g) => g !== undefined)]?.[0] : undefined;
  const pay: Pay = { ...(currencies.size === 1 ? { currency: [...currencies][0]! } : {}), ...(per ? { per } : {}) };
  const before = text.slice(0, found[0]!.index);
  if (found.length === 2) {
    // `$120k/yr – $150k/yr`: the first amount's period before the dash is part of the range.
    const between = text.slice(found[0]!.index! + found[0]![0].length, found[1]!.index).replace(PER_BEFORE_JOIN, (unit) => (PER_ANY.test(unit) ? '' : unit));
    if (!RANGE_JOIN.test(between) && !(BETWEEN[0].test(before) && BETWEEN[1].test(between)))
      return { kind: 'unread', why: `its two amounts are not written as a range ("${between.trim()}" between them)` };
    // `£40-45k`: the k of the top applies to the bottom too.
    const max = amounts[1]!;
    let min = amounts[0]!;
    if (found[1]![3] && !found[0]![3] && min < 1000) min *= 1000;
    if (min > max) return { kind: 'unread', why: 'its first amount is above its second' };
    return { kind: 'pay', pay: { min, max, ...pay } };
  }
  const [amount] = amounts as [number];
  const after = text.slice(found[0]!.index! + found[0]![0].length);
  if (FROM.test(before) || OPEN_AFTER.test(after)) return { kind: 'pay', pay: { min: amount, ...pay } };
  if (UP_TO.test(before)) return { kind: 'pay', pay: { max: amount, ...pay } };
  return { kind: 'pay', pay: { min: amount, max: amount, ...pay } };
}

/** Whether a currency read from a text (`$`, `kr`, a code) can be the structured pay's code. */
export function sameCurrency(read: string | undefined, code: string): boolean {
  if (read === undefined) return true;
  if (read === '$') return DOLLARS.has(code);
  if (read === 'kr') return KRONER.has(code);
  return read === code;
}

/** What differs between a salary_text's pay and the structured pay (`min`, `max`, `currency`, `per`), or undefined when they agree. */
export function disagreement(read: Pay, pay: Pay): string | undefined {
  if (read.min !== pay.min) return 'min';
  if (read.max !== pay.max) return 'max';
  if (pay.currency !== undefined && !sameCurrency(read.currency, pay.currency)) return 'currency';
  if (read.per !== undefined && pay.per !== undefined && read.per !== pay.per) return 'per';
  return undefined;
}

const PER_TEXT: Record<string, Record<Per, string>> = {
  en: { hour: 'an hour', day: 'a day', week: 'a week', month: 'a month', year: 'a year' },
  de: { hour: 'brutto pro Stunde', day: 'brutto pro Tag', week: 'brutto pro Woche', month: 'brutto pro Monat', year: 'brutto pro Jahr' },
  fr: { hour: 'brut par heure', day: 'brut par jour', week: 'brut par semaine', month: 'brut par mois', year: 'brut par an' },
};
const FROM_TEXT: Record<string, string> = { en: 'from', de: 'ab', fr: 'à partir de' };
const UP_TO_TEXT: Record<string, string> = { en: 'up to', de: 'bis zu', fr: "jusqu'à" };

/** The languages salary_text can be written in from a pay (PER_TEXT's keys). */
export const PAY_LANGUAGES = Object.keys(PER_TEXT);

/** One Intl.NumberFormat per language for the run: making one costs more than writing the text (a validate writes one per advert with jobs.pay). */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: string): Intl.NumberFormat {
  let format = numberFormats.get(lang);
  if (!format)
    numberFormats.set(
      lang,
      (format = new Intl.NumberFormat(lang === 'en' ? 'en-US' : lang === 'de' ? 'de-DE' : 'fr-FR', { maximumFractionDigits: 2, minimumFractionDigits: 0 })),
    );
  return format;
}

/**
 * A salary_text written from a structured pay in a language (en, de, fr): the amounts in that
 * language's number format (Intl), the currency's code, the period in words. Read back by
 * readSalaryText as the same pay.
 */
export function writeSalaryText(pay: Pay & { currency: string }, language: string): string {
  const lang = PER_TEXT[language] ? language : 'en';
  const number = numberFormat(lang);
  // Intl's French groups with a narrow no-break space; kept, as the reader takes it.
  const amount = (n: number) => `${number.format(n)} ${pay.currency}`;
  const per = pay.per ? ` ${PER_TEXT[lang]![pay.per]}` : '';
  if (pay.min !== undefined && pay.max !== undefined)
    return `${pay.min === pay.max ? amount(pay.min) : `${number.format(pay.min)} - ${amount(pay.max)}`}${per}`;
  if (pay.min !== undefined) return `${FROM_TEXT[lang]} ${amount(pay.min)}${per}`;
  return `${UP_TO_TEXT[lang]} ${amount(pay.max!)}${per}`;
}
