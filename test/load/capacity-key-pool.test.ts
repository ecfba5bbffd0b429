/**
 * The knee behind a per-key rate limiter (issue 31): a station of known capacity (4 served at a time, 10 ms
 * each: 400/s) behind rate-limiter-flexible's fixed window of 100 requests a second per API key. With one key
 * a capacity ramp measures the key's admission budget, and must say so; with a pool of 8 keys (800/s
 * combined) the same ramp passes the knee and reports the station's capacity, within the tolerance the
 * station tests use (at most 5 % above nominal, at most 15 % below what the station realized), with every
 * key's budget judged on its own responses: no rate-limit violation, one analysed budget per key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { startStation, type Station } from './support/station.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { readTrace } from '../../src/trace/reader.js';
import { traceToSamples } from '../../src/trace/samples.js';

const PER_KEY = { limit: 100, windowSeconds: 1 };

let station: Station | undefined;
afterEach(async () => {
  await station?.close();
  station = undefined;
});

/**
 * The capacity profile's shape, shortened: a quarter of the capacity to twice it in 6 s, spread over the pool.
 * `p95Ms`: the SLO; the knee runs use the station tests' 500 ms, which the queue past the knee breaks.
 */
function rampProfile(capacity: number, p95Ms = 500) {
  return parseProfile(
    {
      name: 'capacity-pool',
      description: 'ramp past a known capacity behind a per-key limiter',
      model: 'open',
      duration: 6,
      maxConnections: 64,
      dropAfterMs: 3000,
      keys: 'pool',
      maxRequests: 4000,
      classes: {
        read: { ramp: { start: Math.round(capacity / 4), stages: [{ duration: 6, target: capacity * 2 }] }, routes: [{ route: 'me' }] },
      },
      capacity: { p95Ms, maxErrorPct: 1 },
    },
    'test',
  );
}

describe('capacity behind a per-key limiter: the budget with one key, the knee with a pool', () => {
  it("one key: the figure is the key's admission budget, flagged, with the pool as the way out", async () => {
    station = await startStation(4, 10, PER_KEY);
    // The limiter keeps the station far below its knee: an SLO of 2 s holds even on a machine whose load
    // delays the generator by hundreds of ms (a 500 ms SLO broke in the first second at a load average of 19).
    const { result } = await runProfile({ target: station.target(), profile: rampProfile(station.nominalRps, 2000) });
    const cap = result.capacity!;
    expect(result.totals.byStatus['429'] ?? 0).toBeGreaterThan(0);
    expect(cap.admissionBudget, cap.explanation).toBe(true);
    expect(cap.explanation).toMatch(/^this is the admission budget of the key \(100\/s\), not the server's capacity/);
    expect(cap.remedy).toContain('keys.admin.pool');
    // A fixed window admits at most its limit in each window, so a second holds at most two windows' worth.
    expect(cap.firstBreachAt, cap.explanation).toBeNull();
    expect(cap.rps!).toBeLessThanOrEqual(2 * PER_KEY.limit);
    expect(result.rateLimit.violations, JSON.stringify(result.rateLimit.violations)).toEqual([]);
  }, 30_000);

  it("a pool of 8 keys (800/s combined > 400/s): the station's capacity, not flagged, every key judged on its own", async () => {
    station = await startStation(4, 10, PER_KEY);
    const tracePath = join(mkdtempSync(join(tmpdir(), 'spgate-pool-')), 'trace.ndjson');
    const { result } = await runProfile({ target: station.target(7), profile: rampProfile(station.nominalRps), tracePath });
    const cap = result.capacity!;
    const realized = await station.realizedRps();
    process.stdout.write(
      `pooled station 4×10ms: nominal ${station.nominalRps}, realized ${realized.toFixed(0)}, reported ${cap.rps}, generator ${JSON.stringify(result.generator)} (${cap.explanation})\n`,
    );
    expect(cap.admissionBudget, cap.explanation).toBeUndefined();
    expect(cap.firstBreachAt, cap.explanation).not.toBeNull();
    expect(cap.rps!, cap.explanation).toBeLessThanOrEqual(station.nominalRps * 1.05);
    if (result.generator!.saturated) expect(cap.lowerBound).toBe(true);
    else expect(cap.rps!, `${cap.explanation}; realized ${realized.toFixed(0)}`).toBeGreaterThanOrEqual(realized * 0.85);
    // Per key: 8 budgets of 100 a second, each analysed on its own key's responses, and none broken.
    const keys = result.rateLimit.classes.map((c) => c.key).sort();
    expect(keys).toEqual(['admin', ...Array.from({ length: 7 }, (_v, i) => `admin.pool[${i}]`)].sort());
    for (const c of result.rateLimit.classes) if (c.observedLimit !== null) expect(c.observedLimit).toBe(PER_KEY.limit);
    expect(result.rateLimit.violations, JSON.stringify(result.rateLimit.violations)).toEqual([]);
    expect(result.thresholds.filter((t) => !t.ok)).toEqual([]);
    // config shows the route once, with the keys it was spread over (names, never secrets).
    const routes = (result.config.classes as Array<{ routes: Array<{ route: string; keys?: string[] }> }>)[0]!.routes;
    expect(routes).toHaveLength(1);
    expect(routes[0]!.keys).toHaveLength(8);
    expect(JSON.stringify(result)).not.toContain('pk_test_station');
    // The same responses judged as one key's (the trace's key names dropped to the role) look like one key
    // admitting 8 budgets: the false alarm the per-key analysis exists to avoid.
    const records = await readTrace(tracePath);
    expect(new Set(records.map((r) => r.key)).size).toBe(8);
    const asOneKey = analyzeRateLimits(traceToSamples(records.map((r) => ({ ...r, key: 'admin' }))));
    expect(asOneKey.violations.map((v) => v.rule)).toContain('8.ratelimit.over-admission');
    expect(analyzeRateLimits(traceToSamples(records)).violations).toEqual([]);
  }, 30_000);
});
