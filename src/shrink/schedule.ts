/**
 * A schedule: the sends of a trace (offset, class, method, route template, key role), without responses.
 * Shrink works on schedules; each attempt turns one back into a trace by replaying it. Pure.
 */
import type { TraceRecord } from '../trace/record.js';

export type Send = Pick<TraceRecord, 't' | 'class' | 'method' | 'path' | 'key'>;

/** The sends of a trace, sorted and shifted so the first goes at offset 0; transport failures included (they were sent). */
export function scheduleOf(records: readonly TraceRecord[]): Send[] {
  const sorted = [...records].sort((a, b) => a.t - b.t);
  const t0 = sorted[0]?.t ?? 0;
  return sorted.map((r) => ({
    t: round(r.t - t0),
    class: r.class,
    method: r.method,
    path: r.path,
    ...(r.key !== undefined ? { key: r.key } : {}),
  }));
}

/** The schedule as replayable trace records (no responses yet: latency 0, status 0). */
export function asRecords(s: readonly Send[]): TraceRecord[] {
  return s.map((x) => ({ ...x, latency: 0, status: 0 }));
}

/** Milliseconds from the first send to the last. */
export function spanMs(s: readonly Send[]): number {
  return s.length === 0 ? 0 : s[s.length - 1]!.t - s[0]!.t;
}

/** A stable identity, so the search never tries one schedule twice. */
export function scheduleKey(s: readonly Send[]): string {
  return s.map((x) => `${x.t}|${x.method}|${x.path}|${x.key ?? ''}`).join(';');
}

/** Shifts a schedule so its first send is at 0. */
export function rebase(s: readonly Send[]): Send[] {
  const t0 = s[0]?.t ?? 0;
  return s.map((x) => ({ ...x, t: round(x.t - t0) }));
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
