/**
 * Comparing two runs (the CI gate): new and fixed findings, latency and throughput deltas per profile, and
 * rate-limit changes. Pure: two Results in, one Comparison out; the command decides the exit code from
 * `regressions`.
 */
import type { CheckResult, FindingRecord, LatencySummary, ProfileResult, Results, RouteClass } from './schema.js';

export interface CompareOptions {
  /** A p99 increase above this percentage is a regression. */
  p99RegressionPct: number;
  /** A mean-throughput decrease above this percentage is a regression. */
  throughputRegressionPct: number;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = { p99RegressionPct: 20, throughputRegressionPct: 10 };

export interface FindingDelta {
  key: string;
  finding: FindingRecord;
}

export interface LatencyDelta {
  series: string;
  baseP99: number;
  headP99: number;
  /** Percentage change of p99, null when the base was 0. */
  changePct: number | null;
  regression: boolean;
}

export interface RateLimitDelta {
  class: RouteClass;
  field: 'observedLimit' | 'windowSeconds' | 'model';
  base: string | number | null;
  head: string | number | null;
}

export interface ProfileDelta {
  name: string;
  status: 'compared' | 'only-in-base' | 'only-in-head';
  throughput?: { baseMeanRps: number; headMeanRps: number; changePct: number | null; regression: boolean };
  latency: LatencyDelta[];
  rateLimit: RateLimitDelta[];
  violations?: { base: number; head: number; regression: boolean };
  thresholds?: { newlyBreached: string[]; fixed: string[] };
}

/** A check that reached a verdict in the base run and could not judge in the head run. */
export interface UnjudgedDelta {
  checkId: string;
  suite: string;
  base: CheckResult['status'];
  reason: string;
}

export interface Comparison {
  options: CompareOptions;
  base: { startedAt: string; verdict: Results['verdict']; target: string };
  head: { startedAt: string; verdict: Results['verdict']; target: string };
  newFindings: FindingDelta[];
  fixedFindings: FindingDelta[];
  /** Checks judged in base but inconclusive in head: their findings vanish without being fixed. */
  unjudged: UnjudgedDelta[];
  profiles: ProfileDelta[];
  /** One line per regression; empty means the gate passes. */
  regressions: string[];
}

/** Findings are the same finding when check, clause and source agree (messages may carry ids and times). */
export function findingKey(f: Pick<FindingRecord, 'checkId' | 'clause' | 'source'>): string {
  return `${f.checkId}|${f.clause}|${f.source}`;
}

/** Percentage change from base to head; null when base is 0 (no meaningful ratio). */
export function pctChange(base: number, head: number): number | null {
  if (base === 0) return head === 0 ? 0 : null;
  return ((head - base) / base) * 100;
}

function seriesKey(s: LatencySummary): string {
  return `${s.class} ${s.family}${s.corrected ? '' : ' (uncorrected)'}`;
}

function compareProfile(b: ProfileResult, h: ProfileResult, o: CompareOptions, regressions: string[]): ProfileDelta {
  const tp = pctChange(b.throughput.meanRps, h.throughput.meanRps);
  const tpReg = tp !== null && tp < -o.throughputRegressionPct;
  if (tpReg) regressions.push(`${h.name}: mean throughput fell ${Math.abs(tp).toFixed(1)} % (${b.throughput.meanRps.toFixed(1)} → ${h.throughput.meanRps.toFixed(1)} req/s; allowed ${o.throughputRegressionPct} %)`);
  const latency: LatencyDelta[] = [];
  const baseSeries = new Map(b.latency.filter((s) => s.count > 0).map((s) => [seriesKey(s), s]));
  for (const hs of h.latency.filter((s) => s.count > 0)) {
    const bs = baseSeries.get(seriesKey(hs));
    if (!bs) continue;
    const change = pctChange(bs.p99, hs.p99);
    // Only successful responses gate: a 429's latency says nothing about the service's speed.
    const regression = hs.family === '2xx' && change !== null && change > o.p99RegressionPct;
    if (regression) regressions.push(`${h.name}: p99 of ${seriesKey(hs)} rose ${change.toFixed(1)} % (${bs.p99.toFixed(1)} → ${hs.p99.toFixed(1)} ms; allowed ${o.p99RegressionPct} %)`);
    latency.push({ series: seriesKey(hs), baseP99: bs.p99, headP99: hs.p99, changePct: change, regression });
  }
  const rateLimit: RateLimitDelta[] = [];
  for (const hc of h.rateLimit.classes) {
    const bc = b.rateLimit.classes.find((c) => c.class === hc.class && c.key === hc.key);
    if (!bc) continue;
    for (const field of ['observedLimit', 'windowSeconds', 'model'] as const) {
      if (bc[field] !== hc[field]) rateLimit.push({ class: hc.class, field, base: bc[field], head: hc[field] });
    }
  }
  const vb = b.rateLimit.violations.length;
  const vh = h.rateLimit.violations.length;
  const vReg = vh > vb;
  if (vReg) regressions.push(`${h.name}: rate-limit violations rose from ${vb} to ${vh}`);
  const breached = (p: ProfileResult): Set<string> => new Set(p.thresholds.filter((t) => !t.ok).map((t) => t.expression));
  const bb = breached(b);
  const hb = breached(h);
  const newlyBreached = [...hb].filter((e) => !bb.has(e));
  for (const e of newlyBreached) regressions.push(`${h.name}: threshold ${e} is now breached`);
  return {
    name: h.name,
    status: 'compared',
    throughput: { baseMeanRps: b.throughput.meanRps, headMeanRps: h.throughput.meanRps, changePct: tp, regression: tpReg },
    latency,
    rateLimit,
    violations: { base: vb, head: vh, regression: vReg },
    thresholds: { newlyBreached, fixed: [...bb].filter((e) => !hb.has(e)) },
  };
}

/** Compares head against base. */
export function compareResults(base: Results, head: Results, options: Partial<CompareOptions> = {}): Comparison {
  const o = { ...DEFAULT_COMPARE_OPTIONS, ...options };
  const regressions: string[] = [];
  if (head.verdict === 'aborted' || head.verdict === 'error') regressions.push(`the head run did not complete (verdict ${head.verdict}); its figures are partial`);
  const baseKeys = new Map(base.findings.map((f) => [findingKey(f), f]));
  const headKeys = new Map(head.findings.map((f) => [findingKey(f), f]));
  const newFindings = [...headKeys].filter(([k]) => !baseKeys.has(k)).map(([key, finding]) => ({ key, finding }));
  const fixedFindings = [...baseKeys].filter(([k]) => !headKeys.has(k)).map(([key, finding]) => ({ key, finding }));
  for (const { finding: f } of newFindings) {
    if (f.severity === 'error') regressions.push(`new finding ${f.clause} ${f.checkId} (${f.source}): ${f.title}`);
  }
  const unjudged = lostVerdicts(base, head);
  for (const u of unjudged) regressions.push(`${u.checkId} (${u.suite}) was ${u.base} in base and could not judge in head: ${u.reason}`);
  const profiles: ProfileDelta[] = [];
  for (const h of head.load) {
    const b = base.load.find((p) => p.name === h.name);
    profiles.push(b ? compareProfile(b, h, o, regressions) : { name: h.name, status: 'only-in-head', latency: [], rateLimit: [] });
  }
  for (const b of base.load) {
    if (!head.load.some((p) => p.name === b.name)) profiles.push({ name: b.name, status: 'only-in-base', latency: [], rateLimit: [] });
  }
  const side = (r: Results) => ({ startedAt: r.meta.startedAt, verdict: r.verdict, target: `${r.meta.target.name} (${r.meta.target.baseUrl})` });
  return { options: o, base: side(base), head: side(head), newFindings, fixedFindings, unjudged, profiles, regressions };
}

const JUDGED = new Set<CheckResult['status']>(['passed', 'failed', 'warned']);

/** Checks with a verdict in base that are inconclusive in head (a gate must not count them as fixed). */
function lostVerdicts(base: Results, head: Results): UnjudgedDelta[] {
  const before = new Map(base.checks.map((c) => [`${c.suite}\u0000${c.checkId}`, c]));
  return head.checks.flatMap((h) => {
    const b = before.get(`${h.suite}\u0000${h.checkId}`);
    return b && JUDGED.has(b.status) && h.status === 'inconclusive' ? [{ checkId: h.checkId, suite: h.suite, base: b.status, reason: h.reason ?? '' }] : [];
  });
}
