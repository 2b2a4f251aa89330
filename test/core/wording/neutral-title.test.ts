import { describe, expect, it } from 'vitest';
import { genderedTitle } from '../../../src/core/wording/neutral-title.js';

describe('genderedTitle: a German title names one gender, or all', () => {
  it.each(['Softwareentwickler', 'Softwareentwicklerin', 'Teamleiter Vertrieb', 'Ingenieur Maschinenbau', 'Bürokauffrau', 'Kaufmann im Einzelhandel'])(
    '%s is gendered',
    (title) => expect(genderedTitle(title, 'de')).toBeDefined(),
  );

  it.each([
    'Softwareentwickler:in',
    'Softwareentwickler*in',
    'Softwareentwickler_in',
    'SoftwareentwicklerIn',
    'Softwareentwickler/-in',
    'Softwareentwickler (m/w/d)',
    'Softwareentwickler (w/m/d)',
    'Softwareentwickler (m/f/d)',
    'Softwareentwickler (all genders)',
    'Softwareentwicklerin oder Softwareentwickler',
    'Kaufmann/Kauffrau im Einzelhandel',
    'Fachkraft für Lagerlogistik',
    'Leitung Controlling',
    'Software Engineer',
  ])('%s passes', (title) => expect(genderedTitle(title, 'de')).toBeUndefined());

  it.each(['SOFTWAREENTWICKLER', 'Senior SOFTWAREENTWICKLER Backend', 'TEAMLEITERIN'])('%s in capitals is gendered', (title) =>
    expect(genderedTitle(title, 'de')?.word).toBe(title.split(' ').find((w) => /ER$|IN$/.test(w))),
  );

  it.each([
    'Softwareentwickler \uff08m/w/d\uff09',
    'Softwareentwickler\u00a0(m/w/d)',
    'Softwareentwickler [m/w/d]',
    'Softwareentwickler m/w/d',
    'Softwareentwickler - w/m/d',
    'SOFTWAREENTWICKLER:IN',
    'SOFTWAREENTWICKLER (M/W/D)',
  ])('%s passes: the marker or the inclusive form as it shows', (title) => expect(genderedTitle(title, 'de')).toBeUndefined());

  it('names the word and what to write instead', () => {
    expect(genderedTitle('Softwareentwickler', 'de')).toEqual({ word: 'Softwareentwickler', instead: 'Softwareentwickler:in, or Softwareentwickler (m/w/d)' });
  });

  it('an English title is judged by the word list; a language without one is not judged', () => {
    expect(genderedTitle('Sales Chairman', 'en')?.word).toBe('Chairman');
    expect(genderedTitle('Chair of the Board', 'en')).toBeUndefined();
    expect(genderedTitle('Développeur', 'fr')).toBeUndefined();
  });
});
