/**
 * The latency a trace record stands for, in the view a single-process run's timeline and capacity judge
 * use (src/load/aggregate.ts: the corrected latency in the open model, from the send in the closed model).
 * Pure; the merge of shards reads its records through it.
 */
import type { TraceRecord } from './record.js';

/**
 * From the intended send time when the record carries one (coordinated-omission corrected, as
 * load/samples.ts correctedLatencyOf: received − intended), else from the actual send. A record without
 * `intended` (closed model, a send exactly on time, older traces, other tools) is its `latency`.
 */
export function traceLatency(r: TraceRecord): number {
  return r.intended === undefined ? r.latency : r.t + r.latency - r.intended;
}
