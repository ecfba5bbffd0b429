/**
 * Driving one route class of the second connection past its budget (limits.429, limits.429-read), with
 * requests the deployment accepts: GET /me for reads, and for writes an assign that clears the team of a
 * conversation (4.7: "an empty string clears it", so every server must accept it). Every limiter charges an
 * accepted request, whereas one that charges only accepted requests (express-rate-limit's
 * skipFailedRequests) lets refused ones through without end, and a drive of 404s would call that
 * over-admission. Only 2xx answers count as admissions the limiter charged: a 4xx may not have been
 * charged, and a 5xx or a transport error may come from in front of the limiter.
 */
import type { Exchange } from '../../src/client/exchange.js';
import type { RequestSpec } from '../../src/client/types.js';
import type { SuiteContext } from '../../src/conformance/suite.js';
import { inconclusive } from '../../src/conformance/inconclusive.js';
import { abortableSleep } from '../../src/conformance/aborted.js';
import { describeAnswer, statusOf } from '../../src/conformance/recorder.js';
import { parseIntHeader } from '../../src/spec/headers.js';
import { assignRequest } from './requests.js';

export type DrivenClass = 'read' | 'write';

/** The most requests a drive sends, by class; a budget too big for it is left to the load profiles. */
export const DRIVE_BOUND: Record<DrivenClass, number> = { read: 1500, write: 600 };

/** How a drive ended (an Inconclusive is thrown when it can judge neither). */
export type DriveOutcome =
  | { kind: 'refused'; refused: Exchange; sent: Exchange[] }
  | {
      kind: 'over-admitted';
      admitted: Exchange[];
      others: number;
      /** The most any correct limiter admits before the first answer's Reset (see driveToRefusal). */
      most: number;
      /** Why that is the most, in words. */
      basis: string;
    };

/** An accepted request of the class, sent with the second connection's key. */
export function acceptedRequest(cls: DrivenClass, conversationId: string): RequestSpec {
  return cls === 'read'
    ? { method: 'GET', path: '/me', role: 'secondConnection' }
    : assignRequest(conversationId, { team: '' }, undefined, 'secondConnection');
}

const accepted = (x: Exchange): boolean => {
  const s = statusOf(x);
  return s !== undefined && s >= 200 && s < 300;
};

/** The bound of a drive of `cls` under the target's caps. */
function boundOf(ctx: SuiteContext, cls: DrivenClass): number {
  return Math.min(DRIVE_BOUND[cls], ctx.target.caps.maxRequests ?? DRIVE_BOUND[cls]);
}

/**
 * Sends `request` until a 429 or the bound: the most a correct limiter admits before the first answer's
 * Reset, plus two, then, when the budget may have come back during the drive (a window rolled over, a
 * bucket refilled), on to the bound. Over-admission is claimed only within the first answer's Reset and only
 * from accepted answers. That most is the budget the first answer leaves (Remaining + 1) where it is the
 * whole Limit; where the key had spent part of it before the drive, a sliding window or a token bucket gives
 * that part back as it ages, well before Reset (when the budget is whole again), so the most is the Limit
 * (a fixed window that admits past its Remaining then goes unjudged: the spec names no model).
 */
export async function driveToRefusal(ctx: SuiteContext, cls: DrivenClass, request: RequestSpec): Promise<DriveOutcome> {
  const batchSize = cls === 'read' ? 16 : 8;
  let first = await ctx.sendOnce(request);
  // Start at the beginning of a window, so a rollover in the middle cannot hide the 429.
  const reset0 = first.response ? parseIntHeader(first.response.headers, 'RateLimit-Reset') : undefined;
  if (reset0?.ok && reset0.value <= 3 && statusOf(first) !== 429) {
    await abortableSleep(reset0.value * 1000 + 100, ctx.signal);
    first = await ctx.sendOnce(request);
  }
  const started = Date.now();
  if (statusOf(first) === 429)
    inconclusive(
      `the ${cls} budget of the second connection was already spent when the drive began`,
      'run limits alone, or give keys.secondConnection a key no other traffic uses',
    );
  if (!accepted(first))
    inconclusive(
      `the drive's ${cls} request was not accepted (${describeAnswer(first)}), so no limiter need charge it`,
      cls === 'write'
        ? 'fixtures.ids.conversationId: a conversation the second connection may assign'
        : 'keys.secondConnection: a key GET /me answers',
    );
  const remaining = first.response ? parseIntHeader(first.response.headers, 'RateLimit-Remaining') : undefined;
  if (!remaining?.ok)
    inconclusive(`no usable RateLimit-Remaining on the first ${cls} answer to size the drive (reported by limits.headers)`);
  const budget = remaining.value + 1;
  const limit = first.response ? parseIntHeader(first.response.headers, 'RateLimit-Limit') : undefined;
  const most = limit?.ok && limit.value > budget ? limit.value : budget;
  const cap = boundOf(ctx, cls);
  if (budget + 2 > cap) {
    inconclusive(
      `the ${cls} budget (${remaining.value} left after one request) is above the ${cap}-request bound of this check`,
      ctx.target.caps.maxRequests !== undefined && ctx.target.caps.maxRequests < DRIVE_BOUND[cls]
        ? `caps.maxRequests of at least ${budget + 2}, or keys.secondConnection: a key whose ${cls} budget is at most ${cap - 2}`
        : `keys.secondConnection: a key whose ${cls} budget is at most ${cap - 2} (the load profile ${cls}-budget judges bigger ones)`,
    );
  }
  const sent: Exchange[] = [first];
  let refused: Exchange | undefined;
  const batch = async (n: number): Promise<void> => {
    const xs = await Promise.all(Array.from({ length: n }, () => ctx.sendOnce(request)));
    sent.push(...xs);
    refused = xs.find((x) => statusOf(x) === 429);
  };
  // Small concurrent batches keep the drive well inside one window.
  // One over the budget is the 429; one more leaves room for a write answered by something in front of the limiter.
  const upTo = Math.min(most + 2, cap);
  while (sent.length < upTo && !refused) await batch(Math.min(batchSize, upTo - sent.length));
  const firstReset = first.response ? parseIntHeader(first.response.headers, 'RateLimit-Reset') : undefined;
  const mayHaveRefilled = !firstReset?.ok || (Date.now() - started) / 1000 + 1 >= firstReset.value;
  // Budget given back during a slow drive is no over-admission, and the 429 is still to come: drive on.
  while (mayHaveRefilled && !refused && sent.length < cap) await batch(Math.min(batchSize, cap - sent.length));
  if (refused) return { kind: 'refused', refused, sent };
  const elapsedS = ((Date.now() - started) / 1000).toFixed(1);
  if (mayHaveRefilled) {
    inconclusive(
      `no 429 in ${sent.length} ${cls} requests over ${elapsedS} s: the budget kept coming back during the drive (window rolled over or bucket refilled)`,
      `keys.secondConnection: a key whose ${cls} budget is spent well within ${cap} requests`,
    );
  }
  const admitted = sent.filter(accepted);
  const others = sent.length - admitted.length;
  if (admitted.length <= most && others > 0) {
    inconclusive(
      `no 429 in ${sent.length} ${cls} requests, but ${others} of them were not accepted (first: ${describeAnswer(sent.find((x) => !accepted(x))!)}), so only ${admitted.length} were shown charged (the budget allowed ${most})`,
    );
  }
  if (admitted.length <= most) {
    inconclusive(
      `no 429 in ${sent.length} ${cls} requests: the key had spent ${most - budget} of its Limit of ${most} before the drive, which a sliding window or a token bucket gives back before Reset, and Limit + 2 requests are above the ${cap}-request bound of this check`,
      `keys.secondConnection: a key no other traffic uses, whose ${cls} budget is at most ${cap - 2}`,
    );
  }
  const basis =
    most > budget
      ? `the Limit (${most}), though ${remaining.value} remained: what the key spent before may come back before Reset in a sliding window or a token bucket`
      : `the ${budget} remaining`;
  return { kind: 'over-admitted', admitted, others, most, basis };
}
