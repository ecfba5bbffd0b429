/**
 * The SuiteContext the runner hands to each check: sends through the client, records every exchange,
 * waits out 429s (bounded, abortable) and notes a refusal the spec does not allow as an extra failure of
 * the check that saw it.
 */
import type { Exchange } from '../client/exchange.js';
import type { HttpClient, RequestSpec } from '../client/types.js';
import { parseIntHeader } from '../spec/headers.js';
import type { Target } from '../target/schema.js';
import { abortableSleep, RunAborted } from './aborted.js';
import type { FixturesApi } from './fixtures.js';
import type { CheckFailure, SuiteContext } from './suite.js';

/** Bounds of waiting out 429s inside ctx.send. */
export const RETRY_POLICY = { maxRetries: 3, maxWaitSeconds: 10, fallbackWaitSeconds: 1, marginMs: 50 } as const;

/** State shared by every check of a run. */
export interface RunState {
  client: HttpClient;
  target: Target;
  signal: AbortSignal;
  fixtures?: FixturesApi;
  /** API exchanges (under baseUrl), oldest first. */
  observed: Exchange[];
  requests: number;
  onRequest: () => void;
}

/** A check's context plus the failures the runner itself noted while the check was sending. */
export interface CheckContext {
  ctx: SuiteContext;
  extraFailures: CheckFailure[];
}

/** Builds the context of one check. */
export function createCheckContext(state: RunState, fc: { seed: number; numRuns: number }): CheckContext {
  const extraFailures: CheckFailure[] = [];
  const noted = new Set<string>();
  const note = (f: CheckFailure): void => {
    const key = f.clause ?? '';
    if (noted.has(key)) return; // one note per clause per check is enough to reproduce it
    noted.add(key);
    extraFailures.push(f);
  };
  const base = state.target.baseUrl.replace(/\/+$/, '');

  const sendOnce = async (spec: RequestSpec): Promise<Exchange> => {
    if (state.signal.aborted) throw new RunAborted();
    const x = await state.client.send(spec);
    state.requests++;
    if (x.request.url.startsWith(base)) state.observed.push(x);
    state.onRequest();
    if (state.signal.aborted || x.error?.kind === 'aborted') throw new RunAborted();
    return x;
  };

  const send = async (spec: RequestSpec): Promise<Exchange> => {
    const refused: Exchange[] = [];
    for (let attempt = 0; ; attempt++) {
      const x = await sendOnce(spec);
      if (x.response?.status !== 429) return x;
      refused.push(x);
      const retryAfter = parseIntHeader(x.response.headers, 'Retry-After');
      if (!retryAfter.ok) {
        note({
          clause: '8.ratelimit.retry-after',
          expected: 'HTTP 429 with an integer Retry-After (seconds)',
          actual: `Retry-After ${retryAfter.raw !== undefined ? JSON.stringify(retryAfter.raw) : retryAfter.problem}`,
          exchanges: [x],
        });
      }
      if (attempt >= RETRY_POLICY.maxRetries) {
        // Only the server's fault when its own Retry-After was waited out in full.
        if (retryAfter.ok && retryAfter.value <= RETRY_POLICY.maxWaitSeconds) {
          note({
            clause: '8.ratelimit.retry-after-honoured',
            expected: 'a request sent after Retry-After elapsed to be admitted',
            actual: `still HTTP 429 after waiting Retry-After ${RETRY_POLICY.maxRetries} times`,
            exchanges: refused,
          });
        }
        return x;
      }
      const waitS = retryAfter.ok ? Math.min(retryAfter.value, RETRY_POLICY.maxWaitSeconds) : RETRY_POLICY.fallbackWaitSeconds;
      await abortableSleep(waitS * 1000 + RETRY_POLICY.marginMs, state.signal);
    }
  };

  const ctx: SuiteContext = {
    target: state.target,
    send,
    sendOnce,
    observed: () => state.observed,
    signal: state.signal,
    fc,
    ...(state.fixtures ? { fixtures: state.fixtures } : {}),
  };
  return { ctx, extraFailures };
}
