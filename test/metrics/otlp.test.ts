/**
 * `--metrics otlp=URL`: a short bounded load run of the real CLI pushes through the OpenTelemetry SDK's
 * OTLP/HTTP protobuf exporter to a local receiver, which decodes every export with the official OTLP
 * definitions. The request durations arrive as cumulative exponential histograms whose counts per route
 * class × status family equal the run's JSON results exactly, and whose buckets hold the run's percentile.
 */
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { smallBudgetTarget } from './support/small-budgets.js';
import { metricsErrorsOf } from './support/push-warnings.js';
import { Results } from '../../src/results/schema.js';
import { LABELS, METRICS } from '../../src/metrics/names.js';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver.js';
import { OtlpSink } from '../../src/metrics/otlp.js';
import { metricsSnapshot } from '../../src/metrics/model.js';
import { parseMetricsValue } from '../../src/metrics/options.js';
import { GET, POST, TestFold } from './support/fold.js';

/** Reads and writes at full speed on two connections each: against small budgets both classes get 2xx and 429 series. */
const MIXED = join(import.meta.dirname, 'fixtures/mixed-closed.json');

interface KeyValue {
  key: string;
  value: { stringValue?: string };
}
interface ExpPoint {
  attributes: KeyValue[];
  count: number;
  sum?: number;
  scale: number;
  zeroCount?: number;
  positive?: { offset?: number; bucketCounts?: number[] };
  negative?: { offset?: number; bucketCounts?: number[] };
}
interface NumberPoint {
  attributes: KeyValue[];
  asInt?: number;
  asDouble?: number;
}
interface Metric {
  name: string;
  unit?: string;
  exponentialHistogram?: { dataPoints: ExpPoint[]; aggregationTemporality: string };
  histogram?: unknown;
  sum?: { dataPoints: NumberPoint[]; aggregationTemporality: string; isMonotonic?: boolean };
  gauge?: { dataPoints: NumberPoint[] };
}

function metricsOf(req: Record<string, unknown>): Metric[] {
  const rm = (req.resourceMetrics ?? []) as { scopeMetrics?: { metrics?: Metric[] }[] }[];
  return rm.flatMap((r) => (r.scopeMetrics ?? []).flatMap((s) => s.metrics ?? []));
}

const attr = (p: { attributes: KeyValue[] }, key: string): string | undefined => p.attributes.find((a) => a.key === key)?.value.stringValue;
const value = (p: NumberPoint): number => p.asInt ?? p.asDouble ?? NaN;

/** The value at quantile q of an exponential histogram point: the bucket holding it, as [lower, upper]. */
function bucketOfQuantile(p: ExpPoint, q: number): [number, number] {
  const rank = Math.ceil(q * p.count);
  let acc = p.zeroCount ?? 0;
  if (acc >= rank) return [0, 0];
  const base = 2 ** (2 ** -p.scale);
  const counts = p.positive?.bucketCounts ?? [];
  for (let i = 0; i < counts.length; i++) {
    acc += counts[i]!;
    const index = (p.positive?.offset ?? 0) + i;
    if (acc >= rank) return [base ** index, base ** (index + 1)];
  }
  throw new Error('rank beyond the buckets');
}

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('--metrics otlp=URL (OpenTelemetry SDK, OTLP/HTTP protobuf)', () => {
  it('exports exponential histograms whose counts equal the JSON results exactly', async () => {
    receiver = await startOtlpReceiver();
    const small = await smallBudgetTarget();
    onTestFinished(() => small.server.close());
    const dir = mkdtempSync(join(tmpdir(), 'spgate-otlp-'));
    const json = join(dir, 'r.json');
    const runId = `otlp-${Date.now()}`;
    const r = await runCli(
      [
        'load',
        '--profile',
        MIXED,
        '--target',
        small.path,
        '--duration',
        '3',
        '--json',
        json,
        '--metrics',
        `otlp=${receiver.url}`,
        '--metrics-interval',
        '1',
        '--run-id',
        runId,
      ],
      { timeoutMs: 60_000 },
    );
    // A periodic push answered late is warned once and allowed (support/push-warnings.ts); no other error.
    expect(metricsErrorsOf(r.stderr)).toEqual([]);
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    // The exit code is the run's verdict (a loaded machine may breach a latency threshold; not what is tested here).
    expect(r.code, r.stderr).toBe(doc.verdict === 'passed' ? 0 : 1);
    const p = doc.load[0]!;

    // Pushed every interval and once at the end, as OTLP/HTTP protobuf.
    expect(receiver.requests.length).toBeGreaterThanOrEqual(2);
    for (const s of receiver.seen) expect(s).toEqual({ path: '/v1/metrics', contentType: 'application/x-protobuf' });

    // Cumulative: the last export holds the whole run.
    const metrics = metricsOf(receiver.requests.at(-1)!);
    const byName = new Map(metrics.map((m) => [m.name, m]));
    const duration = byName.get(METRICS.requestDuration.otel)!;
    expect(duration.unit).toBe('s');
    expect(duration.histogram).toBeUndefined();
    expect(duration.exponentialHistogram!.aggregationTemporality).toBe('AGGREGATION_TEMPORALITY_CUMULATIVE');
    const points = duration.exponentialHistogram!.dataPoints;
    const counts: Record<string, number> = {};
    // The run's labels are on the resource (one per profile run), the series' own on each point.
    const resources = (receiver.requests.at(-1)!.resourceMetrics as { resource: { attributes: KeyValue[] } }[]).map((x) => x.resource);
    expect(resources).toHaveLength(1);
    expect(attr(resources[0]!, LABELS.runId.otel)).toBe(runId);
    expect(attr(resources[0]!, LABELS.profile.otel)).toBe('metrics-mixed');
    expect(attr(resources[0]!, LABELS.shard.otel)).toBe('0/1');
    expect(attr(resources[0]!, 'service.name')).toBe('spgate');
    for (const dp of points) {
      expect(attr(dp, LABELS.method.otel)).toMatch(/^(GET|POST|PUT|DELETE|PATCH)$/);
      const buckets = [...(dp.positive?.bucketCounts ?? []), ...(dp.negative?.bucketCounts ?? [])].reduce((a, b) => a + b, 0);
      expect((dp.zeroCount ?? 0) + buckets).toBe(dp.count);
      const k = `${attr(dp, LABELS.routeClass.otel)}|${attr(dp, LABELS.statusFamily.otel)}`;
      counts[k] = (counts[k] ?? 0) + dp.count;
    }
    const expected = Object.fromEntries(p.latency.filter((l) => !l.corrected).map((l) => [`${l.class}|${l.family}`, l.count]));
    expect(expected['write|429']).toBeGreaterThan(0);
    expect(expected['read|429']).toBeGreaterThan(0);
    expect(counts).toEqual(expected);

    // The run's own p95 lies in the bucket the exported histogram puts its p95 in (one route per class here).
    for (const cls of ['read', 'write'] as const) {
      const dp = points.filter((x) => attr(x, LABELS.routeClass.otel) === cls && attr(x, LABELS.statusFamily.otel) === '2xx');
      expect(dp).toHaveLength(1);
      const [lo, hi] = bucketOfQuantile(dp[0]!, 0.95);
      const exact = p.latency.find((l) => l.class === cls && l.family === '2xx' && !l.corrected)!.p95 / 1000;
      expect(exact).toBeGreaterThan(lo * 0.998);
      expect(exact).toBeLessThanOrEqual(hi * 1.002);
    }

    const sent = byName.get(METRICS.sent.otel)!.sum!;
    expect(sent.isMonotonic).toBe(true);
    expect(sent.aggregationTemporality).toBe('AGGREGATION_TEMPORALITY_CUMULATIVE');
    expect(sent.dataPoints.reduce((a, x) => a + value(x), 0)).toBe(p.totals.sent);
    expect(byName.get(METRICS.dropped.otel)!.sum!.dataPoints.reduce((a, x) => a + value(x), 0)).toBe(p.totals.dropped);
    const violations = byName.get(METRICS.violations.otel)!.gauge!.dataPoints;
    expect(violations.map(value)).toEqual([doc.findings.filter((f) => f.clause.startsWith('8.ratelimit')).length]);
    const remaining = byName.get(METRICS.remaining.otel)!.gauge!.dataPoints;
    expect(remaining.map((x) => `${attr(x, LABELS.routeClass.otel)}|${attr(x, LABELS.keyRole.otel)}`).sort()).toEqual([
      'read|admin',
      'write|admin',
    ]);
    expect(byName.get(METRICS.eventLoopDelay.otel)!.gauge!.dataPoints).toHaveLength(1);
  });

  it('keeps bounded state: 200,000 responses make one point per series, with at most 160 buckets each', async () => {
    receiver = await startOtlpReceiver();
    const sink = new OtlpSink(parseMetricsValue(`otlp=${receiver.url}`), { runId: 'flat', profile: 'p', shard: '0/1' }, 5000);
    const routes = [GET, POST];
    const fold = new TestFold();
    const n = 200_000;
    // Latencies spread over five orders of magnitude (0.05 ms … 5 s).
    for (let i = 0; i < n; i++) fold.add(routes[i & 1]!, 0.05 * 10 ** (((i * 7919) % 100_000) / 20_000), i % 5 === 0 ? 429 : 200);
    await sink.push(
      metricsSnapshot(fold.snapshot(), { sent: { read: n / 2, write: n / 2 }, dropped: { read: 0, write: 0 } }, {}, Date.now()),
      Date.now() + 5000,
    );
    await sink.close();
    const points = metricsOf(receiver.requests.at(-1)!).find((m) => m.name === METRICS.requestDuration.otel)!.exponentialHistogram!
      .dataPoints;
    expect(points).toHaveLength(4);
    expect(points.reduce((a, p) => a + p.count, 0)).toBe(n);
    for (const p of points) expect((p.positive?.bucketCounts ?? []).length).toBeLessThanOrEqual(160);
  });
});
