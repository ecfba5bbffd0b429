/**
 * Live metrics into a real Prometheus: the test starts Debian's prometheus with its remote-write receiver
 * on a loopback port, runs short bounded load runs of the real CLI against the reference server (small budgets)
 * with `--metrics prometheus-rw=…`, and queries the series back through the HTTP API. The counts per route
 * class × status family must equal the run's JSON results exactly, and a histogram_quantile over the pushed
 * buckets must be answerable and land in the bucket of the run's own percentile — for one process and for
 * two shards summed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { smallBudgetTarget } from './support/small-budgets.js';
import { metricsErrorsOf } from './support/push-warnings.js';
import { need, prometheusPart, PROMETHEUS } from '../support/optional.js';
import { Results, type ProfileResult } from '../../src/results/schema.js';
import { DURATION_BUCKETS, METRICS } from '../../src/metrics/names.js';
import { parseMetricsValue } from '../../src/metrics/options.js';
import { createLiveMetrics } from '../../src/metrics/session.js';
import { runPipeline } from '../../src/run/pipeline.js';
import { createProgress } from '../../src/run/progress.js';
import { startPrometheus, type RunningPrometheus } from './support/prometheus.js';
import { panelQueries, readDashboard, variableQueries } from './dashboard-queries.js';

/** Reads and writes at full speed on two connections each: against small budgets both classes get 2xx and 429 series. */
const MIXED = join(import.meta.dirname, 'fixtures/mixed-closed.json');

const part = prometheusPart();
let prom: RunningPrometheus | undefined;
/** The run of the first test, which the dashboard's queries are run on. */
let first: { runId: string; load: ProfileResult } | undefined;

/** The exit code is the run's verdict (a loaded machine may breach a latency threshold; that is not what is tested here). */
function expectVerdictExit(code: number | null, verdict: string, stderr: string): void {
  expect(code, stderr).toBe(verdict === 'passed' ? 0 : 1);
}

beforeAll(async () => {
  if (part.missing === undefined) prom = await startPrometheus(PROMETHEUS);
});
afterAll(async () => {
  await prom?.stop();
});

const D = METRICS.requestDuration.prom;

/** class|family → count of the run's JSON results (the uncorrected latency views; transport errors as `error`). */
function expectedCounts(p: ProfileResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of p.latency) if (!l.corrected) out[`${l.class}|${l.family}`] = l.count;
  if (p.totals.errors > 0) throw new Error('the run had transport errors; the test expects none');
  return out;
}

async function countsOf(prom: RunningPrometheus, runId: string): Promise<Record<string, number>> {
  const rows = await prom.query(`sum by (spgate_route_class, spgate_status_family) (${D}_count{spgate_run_id="${runId}"})`);
  return Object.fromEntries(rows.map((r) => [`${r.metric.spgate_route_class}|${r.metric.spgate_status_family}`, Number(r.value[1])]));
}

/** The percentile the pushed buckets answer must fall in the bucket holding the run's own (HDR) percentile. */
function expectSameBucket(estimateS: number, exactMs: number): void {
  expect(Number.isFinite(estimateS)).toBe(true);
  const i = DURATION_BUCKETS.findIndex((b) => estimateS <= b);
  const hi = i < 0 ? Infinity : DURATION_BUCKETS[i]!;
  const lo = i <= 0 ? 0 : DURATION_BUCKETS[i - 1]!;
  const exact = exactMs / 1000;
  // HDR values are exact to 3 significant digits: a value on a bound may read 0.1 % either side of it.
  expect(exact, `estimate ${estimateS}s is in (${lo}, ${hi}]`).toBeGreaterThan(lo * 0.998);
  expect(exact).toBeLessThanOrEqual(hi * 1.002);
}

describe('--metrics prometheus-rw into a real Prometheus', () => {
  beforeEach((ctx) => need(ctx, part));

  it('stores counts per class × status family equal to the JSON results, and answers histogram_quantile', async () => {
    const small = await smallBudgetTarget();
    onTestFinished(() => small.server.close());
    const dir = mkdtempSync(join(tmpdir(), 'spgate-prom-'));
    const json = join(dir, 'r.json');
    const runId = `prom-one-${Date.now()}`;
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
        `prometheus-rw=${prom!.writeUrl}`,
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
    expectVerdictExit(r.code, doc.verdict, r.stderr);
    expect(doc.meta.runId).toBe(runId);
    const p = doc.load[0]!;
    first = { runId, load: p };
    const expected = expectedCounts(p);
    // Refusals are part of what is compared: the profile exhausts the write budget.
    expect(expected['write|429']).toBeGreaterThan(0);
    expect(expected['read|429']).toBeGreaterThan(0);
    expect(await countsOf(prom!, runId)).toEqual(expected);

    const sel = `spgate_run_id="${runId}"`;
    const one = async (q: string): Promise<number> => {
      const rows = await prom!.query(q);
      expect(rows, q).toHaveLength(1);
      return Number(rows[0]!.value[1]);
    };
    expect(await one(`sum(${METRICS.sent.prom}{${sel}})`)).toBe(p.totals.sent);
    expect(await one(`sum(${METRICS.dropped.prom}{${sel}})`)).toBe(p.totals.dropped);
    expect(await one(`${METRICS.violations.prom}{${sel}}`)).toBe(doc.findings.filter((f) => f.clause.startsWith('8.ratelimit')).length);
    expect(await one(`sum(${D}_count{${sel}, spgate_status_family="429"})`)).toBe(p.totals.byStatus['429']);
    // Every series carries the run's labels; Remaining is a last-value gauge per class and key role.
    const remaining = await prom!.query(`${METRICS.remaining.prom}{${sel}}`);
    expect(
      remaining
        .map((x) => `${x.metric.spgate_route_class}|${x.metric.spgate_key_role}|${x.metric.spgate_profile}|${x.metric.spgate_shard}`)
        .sort(),
    ).toEqual(['read|admin|metrics-mixed|0/1', 'write|admin|metrics-mixed|0/1']);
    for (const x of remaining) expect(Number.isInteger(Number(x.value[1]))).toBe(true);
    // Pushed every interval, not only at the end.
    expect(await one(`count_over_time(${METRICS.sent.prom}{${sel}, spgate_route_class="read"}[10m])`)).toBeGreaterThanOrEqual(2);

    for (const cls of ['read', 'write'] as const) {
      const est = await one(
        `histogram_quantile(0.95, sum by (le) (${D}_bucket{${sel}, spgate_route_class="${cls}", spgate_status_family="2xx"}))`,
      );
      const exact = p.latency.find((l) => l.class === cls && l.family === '2xx' && !l.corrected)!;
      expectSameBucket(est, exact.p95);
    }
  });

  it('adds up the shards of --workers 2: the sum over shards equals the merged results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-prom-'));
    const json = join(dir, 'r.json');
    const runId = `prom-shards-${Date.now()}`;
    const r = await runCli(
      [
        'load',
        '--profile',
        'smoke',
        '--duration',
        '2',
        '--workers',
        '2',
        '--json',
        json,
        '--metrics',
        `prometheus-rw=${prom!.writeUrl}`,
        '--metrics-interval',
        '1',
        '--run-id',
        runId,
      ],
      { timeoutMs: 90_000 },
    );
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expectVerdictExit(r.code, doc.verdict, r.stderr);
    expect(doc.meta.runId).toBe(runId);
    const shards = await prom!.query(`count by (spgate_shard) (${D}_count{spgate_run_id="${runId}"})`);
    expect(shards.map((s) => s.metric.spgate_shard).sort()).toEqual(['0/2', '1/2']);
    expect(await countsOf(prom!, runId)).toEqual(expectedCounts(doc.load[0]!));
    const est = await prom!.query(
      `histogram_quantile(0.5, sum by (le) (${D}_bucket{spgate_run_id="${runId}", spgate_route_class="read", spgate_status_family="2xx"}))`,
    );
    expect(est).toHaveLength(1);
    expectSameBucket(
      Number(est[0]!.value[1]),
      doc.load[0]!.latency.find((l) => l.class === 'read' && l.family === '2xx' && !l.corrected)!.p50,
    );
  });

  it('spgate run pushes each load phase under its profile label, counts equal to its results', async () => {
    const out = mkdtempSync(join(tmpdir(), 'spgate-prom-run-'));
    const runId = `prom-run-${Date.now()}`;
    const warnings: string[] = [];
    const metrics = await createLiveMetrics({
      endpoints: [parseMetricsValue(`prometheus-rw=${prom!.writeUrl}`)],
      intervalMs: 1000,
      runId,
      shard: '0/1',
      warn: (l) => warnings.push(l),
    });
    const r = await runPipeline({
      seed: 5,
      runs: 3,
      outBase: out,
      command: 'spgate run (test)',
      signal: new AbortController().signal,
      progress: createProgress({ write: () => true }, { live: false }),
      suites: ['errors'],
      profiles: ['smoke', 'write-budget'],
      durationScale: 0.4,
      metrics,
      runId,
    });
    expect(warnings).toEqual([]);
    expect(r.results.meta.runId).toBe(runId);
    expect(r.results.load.map((p) => p.name)).toEqual(['smoke', 'write-budget']);
    for (const p of r.results.load) {
      const rows = await prom!.query(
        `sum by (spgate_route_class, spgate_status_family) (${D}_count{spgate_run_id="${runId}", spgate_profile="${p.name}"})`,
      );
      const got = Object.fromEntries(
        rows.map((x) => [`${x.metric.spgate_route_class}|${x.metric.spgate_status_family}`, Number(x.value[1])]),
      );
      expect(got, p.name).toEqual(expectedCounts(p));
    }
  });

  it('every query of examples/grafana-dashboard.json is PromQL Prometheus runs, and shows the run', async () => {
    expect(first, 'the first test pushed a run').toBeDefined();
    const { runId, load } = first!;
    const fill = (q: string): string =>
      q.replaceAll('$run_id', runId).replaceAll('$profile', '.*').replaceAll('$shard', '.*').replaceAll('$__rate_interval', '1m');
    const d = readDashboard();
    for (const { title, expr } of panelQueries(d)) {
      const rows = await prom!.query(fill(expr));
      // The run had no transport errors, and the engine measures no send slip yet: those panels are empty.
      if (/status_family="error"|send_slip/.test(expr)) continue;
      if (/status_family="429"/.test(expr) && !load.totals.byStatus['429']) continue;
      expect(rows.length, `${title}: ${expr}`).toBeGreaterThan(0);
    }
    // Grafana's label_values(metric, label) is the set of the label's values on the metric's series.
    for (const v of variableQueries(d)) {
      const m = /^label_values\((.+), (\w+)\)$/.exec(v)!;
      const rows = await prom!.query(`count by (${m[2]}) (${fill(m[1]!)})`);
      expect(
        rows.map((r) => r.metric[m[2]!]),
        v,
      ).toContain(m[2] === 'spgate_run_id' ? runId : m[2] === 'spgate_profile' ? 'metrics-mixed' : '0/1');
    }
  });
});
