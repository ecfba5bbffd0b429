/** Timing fidelity of a replay: how late each request went out against its schedule, as percentiles. Pure. */

export interface Fidelity {
  /** Requests measured. */
  count: number;
  /** Send-time error in ms (actual − scheduled; a request is never sent early, so ≥ 0 in practice). */
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of the send-time errors (absolute values), rounded to 0.1 ms. */
export function fidelityOf(errors: readonly number[]): Fidelity {
  const sorted = errors.map((e) => Math.abs(e)).sort((a, b) => a - b);
  const at = (q: number): number => {
    if (sorted.length === 0) return 0;
    const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
    return Math.round(sorted[i]! * 10) / 10;
  };
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
}

/** "send-time error p50 0.4 ms, p95 1.2 ms, p99 2.0 ms, max 3.1 ms (120 requests)". */
export function formatFidelity(f: Fidelity): string {
  return `send-time error p50 ${f.p50} ms, p95 ${f.p95} ms, p99 ${f.p99} ms, max ${f.max} ms (${f.count} requests)`;
}
