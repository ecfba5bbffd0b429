/**
 * The Prometheus remote write 1.0 encoder: a snapshot becomes a protobuf `prometheus.WriteRequest`, Snappy
 * block-compressed, with one sample per series at the snapshot's time. Counters and histogram buckets are
 * cumulative since the profile started, so any push that arrives is the whole truth up to its time, a
 * lost one costs nothing but resolution, and shards add up (`sum by (le)` before histogram_quantile).
 * Label names are sorted within each series, as the protocol requires. The `le` buckets are derived from the
 * fold's HDR histograms (buckets.ts states the error bound: 0.1 % at a bucket bound). Pure.
 */
import protobuf from 'protobufjs';
import { compress } from 'snappyjs';
import { DURATION_BUCKETS, JOB, LABELS, METRICS, type LabelKey, type MetricName } from './names.js';
import type { MetricsSnapshot } from './model.js';
import { leBuckets } from './buckets.js';
import { ROUTE_CLASSES } from '../spec/routes.js';

/**
 * The messages of the remote write 1.0 protocol, with the field numbers of Prometheus's prompb/types.proto
 * and prompb/remote.proto (the gogoproto options those carry change nothing on the wire).
 */
const PROTO = `
syntax = "proto3";
package prometheus;
message WriteRequest {
  repeated TimeSeries timeseries = 1;
  repeated MetricMetadata metadata = 3;
}
message MetricMetadata {
  enum MetricType {
    UNKNOWN = 0; COUNTER = 1; GAUGE = 2; HISTOGRAM = 3; GAUGEHISTOGRAM = 4; SUMMARY = 5; INFO = 6; STATESET = 7;
  }
  MetricType type = 1;
  string metric_family_name = 2;
  string help = 4;
  string unit = 5;
}
message Sample {
  double value = 1;
  int64 timestamp = 2;
}
message Label {
  string name = 1;
  string value = 2;
}
message TimeSeries {
  repeated Label labels = 1;
  repeated Sample samples = 2;
}
`;

const WriteRequest = protobuf.parse(PROTO, { keepCase: true }).root.lookupType('prometheus.WriteRequest');

/** The headers of a remote write 1.0 request. */
export const REMOTE_WRITE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Encoding': 'snappy',
  'Content-Type': 'application/x-protobuf',
  'X-Prometheus-Remote-Write-Version': '0.1.0',
};

/** Which run, profile and shard wrote the series. */
export type RunLabels = Record<'runId' | 'profile' | 'shard', string>;

interface Label {
  name: string;
  value: string;
}

interface Series {
  labels: Label[];
  samples: { value: number; timestamp: number }[];
}

/** A bucket bound as Prometheus writes `le` (Go's shortest float formatting: 0.005, 1, 2.5, +Inf). */
export function leOf(bound: number): string {
  return bound === Infinity ? '+Inf' : String(bound);
}

/** The series of one snapshot, label names sorted (exported for the tests). */
export function seriesOf(s: MetricsSnapshot, run: RunLabels): Series[] {
  const out: Series[] = [];
  const base: Label[] = [
    { name: 'job', value: JOB },
    ...(['runId', 'profile', 'shard'] as const).map((k) => ({ name: LABELS[k].prom, value: run[k] })),
  ];
  const push = (name: string, labels: Partial<Record<LabelKey, string>>, value: number, extra: Label[] = []): void => {
    const all = [
      { name: '__name__', value: name },
      ...base,
      ...extra,
      ...Object.entries(labels).map(([k, v]) => ({ name: LABELS[k as LabelKey].prom, value: v! })),
    ];
    all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    out.push({ labels: all, samples: [{ value, timestamp: Math.round(s.at) }] });
  };
  const d = METRICS.requestDuration.prom;
  for (const r of s.requests) {
    const labels = { method: r.method, routeClass: r.class, statusFamily: r.family };
    const buckets = leBuckets(r, DURATION_BUCKETS);
    DURATION_BUCKETS.forEach((b, i) => push(`${d}_bucket`, labels, buckets[i]!, [{ name: 'le', value: leOf(b) }]));
    push(`${d}_bucket`, labels, r.count, [{ name: 'le', value: leOf(Infinity) }]);
    push(`${d}_sum`, labels, r.sum);
    push(`${d}_count`, labels, r.count);
  }
  for (const cls of ROUTE_CLASSES) {
    push(METRICS.sent.prom, { routeClass: cls }, s.sent[cls]);
    push(METRICS.dropped.prom, { routeClass: cls }, s.dropped[cls]);
  }
  for (const g of s.remaining) push(METRICS.remaining.prom, { routeClass: g.class, keyRole: g.keyRole }, g.value);
  if (s.violations !== undefined) push(METRICS.violations.prom, {}, s.violations);
  if (s.lag.eventLoopDelayMax !== undefined) push(METRICS.eventLoopDelay.prom, {}, s.lag.eventLoopDelayMax);
  if (s.lag.sendSlipMax !== undefined) push(METRICS.sendSlip.prom, {}, s.lag.sendSlipMax);
  return out;
}

const TYPE = { histogram: 3, counter: 1, gauge: 2 } as const;

/** The metric families' metadata (type, help, unit), sent with every request. */
function metadata(): { type: number; metric_family_name: string; help: string; unit: string }[] {
  return Object.values(METRICS).map((m: MetricName) => ({
    type: TYPE[m.kind],
    // A counter's family is named without `_total` (as Prometheus's own remote write sends it).
    metric_family_name: m.kind === 'counter' ? m.prom.replace(/_total$/, '') : m.prom,
    help: m.help,
    unit: m.unit === 's' ? 'seconds' : '',
  }));
}

/** The body of one remote write request: the snapshot's series as a Snappy-compressed WriteRequest. */
export function encodeWriteRequest(s: MetricsSnapshot, run: RunLabels): Uint8Array {
  const msg = WriteRequest.fromObject({ timeseries: seriesOf(s, run), metadata: metadata() });
  return compress(WriteRequest.encode(msg).finish());
}
