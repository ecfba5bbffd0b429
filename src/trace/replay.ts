/**
 * Re-sends a trace with its relative timing and records the new responses as trace records. The timing is
 * open-model: each request goes out at its own offset (divided by speed) whether or not earlier ones have
 * answered, as in the run that produced the trace.
 */
import { sleepUnlessAborted } from '../sleep.js';
import type { HttpClient } from '../client/types.js';
import type { Exchange } from '../client/exchange.js';
import { KEY_ROLES, type KeyName, type KeyRole, type Target } from '../target/schema.js';
import { fillTemplate, placeholderValues, replayBody } from './fill.js';
import type { TraceRecord } from './record.js';

export interface ReplayOptions {
  client: HttpClient;
  target: Target;
  /** 2 = twice as fast. */
  speed: number;
  /** Called with every new record as it arrives (the trace writer). */
  onRecord?: (r: TraceRecord) => void;
  signal?: AbortSignal;
  /** The key each role's requests go out with (default the role's own; shrink attempts take turns over a pool). */
  keyFor?: (role: KeyRole) => KeyName;
}

export interface ReplayOutcome {
  records: TraceRecord[];
  /** performance.now() when the schedule's offset 0 was due: record times are relative to it. */
  originMs: number;
  /** Per request sent, how late it went out against its scheduled offset (ms; negative is early). */
  sendErrors: number[];
  /** Records not sent, with why (a placeholder the target's fixtures cannot fill). */
  skipped: Array<{ t: number; path: string; reason: string }>;
}

/** Replays the records against the client's target; resolves when every response is in. */
export async function replayTrace(records: readonly TraceRecord[], opts: ReplayOptions): Promise<ReplayOutcome> {
  const values = placeholderValues(opts.target.fixtures.ids);
  const sorted = [...records].sort((a, b) => a.t - b.t);
  const t0 = sorted[0]?.t ?? 0;
  const start = performance.now();
  const out: TraceRecord[] = [];
  const sendErrors: number[] = [];
  const skipped: ReplayOutcome['skipped'] = [];
  const pending: Promise<void>[] = [];
  for (const rec of sorted) {
    if (opts.signal?.aborted) break;
    const filled = fillTemplate(rec.path, values);
    if (!filled.ok) {
      skipped.push({ t: rec.t, path: rec.path, reason: `the target's fixtures have no value for {${filled.missing}}` });
      continue;
    }
    const due = (rec.t - t0) / opts.speed;
    const wait = due - (performance.now() - start);
    if (wait > 1) await sleepUnlessAborted(wait, opts.signal);
    const sentAt = performance.now() - start;
    sendErrors.push(sentAt - due);
    const role = roleFor(rec.key, opts.target);
    const json = replayBody(rec.method, rec.path);
    pending.push(
      opts.client
        .send({ method: rec.method, path: filled.path, role: opts.keyFor?.(role) ?? role, ...(json === undefined ? {} : { json }) })
        .then((x) => {
          const r = toRecord(rec, x, sentAt, role);
          out.push(r);
          opts.onRecord?.(r);
        }),
    );
  }
  await Promise.all(pending);
  out.sort((a, b) => a.t - b.t);
  return { records: out, skipped, originMs: start, sendErrors };
}

/** The key role to use: the trace's role (a pool key's: `role.pool[i]` → role) when the target has a key for it, else admin. */
export function roleFor(key: string | undefined, target: Target): KeyRole {
  const role = key?.replace(/\.pool\[\d+\]$/, '');
  if (role && (KEY_ROLES as readonly string[]).includes(role) && target.secrets[role as KeyRole] !== undefined) return role as KeyRole;
  return 'admin';
}

function header(x: Exchange, name: string): string | undefined {
  const v = x.response?.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function toRecord(orig: TraceRecord, x: Exchange, sentAt: number, role: KeyRole): TraceRecord {
  const r: TraceRecord = {
    t: Math.round(sentAt * 1000) / 1000,
    latency: Math.max(0, x.timings.headers ?? x.timings.total),
    class: orig.class,
    method: orig.method,
    path: orig.path,
    status: x.response?.status ?? 0,
    key: role,
  };
  const fields = [
    ['limit', 'ratelimit-limit'],
    ['remaining', 'ratelimit-remaining'],
    ['reset', 'ratelimit-reset'],
    ['retryAfter', 'retry-after'],
    ['requestId', 'x-request-id'],
  ] as const;
  for (const [field, name] of fields) {
    const v = header(x, name);
    if (v !== undefined) r[field] = v;
  }
  const code = (x.response?.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (typeof code === 'string') r.errorCode = code;
  if (x.error) r.error = `${x.error.kind}: ${x.error.message}`;
  return r;
}
