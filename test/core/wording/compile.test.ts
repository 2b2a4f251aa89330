/**
 * The wording checks find words by scanning characters (forEachWord): the words must be exactly
 * those wordPattern() finds, whatever the text holds (letters beyond ASCII, surrogate pairs, lone
 * surrogates, combining marks, hyphens at the edges).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachWord, wordPattern } from '../../../src/core/wording/compile.js';

const byPattern = (text: string) => [...text.matchAll(wordPattern())].map((m) => [m.index, m.index + m[0].length, m[0].includes('-')]);
const byScan = (text: string) => {
  const out: (number | boolean)[][] = [];
  forEachWord(text, (start, end, hyphenated) => out.push([start, end, hyphenated]));
  return out;
};

const pieces = [
  'a',
  'Z',
  '9',
  '-',
  '--',
  ' ',
  '\n',
  '.',
  "'",
  'é',
  'ß',
  'İ',
  '漢',
  '٣',
  '\u0301',
  '😀',
  '𝐀',
  '\ud835',
  '\udc00',
  '\u00a0',
  '\u3000',
  'self-',
  '-co',
];

describe('forEachWord', () => {
  it('finds the words wordPattern() finds', () => {
    for (const text of ['', 'self-confident co-operative', 'a-', '-a', 'a--b', 'Zoë Müller-Lüdenscheidt, 東京 😀x𝐀y', 'x\ud835-y', '5+ years of C++']) {
      expect(byScan(text), text).toEqual(byPattern(text));
    }
  });

  it('agrees with wordPattern() on any mix of letters, marks, surrogates and hyphens', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 20 }), (parts, noise) => {
        const text = parts.join('') + noise;
        expect(byScan(text)).toEqual(byPattern(text));
      }),
      { numRuns: 2000 },
    );
  });
});
