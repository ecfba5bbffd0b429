/**
 * One load profile of two runs compared: latency percentiles of the successful series and the answered
 * throughput, each as an interval judged by compare-stats (supported regression, no change, or not enough
 * data), plus rate-limit, violation and threshold changes. Pure.
 */
import type { LatencySummary, ProfileResult, RouteClass } from './schema.js';
import {
  decodeHistogram,
  claimFloor,
  judge,
  percentileInterval,
  rateInterval,
  samplesToBound,
  type FigureVerdict,
  type GateRule,
  type Interval,
} from './compare-stats.js';

/** The latency percentiles compared, each with the option that sets its allowed rise. */
export const COMPARED_PERCENTILES = [
  { pct: 50, label: 'p50', option: 'p50RegressionPct' },
  { pct: 99, label: 'p99', option: 'p99RegressionPct' },
] as const;

export interface ProfileGate {
  p50RegressionPct: number;
  p99RegressionPct: number;
  throughputRegressionPct: number;
  minDeltaMs: number;
  minDeltaRps: number;
  minSamples: number;
}

export interface LatencyDelta {
  series: string;
  percentile: 'p50' | 'p99';
  base: Interval;
  head: Interval;
  /** Percentage change of the point estimate, null when the base was 0. */
  changePct: number | null;
  verdict: FigureVerdict;
  /** Why the figure could not be judged (verdict not-enough-data). */
  reason?: string;
}

export interface ThroughputDelta {
  /** Answered responses other than 429 per second: refusals are answers, not throughput. */
  base: Interval;
  head: Interval;
  changePct: number | null;
  /** not-gated: a closed-model run, whose throughput is connections ÷ latency (the latency figures gate it). */
  verdict: FigureVerdict | 'not-gated';
  reason?: string;
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
  throughput?: ThroughputDelta;
  latency: LatencyDelta[];
  rateLimit: RateLimitDelta[];
  violations?: { base: number; head: number; regression: boolean };
  thresholds?: { newlyBreached: string[]; fixed: string[] };
}

/** Percentage change from base to head; null when base is 0 (no meaningful ratio). */
export function pctChange(base: number, head: number): number | null {
  if (base === 0) return head === 0 ? 0 : null;
  return ((head - base) / base) * 100;
}

/** The label of a latency series: class, family, and whether it is the uncorrected view. */
export function seriesKey(s: Pick<LatencySummary, 'class' | 'family' | 'corrected'>): string {
  return `${s.class} ${s.family}${s.corrected ? '' : ' (uncorrected)'}`;
}

/** Answered non-429 responses of a profile (transport failures are no answer). */
export function answered(p: ProfileResult): number {
  return Object.entries(p.totals.byStatus).reduce((n, [status, c]) => (status === '429' || status === '0' ? n : n + c), 0);
}

function why(base: Interval, head: Interval, rule: GateRule, bound: number, what: string): string {
  const fewest = Math.min(base.samples, head.samples);
  const need = Math.max(rule.minSamples, bound);
  return `${fewest} ${what} in the ${base.samples <= head.samples ? 'base' : 'head'} run; ${need} are needed to bound it (--min-samples ${rule.minSamples})`;
}

const fmt = (x: number): string => x.toFixed(1);

/** An interval as `[lower–upper]`; a side the samples cannot bound (a short run's far tail) shows as `?`. */
const span = (i: Interval): string => `[${i.lower === null ? '?' : fmt(i.lower)}–${i.upper === null ? '?' : fmt(i.upper)}]`;

/** Compares one profile present in both runs; regressions are appended as one line each. */
export function compareProfile(b: ProfileResult, h: ProfileResult, o: ProfileGate, regressions: string[]): ProfileDelta {
  const tb = rateInterval(answered(b), b.durationMs / 1000);
  const th = rateInterval(answered(h), h.durationMs / 1000);
  const tRule = { pct: o.throughputRegressionPct, floor: o.minDeltaRps, minSamples: o.minSamples };
  // A closed model sends its next request when the last one is answered: its rate is set by the latency
  // (and by whatever else the machine runs), not offered, so only an open model's throughput is a figure
  // of its own; a closed run's is gated through its latency.
  const tVerdict = b.model === 'open' && h.model === 'open' ? judge(tb, th, tRule, false) : 'not-gated';
  const throughput: ThroughputDelta = { base: tb, head: th, changePct: pctChange(tb.value, th.value), verdict: tVerdict };
  if (tVerdict === 'not-gated') throughput.reason = 'closed model: its rate follows the latency, which is compared';
  if (tVerdict === 'not-enough-data') throughput.reason = why(tb, th, tRule, 1, 'answered responses');
  if (tVerdict === 'regression') {
    regressions.push(
      `${h.name}: answered throughput fell ${fmt(Math.abs(throughput.changePct ?? 0))} % (${fmt(tb.value)} ${span(tb)} → ${fmt(th.value)} ${span(th)} req/s, 95 % intervals apart by more than ${o.throughputRegressionPct} %)`,
    );
  }

  const latency: LatencyDelta[] = [];
  // A latency is timed by the generator's event loop: when that loop was itself held up (a busy machine,
  // GC), the times it took read that much high, and the machine is busier in one run than in the next. A rise
  // no larger than the head's event-loop delay p99 is the machine's, not the server's: the floor. The base's
  // delay cannot make a rise (it only makes the base read high): it is the floor of an improvement. Raising
  // both by the larger delay hid a 4.7 → 202 ms p99 behind a base whose loop had stalled 331 ms once.
  const inflation = { base: b.generator?.eventLoopDelayP99Ms ?? 0, head: h.generator?.eventLoopDelayP99Ms ?? 0 };
  const baseSeries = new Map(b.latency.filter((s) => s.count > 0).map((s) => [seriesKey(s), s]));
  // Only successful responses gate: a 429's latency says nothing about the service's speed.
  for (const hs of h.latency.filter((s) => s.count > 0 && s.family === '2xx')) {
    const bs = baseSeries.get(seriesKey(hs));
    if (!bs) continue;
    const [bh, hh] = [decodeHistogram(bs.hdr), decodeHistogram(hs.hdr)];
    for (const p of COMPARED_PERCENTILES) {
      const rule = { pct: o[p.option], floor: o.minDeltaMs, minSamples: o.minSamples, inflation };
      const base = percentileInterval(bh, p.pct);
      const head = percentileInterval(hh, p.pct);
      const verdict = judge(base, head, rule);
      const d: LatencyDelta = {
        series: seriesKey(hs),
        percentile: p.label,
        base,
        head,
        changePct: pctChange(base.value, head.value),
        verdict,
      };
      if (verdict === 'not-enough-data') d.reason = why(base, head, rule, samplesToBound(p.pct / 100), 'responses');
      if (verdict === 'regression') {
        regressions.push(
          `${h.name}: ${p.label} of ${d.series} rose ${fmt(d.changePct ?? 0)} % (${fmt(base.value)} ${span(base)} → ${fmt(head.value)} ${span(head)} ms, 95 % intervals apart by more than ${rule.pct} %, change above the ${fmt(claimFloor(rule, 'head'))} ms floor)`,
        );
      }
      latency.push(d);
    }
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
    throughput,
    latency,
    rateLimit,
    violations: { base: vb, head: vh, regression: vReg },
    thresholds: { newlyBreached, fixed: [...bb].filter((e) => !hb.has(e)) },
  };
}
