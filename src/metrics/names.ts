/**
 * The names of every live metric and label spgate writes, once: the OpenTelemetry name and unit (the HTTP
 * client semantic conventions where one exists: `http.client.request.duration`, seconds,
 * `http.request.method`) and the Prometheus form the remote-write encoder writes (the OpenTelemetry →
 * Prometheus translation: dots become underscores, the unit `s` adds `_seconds`, counters add `_total`,
 * histograms write `_bucket`, `_sum` and `_count`). The encoders, the docs and the dashboard test read
 * this table; nothing else spells a metric name.
 */

export type MetricKind = 'histogram' | 'counter' | 'gauge';

export interface MetricName {
  /** OpenTelemetry instrument name. */
  otel: string;
  /** Prometheus metric family name (before the `_bucket`/`_sum`/`_count` series of a histogram). */
  prom: string;
  /** UCUM unit, as OpenTelemetry writes it. */
  unit: string;
  kind: MetricKind;
  /** Labels besides the run's own (run id, profile, shard), by their key in LABELS. */
  labels: readonly LabelKey[];
  help: string;
}

/** The labels: OpenTelemetry attribute name and Prometheus label name. */
export const LABELS = {
  method: { otel: 'http.request.method', prom: 'http_request_method' },
  routeClass: { otel: 'spgate.route_class', prom: 'spgate_route_class' },
  statusFamily: { otel: 'spgate.status_family', prom: 'spgate_status_family' },
  keyRole: { otel: 'spgate.key_role', prom: 'spgate_key_role' },
  runId: { otel: 'spgate.run_id', prom: 'spgate_run_id' },
  profile: { otel: 'spgate.profile', prom: 'spgate_profile' },
  shard: { otel: 'spgate.shard', prom: 'spgate_shard' },
} as const;

export type LabelKey = keyof typeof LABELS;

/** The labels every series carries: which run, profile and shard wrote it. */
export const RUN_LABELS: readonly LabelKey[] = ['runId', 'profile', 'shard'];

/** The Prometheus `job` label of every pushed series. */
export const JOB = 'spgate';

/**
 * Upper bounds (seconds) of the request-duration buckets: OpenTelemetry's advised boundaries for
 * http.client.request.duration (5 ms … 10 s), with 0.5, 1 and 2.5 ms below them (a loopback target answers
 * in well under 5 ms) and 30 and 60 s above (the engines' timeouts). Cumulative, as Prometheus's `le`.
 */
export const DURATION_BUCKETS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60,
];

export const METRICS = {
  requestDuration: {
    otel: 'http.client.request.duration',
    prom: 'http_client_request_duration_seconds',
    unit: 's',
    kind: 'histogram',
    labels: ['method', 'routeClass', 'statusFamily'],
    help: 'Duration of the load run\'s HTTP requests, from the actual send to the response (transport failures: family "error")',
  },
  sent: {
    otel: 'spgate.requests.sent',
    prom: 'spgate_requests_sent_total',
    unit: '{request}',
    kind: 'counter',
    labels: ['routeClass'],
    help: 'Requests sent by the load generator',
  },
  dropped: {
    otel: 'spgate.arrivals.dropped',
    prom: 'spgate_arrivals_dropped_total',
    unit: '{request}',
    kind: 'counter',
    labels: ['routeClass'],
    help: 'Arrivals of the open model that could not be sent on time (no free connection)',
  },
  remaining: {
    otel: 'spgate.ratelimit.remaining',
    prom: 'spgate_ratelimit_remaining',
    unit: '{request}',
    kind: 'gauge',
    labels: ['routeClass', 'keyRole'],
    help: 'The last RateLimit-Remaining header value seen (an integer), per route class and key role',
  },
  violations: {
    otel: 'spgate.ratelimit.violations',
    prom: 'spgate_ratelimit_violations',
    unit: '{finding}',
    kind: 'gauge',
    labels: [],
    help: 'Rate-limit findings of the profile (what the ratelimit.violations threshold counts); written with the final push',
  },
  eventLoopDelay: {
    otel: 'spgate.generator.event_loop.delay',
    prom: 'spgate_generator_event_loop_delay_seconds',
    unit: 's',
    kind: 'gauge',
    labels: [],
    help: 'The largest event-loop delay of the generating process since the previous push',
  },
  sendSlip: {
    otel: 'spgate.generator.send_slip',
    prom: 'spgate_generator_send_slip_seconds',
    unit: 's',
    kind: 'gauge',
    labels: [],
    help: 'The largest delay of a send behind its intended time since the previous push (when the engine measures it)',
  },
} as const satisfies Record<string, MetricName>;

export type MetricKey = keyof typeof METRICS;

/** Every Prometheus series name the remote-write encoder can write (a histogram's three, a counter's one…). */
export function promSeriesNames(): string[] {
  return Object.values(METRICS).flatMap((m: MetricName) =>
    m.kind === 'histogram' ? [`${m.prom}_bucket`, `${m.prom}_sum`, `${m.prom}_count`] : [m.prom],
  );
}

/** Every Prometheus label name a pushed series can carry (`le` of histogram buckets and `job` included). */
export function promLabelNames(): string[] {
  return ['__name__', 'job', 'le', ...Object.values(LABELS).map((l) => l.prom)];
}
