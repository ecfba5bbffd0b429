/**
 * The SuiteContext the runner hands to each check: sends through the client, records every exchange,
 * waits out 429s per Retry-After within the target's bound (assumptions.rateLimitWaitSeconds, abortable),
 * and notes a refusal the spec does not allow as an extra failure of the check that saw it. A request that
 * gets nothing but 429 within the bound throws RateLimited: the runner skips the check with that evidence,
 * because a shared or busy budget says nothing about the clause the check is about.
 */
import type { Exchange } from '../client/exchange.js';
import type { SignedUrl } from '../client/signed-url.js';
import type { HttpClient, RequestSpec } from '../client/types.js';
import { parseIntHeader, parseTextHeader, type IntHeader } from '../spec/headers.js';
import type { Target } from '../target/schema.js';
import { abortableSleep, RunAborted } from './aborted.js';
import type { FixturesApi } from './fixtures.js';
import type { CheckFailure, SuiteContext } from './suite.js';

/**
 * Fixed bounds of waiting out 429s inside ctx.send (the total wait is the target's rateLimitWaitSeconds).
 * maxAttempts stops a server that answers `Retry-After: 0` forever; without Retry-After the wait doubles
 * from fallbackWaitSeconds; honouredRefusals is how many refusals after a Retry-After waited in full make
 * "Retry-After not honoured" a finding (one or two can be a competing client on a shared budget).
 */
export const RETRY_POLICY = { maxAttempts: 20, fallbackWaitSeconds: 1, marginMs: 50, honouredRefusals: 3 } as const;

/** What a request that got nothing but 429 saw: enough to tell a busy shared budget from a broken limiter. */
export interface RateLimitEvidence {
  method: string;
  path: string;
  /** The refused exchanges, oldest first. */
  exchanges: Exchange[];
  /** Retry-After of each refusal, as sent ("(absent)" when missing). */
  retryAfter: string[];
  /** X-Request-Id of each refusal that carried one. */
  requestIds: string[];
  /** Seconds waited in total before giving up. */
  waitedSeconds: number;
  /** The bound that stopped the waiting (assumptions.rateLimitWaitSeconds). */
  boundSeconds: number;
}

/** Thrown by ctx.send when a request got only 429 within the wait bound; the runner skips the check. */
export class RateLimited extends Error {
  constructor(readonly evidence: RateLimitEvidence) {
    super(rateLimitedReason(evidence));
    this.name = 'RateLimited';
  }
}

/** The skip reason of a rate-limited check: "rate limited: …" with the request ids and Retry-After values. */
export function rateLimitedReason(e: RateLimitEvidence): string {
  const list = (xs: string[]): string => (xs.length > 5 ? `${xs.slice(0, 5).join(', ')}, … ${xs.length - 5} more` : xs.join(', '));
  const ids = e.requestIds.length ? `; request ids ${list(e.requestIds)}` : '';
  return (
    `rate limited: ${e.method} ${e.path} answered HTTP 429 to all ${e.exchanges.length} attempts after ${e.waitedSeconds} s of waiting ` +
    `(bound ${e.boundSeconds} s, assumptions.rateLimitWaitSeconds; Retry-After ${list(e.retryAfter)}${ids})`
  );
}

/**
 * Seconds to wait before the next attempt after the `attempt`-th refusal (0-based), or undefined to give up:
 * Retry-After when the server sent one, else a doubling fallback; never past the total bound, and a wait
 * shorter than Retry-After is pointless (the server said it would refuse), so that gives up too.
 */
export function nextWaitSeconds(retryAfter: IntHeader, attempt: number, waitedSeconds: number, boundSeconds: number): number | undefined {
  if (attempt + 1 >= RETRY_POLICY.maxAttempts) return undefined;
  const wait = retryAfter.ok ? Math.max(0, retryAfter.value) : RETRY_POLICY.fallbackWaitSeconds * 2 ** attempt;
  return waitedSeconds + wait <= boundSeconds ? wait : undefined;
}

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

  type Via = (spec: RequestSpec) => Promise<Exchange>;
  const direct: Via = (spec) => state.client.send(spec);
  const sendOnce = async (spec: RequestSpec, via: Via = direct): Promise<Exchange> => {
    if (state.signal.aborted) throw new RunAborted();
    const x = await via(spec);
    state.requests++;
    if (x.request.url.startsWith(base)) state.observed.push(x);
    state.onRequest();
    if (state.signal.aborted || x.error?.kind === 'aborted') throw new RunAborted();
    return x;
  };

  const send = async (spec: RequestSpec, via: Via = direct): Promise<Exchange> => {
    const bound = state.target.assumptions.rateLimitWaitSeconds;
    const refused: Exchange[] = [];
    let waited = 0;
    let honoured = 0;
    for (let attempt = 0; ; attempt++) {
      const x = await sendOnce(spec, via);
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
      const waitS = nextWaitSeconds(retryAfter, attempt, waited, bound);
      if (waitS === undefined) {
        // Only the server's fault when its own Retry-After was waited out in full, several times over.
        if (honoured >= RETRY_POLICY.honouredRefusals) {
          note({
            clause: '8.ratelimit.retry-after-honoured',
            expected: 'a request sent after Retry-After elapsed to be admitted',
            actual: `still HTTP 429 after waiting Retry-After in full ${honoured} times`,
            exchanges: refused.slice(-(honoured + 1)),
          });
        }
        throw new RateLimited(evidenceOf(spec, refused, waited, bound));
      }
      await abortableSleep(waitS * 1000 + RETRY_POLICY.marginMs, state.signal);
      waited += waitS;
      if (retryAfter.ok) honoured++;
    }
  };

  const ctx: SuiteContext = {
    target: state.target,
    send: (spec) => send(spec),
    sendOnce: (spec) => sendOnce(spec),
    async sendForSignedUrl(spec, field) {
      let url: SignedUrl | undefined;
      const exchange = await send(spec, async (s) => {
        const r = await state.client.sendForSignedUrl(s, field);
        url = r.url;
        return r.exchange;
      });
      return { exchange, ...(url ? { url } : {}) };
    },
    async fetchSigned(url) {
      // not an API exchange (another path, maybe another origin): counted as a request, not observed
      if (state.signal.aborted) throw new RunAborted();
      const x = await state.client.fetchSigned(url);
      state.requests++;
      state.onRequest();
      if (state.signal.aborted || x.error?.kind === 'aborted') throw new RunAborted();
      return x;
    },
    observed: () => state.observed,
    signal: state.signal,
    fc,
    ...(state.fixtures ? { fixtures: state.fixtures } : {}),
  };
  return { ctx, extraFailures };
}

function evidenceOf(spec: RequestSpec, refused: Exchange[], waitedSeconds: number, boundSeconds: number): RateLimitEvidence {
  const headerOf = (x: Exchange, name: string) => parseTextHeader(x.response?.headers ?? {}, name);
  return {
    method: spec.method,
    path: spec.path,
    exchanges: refused,
    retryAfter: refused.map((x) => {
      const h = headerOf(x, 'Retry-After');
      return h.ok ? h.value : '(absent)';
    }),
    requestIds: refused.flatMap((x) => {
      const h = headerOf(x, 'X-Request-Id');
      return h.ok ? [h.value] : [];
    }),
    waitedSeconds: Math.round(waitedSeconds * 10) / 10,
    boundSeconds,
  };
}
