/**
 * 8.ratelimit.headers: RateLimit-Limit, -Remaining and -Reset are present and integers on every /v1
 * response (admitted or refused). A negative Remaining is left to the bounds rule. A trace of another API
 * (headers of another dialect on every response) is judged on the normalized values; where the spec's
 * headers appear on some responses, a response that carries only another dialect lacks them.
 */
import type { BudgetContext } from '../context.js';
import { parseIntValue } from '../parsed.js';
import type { ViolationSink } from '../sink.js';

const HEADERS = [
  ['RateLimit-Limit', 'limit'],
  ['RateLimit-Remaining', 'remaining'],
  ['RateLimit-Reset', 'reset'],
] as const;

const otherDialect = (d: string | undefined): boolean => d !== undefined && d !== 'spec';

/** Reports responses whose rate-limit headers are missing or not integers. */
export function checkHeaders(ctx: BudgetContext, sink: ViolationSink): void {
  const specSeen = ctx.group.bySent.some((s) => !otherDialect(s.raw.dialect));
  for (const s of ctx.group.bySent) {
    const dialect = s.raw.dialect;
    if (specSeen && otherDialect(dialect)) {
      sink.add({
        rule: '8.ratelimit.headers',
        sample: s,
        responses: s.weight,
        bucket: `dialect:${dialect}`,
        specFields: true,
        message: `RateLimit-Limit, -Remaining and -Reset are missing on a ${s.status} response that carries ${dialect} headers instead`,
      });
      continue;
    }
    // The parsed values already say which headers are fine (limit and reset parsed as by parseIntValue;
    // a parsed remaining is an integer, negative or not): only the others are parsed again for the words.
    if (s.limit !== null && s.remaining !== null && s.reset !== null) continue;
    for (const [name, field] of HEADERS) {
      if (s[field] !== null) continue;
      const raw = s.raw[field];
      const p = parseIntValue(raw);
      if (p.ok || (field === 'remaining' && p.problem === 'negative')) continue;
      const label = otherDialect(dialect) ? `${name.replace('RateLimit-', '')} (${dialect} dialect)` : name;
      const what = p.problem === 'missing' ? `${label} is missing` : `${label} is not an integer (${JSON.stringify(raw)})`;
      sink.add({
        rule: '8.ratelimit.headers',
        sample: s,
        responses: s.weight,
        bucket: `${name}:${p.problem}:${s.status === 429 ? '429' : s.status < 400 ? 'ok' : 'error'}`,
        message: `${what} on a ${s.status} response`,
      });
    }
  }
}
