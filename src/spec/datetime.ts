/**
 * Date-time strings. The spec (part 2) says "date-time format (ISO 8601)", so a valid ISO 8601 extended
 * date-time is conforming: extended or basic format, with or without a zone offset, with or without seconds
 * or a fraction (`.` or `,`).
 * RFC 3339 (section 5.6), the internet profile of ISO 8601 that JSON Schema and OpenAPI name, is stricter:
 * seconds and an offset (`Z` or `±hh:mm`) are required. That is the standard's word, not the spec's, so a
 * date-time that is ISO 8601 but not RFC 3339 is at most a warning (see checks/shape.ts).
 *
 * Both accept `T`/`t` and `Z`/`z` (RFC 3339's NOTE) and second 60 (leap seconds). Rejected outright: a
 * date without a time, a space for the T, impossible dates (February 30, month 13), out-of-range hours or
 * minutes.
 */

// Extended (2026-11-25T10:00:00+01:00) or basic (20261125T100000+0100) format.
const ISO8601 = /^(\d{4})-?(\d{2})-?(\d{2})[Tt](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when `s` is an ISO 8601 date-time, extended or basic format (offset, seconds and fraction optional). */
export function isIso8601DateTime(s: string): boolean {
  const m = ISO8601.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9] ?? 0) > 59)) return false;
  return true;
}

/** True when `s` is an RFC 3339 date-time (any case of T/Z, any fraction length, any offset). */
export function isRfc3339DateTime(s: string): boolean {
  return RFC3339.test(s) && isIso8601DateTime(s);
}
