/**
 * A realistic synthetic Results generator for reporter tests: checks of every status, findings with
 * exchanges and reproductions, two load profiles with real HDR histograms, timelines with 429s and
 * RateLimit-Remaining, violations, thresholds, and hostile server-provided strings everywhere text is shown.
 */
import * as hdr from 'hdr-histogram-js';
import { CLAUSES } from '../../src/spec/clauses.js';
import { buildResults } from '../../src/results/build.js';
import type { CheckResult, LatencySummary, ProfileResult, Results, TimelinePoint } from '../../src/results/schema.js';
import type { Finding } from '../../src/checks/finding.js';
import type { Exchange } from '../../src/client/exchange.js';
import { prng } from '../support/prng.js';

export const HOSTILE = '</script><img src=x onerror=alert(1)>';
export const HOSTILE_2 = `"'><svg onload=alert(2)>&amp;\u0007|*_[x](javascript:alert(3))`;

function exchange(id: string, status: number, body: string, extraHeaders: Record<string, string> = {}): Exchange {
  return {
    id,
    request: {
      method: 'GET',
      url: `http://127.0.0.1:4010/v1/customers?cursor=${encodeURIComponent(HOSTILE)}`,
      headers: { authorization: 'Bearer [redacted]', 'x-note': HOSTILE_2 },
      bodyBytes: 0,
      keyRole: 'admin',
    },
    response: {
      status,
      headers: {
        'content-type': 'application/json',
        'x-request-id': 'req_1',
        'ratelimit-limit': '50',
        'ratelimit-remaining': '3',
        'ratelimit-reset': '7',
        ...extraHeaders,
      },
      body,
      bodyBytes: body.length,
      json: JSON.parse(body) as unknown,
    },
    timings: { start: 1_790_000_000_000, headers: 3.2, total: 4.1 },
  };
}

function latency(cls: 'read' | 'write', family: '2xx' | '429', median: number, rand: () => number): LatencySummary {
  const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  for (let i = 0; i < 4000; i++) {
    const v = median * Math.exp((rand() - 0.5) * 1.2 + (rand() < 0.02 ? 2.5 * rand() : 0));
    h.recordValue(Math.max(1, Math.round(v * 1000)));
  }
  const at = (p: number): number => h.getValueAtPercentile(p) / 1000;
  const curve: Array<[number, number]> = [];
  for (let k = 0; k <= 14; k++) {
    const p = 100 * (1 - Math.pow(0.5, k));
    curve.push([p, at(p)]);
  }
  curve.push([100, h.maxValue / 1000]);
  const summary: LatencySummary = {
    class: cls,
    family,
    corrected: true,
    count: h.totalCount,
    min: h.minNonZeroValue / 1000,
    mean: h.mean / 1000,
    max: h.maxValue / 1000,
    p50: at(50),
    p90: at(90),
    p95: at(95),
    p99: at(99),
    p999: at(99.9),
    curve,
    hdr: hdr.encodeIntoCompressedBase64(h),
  };
  h.destroy();
  return summary;
}

function timeline(
  seconds: number,
  classes: Array<'read' | 'write'>,
  limit: number,
  window: number,
  rps: number,
  rand: () => number,
): TimelinePoint[] {
  const points: TimelinePoint[] = [];
  const used = { read: 0, write: 0 };
  for (let t = 0; t < seconds; t++) {
    if (t % window === 0) {
      used.read = 0;
      used.write = 0;
    }
    const rateLimit: TimelinePoint['rateLimit'] = {};
    const refused = { read: 0, write: 0 };
    let ok = 0;
    for (const c of classes) {
      const want = Math.round(rps / classes.length);
      const admit = Math.max(0, Math.min(want, limit - used[c]));
      used[c] += admit;
      refused[c] = want - admit;
      ok += admit;
      rateLimit[c] = { limit, remaining: limit - used[c], reset: window - (t % window) };
    }
    const sent = ok + refused.read + refused.write;
    points.push({
      t,
      sent,
      completed: sent,
      dropped: t === 7 ? 2 : 0,
      byFamily: { '2xx': ok, '429': refused.read + refused.write, ...(t === 11 ? { other: 1 } : {}) },
      p50: 4 + rand() * 2,
      p95: 9 + rand() * 4,
      p99: 15 + rand() * 10,
      rateLimit,
      refused,
    });
  }
  return points;
}

function profile(name: string, classes: Array<'read' | 'write'>, rand: () => number, withViolation: boolean): ProfileResult {
  const tl = timeline(30, classes, 50, 10, 80, rand);
  const sum = (f: (p: TimelinePoint) => number): number => tl.reduce((a, p) => a + f(p), 0);
  const refused = { read: sum((p) => p.refused.read), write: sum((p) => p.refused.write) };
  const admitted = sum((p) => p.byFamily['2xx'] ?? 0);
  return {
    name,
    description: `${name} profile — ${HOSTILE}`,
    model: name === 'smoke' ? 'closed' : 'open',
    startedAt: '2026-11-20T23:20:00.000Z',
    durationMs: 30_000,
    config: { rate: 80, duration: 30, connections: 8, routes: ['/customers', HOSTILE] },
    totals: {
      sent: sum((p) => p.sent),
      completed: sum((p) => p.completed),
      dropped: sum((p) => p.dropped),
      errors: 1,
      byStatus: { '200': admitted, '429': refused.read + refused.write, '500': 1 },
      byClass: {
        read: classes.includes('read') ? sum((p) => p.sent) / classes.length : 0,
        write: classes.includes('write') ? sum((p) => p.sent) / classes.length : 0,
      },
    },
    throughput: { meanRps: sum((p) => p.completed) / 30, peakRps: 80 },
    latency: classes.flatMap((c) => [latency(c, '2xx', c === 'read' ? 5 : 12, rand), latency(c, '429', 2, rand)]),
    timeline: tl,
    thresholds: [
      { expression: 'p99 < 250', ok: true, actual: '23.1 ms' },
      { expression: 'errors == 0', ok: !withViolation, actual: withViolation ? `1 (${HOSTILE})` : '0' },
    ],
    rateLimit: {
      classes: classes.map((c) => ({
        class: c,
        samples: 1200,
        admitted: 150,
        refused: refused[c],
        observedLimit: 50,
        limitConstant: true,
        windowSeconds: 10,
        model: 'fixed-window' as const,
        windows: [0, 1, 2].map((i) => ({ start: i * 10_000, end: (i + 1) * 10_000, admitted: 50, refused: Math.round(refused[c] / 3) })),
        explanation: `Remaining fell from 49 to 0 and refilled every 10 s. Server said: ${HOSTILE}`,
      })),
      violations: withViolation
        ? [
            {
              rule: '8.ratelimit.over-admission',
              class: classes[0],
              message: `55 admitted in a window of budget 50 ${HOSTILE}`,
              window: { start: 10_000, end: 20_000 },
              samples: [{ t: 10_050, status: 200, requestId: 'req_abc', class: classes[0] }],
            },
            { rule: '8.ratelimit.retry-after', message: 'a 429 without Retry-After', samples: [{ t: 12_000, status: 429 }] },
          ]
        : [],
    },
    status: withViolation ? 'failed' : 'passed',
  };
}

export interface FixtureOptions {
  seed?: number;
  /** Produce a clean run (no failures). */
  clean?: boolean;
}

/** A realistic Results document for reporter tests. */
export function makeResults(opts: FixtureOptions = {}): Results {
  const rand = prng(opts.seed ?? 7);
  const statuses: CheckResult['status'][] = opts.clean
    ? ['passed', 'passed', 'skipped']
    : ['passed', 'failed', 'warned', 'skipped', 'error', 'passed'];
  const checks: CheckResult[] = [];
  const findings: Finding[] = [];
  const exchanges: Exchange[] = [];
  CLAUSES.forEach((cl, i) => {
    const status = statuses[i % statuses.length]!;
    const suite = cl.id.startsWith('8.')
      ? 'limits'
      : cl.id.startsWith('5.')
        ? 'auth'
        : cl.id.split('.')[0] === '4'
          ? 'endpoints'
          : `part-${cl.id.split('.')[0]}`;
    const checkId = `${suite}.${cl.id.replace(/^[0-9.]+/, '') || 'check'}-${i}`;
    const nFind = status === 'failed' ? 2 : status === 'warned' ? 1 : 0;
    checks.push({
      checkId,
      clause: cl.id,
      basis: cl.basis,
      suite,
      title: cl.summary,
      status,
      ...(status === 'skipped'
        ? { reason: 'needs role helpDelegated' }
        : status === 'error'
          ? { reason: `fixture setup failed: ${HOSTILE}` }
          : {}),
      cases: status === 'skipped' ? 0 : 50,
      findings: nFind,
      durationMs: 12 + i,
    });
    for (let k = 0; k < nFind; k++) {
      const id = `x${exchanges.length + 1}`;
      exchanges.push(
        exchange(id, 200, JSON.stringify({ error: { code: 'oops', message: HOSTILE, requestId: 'req_1' } }), { 'x-evil': HOSTILE }),
      );
      findings.push({
        checkId,
        clause: cl.id,
        basis: cl.basis,
        severity: status === 'warned' ? 'warning' : 'error',
        title: cl.summary,
        expected: 'HTTP 400 with error.code request.invalid_cursor',
        actual: `HTTP 200 — body says ${HOSTILE} ${HOSTILE_2}`,
        exchangeIds: [id],
        reproduction: {
          seed: 42,
          path: '0:1:3',
          curl: [`curl -sS -H "Authorization: Bearer $SPGATE_API_KEY" 'http://127.0.0.1:4010/v1/customers?cursor=${HOSTILE}'`],
          command: 'spgate conformance --suite pagination --seed 42',
        },
        source: suite,
      });
    }
  });
  const load = opts.clean
    ? [profile('smoke', ['read'], rand, false)]
    : [profile('read-budget', ['read'], rand, true), profile('class-isolation', ['read', 'write'], rand, false)];
  return buildResults({
    command: 'spgate run --seed 42',
    target: { name: `embedded ${HOSTILE}`, baseUrl: 'http://127.0.0.1:4010/v1', embedded: true },
    seed: 42,
    runs: 50,
    startedAt: new Date('2026-11-20T23:19:00.000Z'),
    finishedAt: new Date('2026-11-20T23:21:10.000Z'),
    aborted: false,
    checks,
    findings,
    exchanges: [...exchanges, exchange('x999', 200, '{"unused":true}')],
    load,
    errors: [],
    environment: { node: 'v20.19.0', platform: 'Linux 6.1', arch: 'x64', cpus: 2, hostname: `ci-${HOSTILE}` },
  });
}
