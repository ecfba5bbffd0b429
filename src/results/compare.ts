/**
 * Comparing two runs (the CI gate): new and fixed findings, latency and throughput deltas per profile, and
 * rate-limit changes. Pure: two Results in, one Comparison out; the command decides the exit code from
 * `regressions`.
 */
import type { CheckResult, FindingRecord, Results } from './schema.js';
import { compareProfile, type ProfileDelta, type ProfileGate } from './compare-profile.js';
import { matchRuns } from './compare-match.js';

export { pctChange, type LatencyDelta, type ProfileDelta, type RateLimitDelta, type ThroughputDelta } from './compare-profile.js';

/**
 * The gate. A latency percentile or the throughput regresses only when the two runs' 95 % intervals are
 * apart by more than the allowed percent, the values differ by more than the absolute floor, and both runs
 * have at least minSamples of it.
 */
export type CompareOptions = ProfileGate;

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  p50RegressionPct: 20,
  p99RegressionPct: 20,
  throughputRegressionPct: 10,
  minDeltaMs: 5,
  minDeltaRps: 1,
  minSamples: 100,
};

export interface FindingDelta {
  key: string;
  finding: FindingRecord;
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
  /** Set when the runs must not be compared (different profile): nothing else is filled, the command exits 2. */
  refused?: string;
  /** One line naming differences (duration, target, engine) that weaken the comparison. */
  warning?: string;
  newFindings: FindingDelta[];
  fixedFindings: FindingDelta[];
  /** Checks judged in base but inconclusive in head: their findings vanish without being fixed. */
  unjudged: UnjudgedDelta[];
  profiles: ProfileDelta[];
  /** Figures that could not be judged (too few samples): named, neither a pass nor a regression. */
  notEnoughData: string[];
  /** One line per regression; empty means the gate passes. */
  regressions: string[];
}

/** Findings are the same finding when check, clause and source agree (messages may carry ids and times). */
export function findingKey(f: Pick<FindingRecord, 'checkId' | 'clause' | 'source'>): string {
  return `${f.checkId}|${f.clause}|${f.source}`;
}

/** Compares head against base. */
export function compareResults(base: Results, head: Results, options: Partial<CompareOptions> = {}): Comparison {
  const o = { ...DEFAULT_COMPARE_OPTIONS, ...options };
  const side = (r: Results) => ({
    startedAt: r.meta.startedAt,
    verdict: r.verdict,
    target: `${r.meta.target.name} (${r.meta.target.baseUrl})`,
  });
  const match = matchRuns(base, head);
  const empty = { newFindings: [], fixedFindings: [], unjudged: [], profiles: [], notEnoughData: [], regressions: [] };
  if (match.refused) return { options: o, base: side(base), head: side(head), refused: match.refused, ...empty };
  const regressions: string[] = [];
  if (head.verdict === 'aborted' || head.verdict === 'error')
    regressions.push(`the head run did not complete (verdict ${head.verdict}); its figures are partial`);
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
  const notEnoughData = profiles.flatMap((p) => [
    ...(p.throughput?.reason ? [`${p.name}: throughput: ${p.throughput.reason}`] : []),
    ...p.latency.flatMap((l) => (l.reason ? [`${p.name}: ${l.percentile} of ${l.series}: ${l.reason}`] : [])),
  ]);
  const c: Comparison = {
    options: o,
    base: side(base),
    head: side(head),
    newFindings,
    fixedFindings,
    unjudged,
    profiles,
    notEnoughData,
    regressions,
  };
  if (match.warning) c.warning = match.warning;
  return c;
}

const JUDGED = new Set<CheckResult['status']>(['passed', 'failed', 'warned']);

/** Checks with a verdict in base that are inconclusive in head (a gate must not count them as fixed). */
function lostVerdicts(base: Results, head: Results): UnjudgedDelta[] {
  const before = new Map(base.checks.map((c) => [`${c.suite}\u0000${c.checkId}`, c]));
  return head.checks.flatMap((h) => {
    const b = before.get(`${h.suite}\u0000${h.checkId}`);
    return b && JUDGED.has(b.status) && h.status === 'inconclusive'
      ? [{ checkId: h.checkId, suite: h.suite, base: b.status, reason: h.reason ?? '' }]
      : [];
  });
}
