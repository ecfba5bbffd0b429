/**
 * The shape of a refusal: 8.ratelimit.retry-after (a 429 carries an integer Retry-After) and
 * 8.ratelimit.429-code (its body is the error envelope with code rate_limit.exceeded).
 */
import type { BudgetContext } from '../context.js';
import { parseIntValue } from '../parsed.js';
import type { ViolationSink } from '../sink.js';

/** Reports 429 responses without a usable Retry-After or with the wrong error code. */
export function checkRefusalShape(ctx: BudgetContext, sink: ViolationSink): void {
  for (const s of ctx.group.bySent) {
    if (!s.refused) continue;
    const ra = parseIntValue(s.raw.retryAfter);
    if (!ra.ok) {
      sink.add({
        rule: '8.ratelimit.retry-after',
        sample: s,
        responses: s.weight,
        bucket: ra.problem,
        message:
          ra.problem === 'missing'
            ? '429 without Retry-After'
            : `429 with a Retry-After that is not integer seconds (${JSON.stringify(s.raw.retryAfter)})`,
      });
    }
    const code = s.raw.errorCode;
    // A trace without the body (a HAR saved without content) cannot show the code either way.
    if (code !== 'rate_limit.exceeded' && s.raw.bodyRecorded !== false) {
      sink.add({
        rule: '8.ratelimit.429-code',
        sample: s,
        responses: s.weight,
        bucket: code ?? '(none)',
        message:
          code === undefined
            ? '429 body is not an error envelope with a code'
            : `429 body code is ${JSON.stringify(code)}, not "rate_limit.exceeded"`,
      });
    }
  }
}
