/**
 * Header checks of spec parts 7 and 8, cheap enough to run on every response of a conformance or load
 * run: X-Request-Id, the three RateLimit-* headers (present, integral, 0 <= Remaining <= Limit, Reset no
 * longer than a year, nor than the target file's window), and Retry-After on 429.
 */
import type { Exchange } from '../client/exchange.js';
import { parseRateLimitHeaders, type IntHeader } from '../spec/headers.js';
import type { ClauseViolation } from './envelope.js';

/**
 * The longest plausible RateLimit-Reset: a year. The spec bounds no window (a monthly quota is legitimate),
 * but "seconds until the budget is full again" is a delta, and an epoch time (1.7e9 s, or 1.7e12 in ms) is
 * decades away.
 */
const MAX_RESET_S = 366 * 86_400;

export interface HeaderCheckOptions {
  /** The route class's window in seconds, when known (target assumptions); bounds RateLimit-Reset. */
  windowSeconds?: number;
}

function show(h: IntHeader): string {
  return h.ok ? h.raw : h.raw !== undefined ? `${JSON.stringify(h.raw)} (${h.problem})` : h.problem;
}

/** Every header violation of one response; an exchange without a response yields none. */
export function checkResponseHeaders(x: Exchange, opts: HeaderCheckOptions = {}): ClauseViolation[] {
  const r = x.response;
  if (!r) return [];
  const out: ClauseViolation[] = [];
  const h = parseRateLimitHeaders(r.headers);

  if (!h.requestId.ok) {
    out.push({
      clause: '7.request-id.header',
      expected: 'an X-Request-Id header',
      actual: `X-Request-Id ${h.requestId.problem} on HTTP ${r.status}`,
    });
  }

  // A negative Remaining is integral but out of bounds: report it under the bounds clause only.
  const bad: string[] = [];
  if (!h.limit.ok) bad.push(`RateLimit-Limit ${show(h.limit)}`);
  if (!h.remaining.ok && h.remaining.problem !== 'negative') bad.push(`RateLimit-Remaining ${show(h.remaining)}`);
  if (!h.reset.ok) bad.push(`RateLimit-Reset ${show(h.reset)}`);
  if (bad.length) {
    out.push({
      clause: '8.ratelimit.headers',
      expected: 'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset present as integers',
      actual: `${bad.join(', ')} on HTTP ${r.status}`,
    });
  }

  if (!h.remaining.ok && h.remaining.problem === 'negative') {
    out.push({
      clause: '8.ratelimit.remaining-bounds',
      expected: '0 <= RateLimit-Remaining',
      actual: `RateLimit-Remaining ${h.remaining.raw ?? ''} on HTTP ${r.status}`,
    });
  } else if (h.remaining.ok && h.limit.ok && h.remaining.value > h.limit.value) {
    out.push({
      clause: '8.ratelimit.remaining-bounds',
      expected: 'RateLimit-Remaining <= RateLimit-Limit',
      actual: `RateLimit-Remaining ${h.remaining.value} > RateLimit-Limit ${h.limit.value}`,
    });
  }

  // "seconds until the budget is full again": a delta, not a moment (an epoch time is 1.7e9 s away).
  if (h.reset.ok && h.reset.value > MAX_RESET_S) {
    out.push({
      clause: '8.ratelimit.reset-plausible',
      expected: `RateLimit-Reset in seconds until the budget is full again, at most ${MAX_RESET_S} (a year)`,
      actual: `RateLimit-Reset ${h.reset.value}${h.reset.value > 1e9 ? ' (an epoch time?)' : ''}`,
    });
  } else if (h.reset.ok && opts.windowSeconds !== undefined && h.reset.value > Math.ceil(opts.windowSeconds)) {
    // the window is the target file's assumption (the spec does not show the budgets): basis assumed
    out.push({
      clause: '8.ratelimit.reset-window',
      expected: `RateLimit-Reset at most the ${opts.windowSeconds} s window the target file states`,
      actual: `RateLimit-Reset ${h.reset.value}`,
    });
  }

  if (r.status === 429 && !h.retryAfter.ok) {
    out.push({
      clause: '8.ratelimit.retry-after',
      expected: 'HTTP 429 with an integer Retry-After (seconds)',
      actual: `Retry-After ${show(h.retryAfter)}`,
    });
  }
  return out;
}
