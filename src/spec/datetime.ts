/**
 * RFC 3339 date-time (section 5.6), the grammar behind the spec's "date-time format (ISO 8601)": the
 * date-time format of JSON Schema and OpenAPI is RFC 3339's, the internet profile of ISO 8601.
 *
 * Every form RFC 3339 allows is accepted — `Z` or a numeric offset (`+00:00`, `-00:00`, `+05:30`), `T`/`t`
 * and `Z`/`z` in either case (the NOTE of section 5.6), fractional seconds of any length, and second 60
 * (leap seconds) — so a deployment is never failed for a form the standard permits. Rejected: no offset
 * (local time: valid ISO 8601 but not a point in time), offsets without the colon, impossible dates
 * (February 30, month 13) and out-of-range hours or minutes.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when `s` is an RFC 3339 date-time (any case of T/Z, any fraction length, any offset). */
export function isRfc3339DateTime(s: string): boolean {
  const m = RFC3339.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return false;
  return true;
}
