/**
 * YYYY-MM-DD → DD/MM/YYYY (spec 01 §9); anything else as it came. Plain string work rather than date-fns: the
 * error texts use it (a due date in ERR_* texts), and they are on the login page's path.
 */
export function brDate(isoDate: string | undefined | null): string {
  if (!isoDate || !/^\d{4}-\d{2}-\d{2}/.test(isoDate)) return isoDate ?? '';
  const [year, month, day] = [isoDate.slice(0, 4), isoDate.slice(5, 7), isoDate.slice(8, 10)];
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  // a real day of the Gregorian calendar (as date-fns' parseISO checks it), else the text as it came
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  if (!daysInMonth || d < 1 || d > daysInMonth) return isoDate;
  // the year 0 is 1 BC, which date-fns' yyyy writes as 0001
  return `${day}/${month}/${y === 0 ? '0001' : year}`;
}
