import { describe, expect, it } from 'vitest';
import { readSalaryText, writeSalaryText, type Pay } from '../../../src/core/rules/pay.js';

describe('reading salary_text', () => {
  it.each([
    ['$120,000 – $150,000 a year', { min: 120000, max: 150000, currency: '$', per: 'year' }],
    ['650 000 - 750 000 NOK', { min: 650000, max: 750000, currency: 'NOK' }],
    ['45.000–55.000 € brutto/Jahr', { min: 45000, max: 55000, currency: 'EUR', per: 'year' }],
    ['£40k-£45k', { min: 40000, max: 45000, currency: 'GBP' }],
    ['£40-45k', { min: 40000, max: 45000, currency: 'GBP' }],
    ['$25.50 - $30.00 per hour', { min: 25.5, max: 30, currency: '$', per: 'hour' }],
    ['CAD 80,000 to 95,000 per year', { min: 80000, max: 95000, currency: 'CAD', per: 'year' }],
    ['2.500 € brutto pro Monat', { min: 2500, max: 2500, currency: 'EUR', per: 'month' }],
    // "an" is French for a year, but here the English article: an hour.
    ['$25 an hour', { min: 25, max: 25, currency: '$', per: 'hour' }],
    ['40 000 € par an', { min: 40000, max: 40000, currency: 'EUR', per: 'year' }],
    ['$120,000 – $150,000 per annum, plus 10% bonus', { min: 120000, max: 150000, currency: '$', per: 'year' }],
    ['$120,000 - $150,000 DOE', { min: 120000, max: 150000, currency: '$' }],
    ['$80,000 - $131,000 CAD', { min: 80000, max: 131000, currency: 'CAD' }],
    ['between $100k and $120k', { min: 100000, max: 120000, currency: '$' }],
    ['$120,000 ‒ $150,000', { min: 120000, max: 150000, currency: '$' }],
    ['$25 - $30 an hour', { min: 25, max: 30, currency: '$', per: 'hour' }],
    ['Full time: $50,000 - $60,000 a year', { min: 50000, max: 60000, currency: '$', per: 'year' }],
    ['kr 600 000 - 700 000 NOK per år', { min: 600000, max: 700000, currency: 'NOK', per: 'year' }],
    ['45 000 € par année', { min: 45000, max: 45000, currency: 'EUR', per: 'year' }],
    ['300 NOK per time', { min: 300, max: 300, currency: 'NOK', per: 'hour' }],
    ['$120k/yr – $150k/yr', { min: 120000, max: 150000, currency: '$', per: 'year' }],
    ['$45/hr - $55/hr', { min: 45, max: 55, currency: '$', per: 'hour' }],
    ['CHF 100’000 - 120’000', { min: 100000, max: 120000, currency: 'CHF' }],
    ['$100K-$120K + 401(k)', { min: 100000, max: 120000, currency: '$' }],
    ['$60,000–$70,000 annually; $5,000 signing bonus', { min: 60000, max: 70000, currency: '$', per: 'year' }],
    ['€ 3.500,00 brutto pro Monat (14x)', { min: 3500, max: 3500, currency: 'EUR', per: 'month' }],
    ['Monatsgehalt 3.500 € brutto', { min: 3500, max: 3500, currency: 'EUR', per: 'month' }],
    ['Stundenlohn 18 €', { min: 18, max: 18, currency: 'EUR', per: 'hour' }],
  ])('%s', (text, pay) => {
    expect(readSalaryText(text)).toEqual({ kind: 'pay', pay });
  });

  it('from an amount is open-ended; a plus too; up to has no bottom', () => {
    expect(readSalaryText('from $90,000')).toEqual({ kind: 'pay', pay: { min: 90000, currency: '$' } });
    expect(readSalaryText('$90,000+ a year')).toEqual({ kind: 'pay', pay: { min: 90000, currency: '$', per: 'year' } });
    expect(readSalaryText('up to €60.000')).toEqual({ kind: 'pay', pay: { max: 60000, currency: 'EUR' } });
    expect(readSalaryText('$90,000 and up')).toEqual({ kind: 'pay', pay: { min: 90000, currency: '$' } });
    expect(readSalaryText('Jahresgehalt ab 49.000 €')).toEqual({ kind: 'pay', pay: { min: 49000, currency: 'EUR', per: 'year' } });
    expect(readSalaryText('mind. € 45.000 brutto p.a.')).toEqual({ kind: 'pay', pay: { min: 45000, currency: 'EUR', per: 'year' } });
    expect(readSalaryText('$90k or more a year')).toEqual({ kind: 'pay', pay: { min: 90000, currency: '$', per: 'year' } });
  });

  it('a link standing in for the range is a link', () => {
    expect(readSalaryText('See https://acme.example/pay')).toEqual({ kind: 'link', url: 'https://acme.example/pay' });
  });

  it('what cannot be read is said, never guessed', () => {
    expect(readSalaryText('Competitive')).toEqual({ kind: 'unread', why: 'it names no amount' });
    expect(readSalaryText('$80,000 base and $20,000 bonus')).toEqual({
      kind: 'unread',
      why: 'its two amounts are not written as a range ("base and" between them)',
    });
    expect(readSalaryText('$1 - $2 - $3')).toMatchObject({ kind: 'unread' });
    expect(readSalaryText('€50,000 - £60,000')).toEqual({ kind: 'unread', why: 'it names two currencies (EUR, GBP)' });
    expect(readSalaryText('$80,000 - 95,000 EUR')).toEqual({ kind: 'unread', why: 'it names two currencies ($, EUR)' });
    expect(readSalaryText(`${'9'.repeat(400)} USD`)).toEqual({ kind: 'unread', why: 'an amount is too large to be a pay' });
  });
});

describe('writing salary_text from a pay', () => {
  it.each([
    [{ min: 120000, max: 150000, currency: 'USD', per: 'year' }, 'en', '120,000 - 150,000 USD a year'],
    [{ min: 45000, max: 55000, currency: 'EUR', per: 'year' }, 'de', '45.000 - 55.000 EUR brutto pro Jahr'],
    [{ min: 3000, currency: 'EUR', per: 'month' }, 'fr', 'à partir de 3\u202f000 EUR brut par mois'],
    [{ min: 95000, max: 95000, currency: 'CAD', per: 'year' }, 'en', '95,000 CAD a year'],
    [{ min: 40, max: 40, currency: 'EUR', per: 'hour' }, 'en', '40 EUR an hour'],
    [{ min: 25, max: 30, currency: 'USD', per: 'hour' }, 'en', '25 - 30 USD an hour'],
    [{ min: 3000, max: 3500, currency: 'EUR', per: 'month' }, 'fr', '3\u202f000 - 3\u202f500 EUR brut par mois'],
    [{ min: 40000, currency: 'EUR', per: 'year' }, 'fr', 'à partir de 40\u202f000 EUR brut par an'],
  ] as [Pay & { currency: string }, string, string][])('%j in %s', (pay, language, text) => {
    expect(writeSalaryText(pay, language)).toBe(text);
    // What is written reads back as the same pay.
    expect(readSalaryText(text)).toEqual({ kind: 'pay', pay });
  });
});
