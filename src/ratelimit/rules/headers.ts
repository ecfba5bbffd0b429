/**
 * 8.ratelimit.headers: RateLimit-Limit, -Remaining and -Reset are present and integers on every /v1
 * response (admitted or refused). A negative Remaining is left to the bounds rule.
 */
import type { BudgetContext } from '../context.js';
import { parseIntValue } from '../parsed.js';
import type { ViolationSink } from '../sink.js';

const HEADERS = [
  ['RateLimit-Limit', 'limit'],
  ['RateLimit-Remaining', 'remaining'],
  ['RateLimit-Reset', 'reset'],
] as const;

/** Reports responses whose rate-limit headers are missing or not integers. */
export function checkHeaders(ctx: BudgetContext, sink: ViolationSink): void {
  for (const s of ctx.group.bySent) {
    for (const [name, field] of HEADERS) {
      const raw = s.raw[field];
      const p = parseIntValue(raw);
      if (p.ok || (field === 'remaining' && p.problem === 'negative')) continue;
      const what = p.problem === 'missing' ? `${name} is missing` : `${name} is not an integer (${JSON.stringify(raw)})`;
      sink.add({
        rule: '8.ratelimit.headers',
        sample: s,
        bucket: `${name}:${p.problem}:${s.status === 429 ? '429' : s.status < 400 ? 'ok' : 'error'}`,
        message: `${what} on a ${s.status} response`,
      });
    }
  }
}
