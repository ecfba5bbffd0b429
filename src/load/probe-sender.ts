/**
 * The real I/O behind a budget probe: one undici Pool per probe (a connection per request of the probe's
 * concurrent burst), requests of one planned route (its key,
 * body and a fresh Idempotency-Key as in the run), paced under caps.maxRps, each bounded by the plan's
 * request timeout. Only the RateLimit-* headers are kept; bodies are read and dropped, nothing is logged.
 */
import { sleepUnlessAborted } from '../sleep.js';
import { createDispatcher } from '../client/transport.js';
import { randomUUID } from 'node:crypto';
import type { Target } from '../target/schema.js';
import { PROBE_DEFAULTS, type ProbeIO } from './budget-probe.js';
import type { PlannedRoute } from './plan.js';
import { deadlineSignal, readLoadBody } from './request-bounds.js';

const first = (v: string | string[] | undefined): string | undefined =>
  v === undefined ? undefined : typeof v === 'string' ? v : v.join(', ');

/** Spaces sends of every probe of a run at least 1000 / maxRps ms apart. */
export class ProbePacer {
  private nextAt = 0;
  constructor(private readonly maxRps: number | undefined) {}

  /** Ms to wait before the next send (and reserves its slot). */
  reserve(now: number): number {
    if (this.maxRps === undefined) return 0;
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + 1000 / this.maxRps;
    return at - now;
  }
}

export interface ProbeSender {
  io: ProbeIO;
  close(): Promise<void>;
}

/** A ProbeIO sending `route` to the target. */
export function createProbeSender(
  target: Target,
  route: PlannedRoute,
  o: { timeoutMs: number; pacer: ProbePacer; signal?: AbortSignal },
): ProbeSender {
  const url = new URL(target.baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const pool = createDispatcher(
    url.origin,
    {
      connections: PROBE_DEFAULTS.burstMax,
      pipelining: 1,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      connectTimeout: Math.min(o.timeoutMs, 5000),
    },
    { tls: target.tls },
  );
  const runId = randomUUID().slice(0, 8);
  const never = new AbortController().signal;
  let seq = 0;
  const io: ProbeIO = {
    now: () => performance.now(),
    sleep: sleepUnlessAborted,
    async send() {
      await sleepUnlessAborted(o.pacer.reserve(performance.now()), o.signal);
      if (o.signal?.aborted) return { status: 0 };
      const s = ++seq;
      const headers: Record<string, string> = {
        authorization: `Bearer ${target.secrets[route.keyRole] ?? ''}`,
        accept: 'application/json',
      };
      if (route.idempotencyKey) headers['idempotency-key'] = `spgate-probe-${runId}-${s}`;
      let body: string | undefined;
      if (route.body) {
        body = route.body(s);
        headers['content-type'] = 'application/json';
      }
      const deadline = deadlineSignal(o.signal ?? never, o.timeoutMs);
      try {
        const res = await pool.request({
          origin: url.origin,
          path: prefix + route.path,
          method: route.method as 'GET',
          headers,
          body,
          signal: deadline.signal,
        });
        const read = await readLoadBody(res.body, false, res.headers['content-length']);
        if (read.error !== undefined) return { status: 0 };
        const h = res.headers;
        return {
          status: res.statusCode,
          limit: first(h['ratelimit-limit']),
          remaining: first(h['ratelimit-remaining']),
          reset: first(h['ratelimit-reset']),
          retryAfter: first(h['retry-after']),
          policy: first(h['ratelimit-policy']),
        };
      } catch {
        return { status: 0 };
      } finally {
        deadline.clear();
      }
    },
  };
  return { io, close: () => pool.destroy().catch(() => undefined) };
}
