/**
 * The two string formats the schemas use, for the generated validators (instead of loading every
 * format ajv-formats knows at each start). Same rules as ajv-formats' "full" mode.
 */
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** YYYY-MM-DD that names a real calendar day (2028-02-29 yes, 2027-02-29 no). */
function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]!);
}

function compareDates(a: string, b: string): number | undefined {
  if (!(isDate(a) && isDate(b))) return undefined;
  return a < b ? -1 : a > b ? 1 : 0;
}

export const fullFormats = {
  email: EMAIL,
  date: { validate: isDate, compare: compareDates },
};
