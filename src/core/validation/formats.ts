/**
 * The two string formats the schemas use, for the generated validators (instead of loading every
 * format ajv-formats knows at each start). Same rules as ajv-formats' "full" mode.
 */
import { isCalendarDay } from '../util/calendar.js';

const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
/** YYYY-MM-DD that names a real calendar day (2028-02-29 yes, 2027-02-29 no). */
function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  return isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

function compareDates(a: string, b: string): number | undefined {
  if (!(isDate(a) && isDate(b))) return undefined;
  return a < b ? -1 : a > b ? 1 : 0;
}

export const fullFormats = {
  email: EMAIL,
  date: { validate: isDate, compare: compareDates },
};
