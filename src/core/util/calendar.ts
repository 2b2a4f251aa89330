/** Days in each month of a common year, January first. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `year`-`month`-`day` (month from 1) names a real day of the proleptic Gregorian calendar:
 * 2028-02-29 yes, 2027-02-29 no, 2026-02-30 no (Date would roll it over to March). Year 0 is a leap year.
 */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}
