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
  ])('%s', (text, pay) => {
    expect(readSalaryText(text)).toEqual({ kind: 'pay', pay });
  });

  it('from an amount is open-ended; a plus too; up to has no bottom', () => {
    expect(readSalaryText('from $90,000')).toEqual({ kind: 'pay', pay: { min: 90000, currency: '$' } });
    expect(readSalaryText('$90,000+ a year')).toEqual({ kind: 'pay', pay: { min: 90000, currency: '$', per: 'year' } });
    expect(readSalaryText('up to €60.000')).toEqual({ kind: 'pay', pay: { max: 60000, currency: 'EUR' } });
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
  });
});

describe('writing salary_text from a pay', () => {
  it.each([
    [{ min: 120000, max: 150000, currency: 'USD', per: 'year' }, 'en', '120,000 - 150,000 USD a year'],
    [{ min: 45000, max: 55000, currency: 'EUR', per: 'year' }, 'de', '45.000 - 55.000 EUR brutto pro Jahr'],
    [{ min: 3000, currency: 'EUR', per: 'month' }, 'fr', 'à partir de 3\u202f000 EUR brut par mois'],
    [{ min: 95000, max: 95000, currency: 'CAD', per: 'year' }, 'en', '95,000 CAD a year'],
    [{ min: 40, max: 40, currency: 'EUR', per: 'hour' }, 'en', '40 EUR an hour'],
  ] as [Pay & { currency: string }, string, string][])('%j in %s', (pay, language, text) => {
    expect(writeSalaryText(pay, language)).toBe(text);
    // What is written reads back as the same pay.
    expect(readSalaryText(text)).toEqual({ kind: 'pay', pay });
  });
});
