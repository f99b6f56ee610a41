// Whether date and time fields name a real moment of the proleptic Gregorian calendar (no 30 February,
// no hour 24), read the way RFC 3339 reads them. Date.UTC cannot tell: it maps the years 0 to 99 to
// 1900 to 1999, so 0004-02-29 would be checked against 1904; setUTCFullYear takes the year as it is.
export function isCalendarMoment(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): boolean {
  const moment = new Date(0);
  moment.setUTCFullYear(year, month - 1, day);
  moment.setUTCHours(hour, minute, second, 0);
  return (
    moment.getUTCFullYear() === year &&
    moment.getUTCMonth() === month - 1 &&
    moment.getUTCDate() === day &&
    moment.getUTCHours() === hour &&
    moment.getUTCMinutes() === minute &&
    moment.getUTCSeconds() === second
  );
}
