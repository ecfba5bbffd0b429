/**
 * Whether the load generator was the bottleneck of a run (pure): the schedule could not be kept when the
 * generator's own send-time slip, its event loop's delay or its CPU crossed a stated bound. Then the
 * run's latency (corrected from intended send times) and dropped arrivals are partly the generator's,
 * and a capacity figure is a lower bound; the remedy is more generator processes (`--workers N`, shards).
 * Dropped arrivals alone do not make the generator saturated: an idle generator whose connections are all
 * busy is waiting for the target, which is what an open model measures.
 */

/** Bounds of the verdict (docs/profiles.md states them). */
export const GENERATOR_BOUNDS = {
  /** p99 of the generator's own send-time slip, ms. */
  slipP99Ms: 5,
  /** CPU time over wall time of one generator process (1 = one core). */
  cpuShare: 0.9,
  /** p99 of the event loop's delay, ms. */
  eventLoopDelayP99Ms: 25,
} as const;

/** What the meter measured, plus the run's offered and dropped arrivals. */
export interface GeneratorFigures {
  /** Generator processes the figures cover (workers: each measures its own; the worst is kept). */
  processes: number;
  wallMs: number;
  cpuMs: number;
  /** cpuMs / wallMs of the busiest process (1 = one core). */
  cpuShare: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  /** Sends whose slip was measured (open model; 0 in the closed model, which has no schedule). */
  sends: number;
  slipP50Ms: number | null;
  slipP99Ms: number | null;
  slipMaxMs: number | null;
  /** Arrivals scheduled (sent + dropped) and dropped (open model). */
  offered: number;
  dropped: number;
}

export interface GeneratorVerdict extends GeneratorFigures {
  saturated: boolean;
  /** Why (every bound crossed), or null. */
  reason: string | null;
  /** What to do about it, or null. */
  remedy: string | null;
}

const f = (n: number, d = 1): string => n.toFixed(d);

/** Judges the figures against GENERATOR_BOUNDS. */
export function judgeGenerator(g: GeneratorFigures): GeneratorVerdict {
  const why: string[] = [];
  if (g.slipP99Ms !== null && g.slipP99Ms > GENERATOR_BOUNDS.slipP99Ms)
    why.push(`send-time slip p99 ${f(g.slipP99Ms)} ms > ${GENERATOR_BOUNDS.slipP99Ms} ms`);
  if (g.cpuShare >= GENERATOR_BOUNDS.cpuShare) why.push(`CPU ${f(g.cpuShare * 100, 0)} % of a core`);
  if (g.eventLoopDelayP99Ms > GENERATOR_BOUNDS.eventLoopDelayP99Ms)
    why.push(`event-loop delay p99 ${f(g.eventLoopDelayP99Ms)} ms > ${GENERATOR_BOUNDS.eventLoopDelayP99Ms} ms`);
  const saturated = why.length > 0;
  if (saturated && g.dropped > 0) why.push(`${g.dropped} of ${g.offered} arrivals dropped`);
  return {
    ...g,
    saturated,
    reason: saturated ? why.join('; ') : null,
    remedy: saturated
      ? `add generator processes: --workers ${Math.max(2, g.processes * 2)}, or shards on more machines (--shard I/N)`
      : null,
  };
}

/** Several processes' verdicts as one (a merged run): the worst figures, saturated when any process was. */
export function combineGenerators(parts: GeneratorFigures[]): GeneratorVerdict | undefined {
  if (parts.length === 0) return undefined;
  const max = (pick: (g: GeneratorFigures) => number | null): number | null => {
    const xs = parts.map(pick).filter((x): x is number => x !== null);
    return xs.length ? Math.max(...xs) : null;
  };
  const sum = (pick: (g: GeneratorFigures) => number): number => parts.reduce((s, g) => s + pick(g), 0);
  return judgeGenerator({
    processes: sum((g) => g.processes),
    wallMs: max((g) => g.wallMs) ?? 0,
    cpuMs: sum((g) => g.cpuMs),
    cpuShare: max((g) => g.cpuShare) ?? 0,
    eventLoopDelayP99Ms: max((g) => g.eventLoopDelayP99Ms) ?? 0,
    eventLoopDelayMaxMs: max((g) => g.eventLoopDelayMaxMs) ?? 0,
    sends: sum((g) => g.sends),
    slipP50Ms: max((g) => g.slipP50Ms),
    slipP99Ms: max((g) => g.slipP99Ms),
    slipMaxMs: max((g) => g.slipMaxMs),
    offered: sum((g) => g.offered),
    dropped: sum((g) => g.dropped),
  });
}

/** The one terminal line of a saturated generator. */
export function generatorLine(g: GeneratorVerdict): string {
  return `generator saturated: ${g.reason} — the schedule was not kept, latency and drops are partly the generator's; ${g.remedy}`;
}

interface CapacityLike {
  rps: number | null;
  explanation: string;
  lowerBound?: boolean;
  remedy?: string;
}

/** A capacity figure measured with a saturated generator is a lower bound, with the remedy named. */
export function markLowerBound<C extends CapacityLike>(capacity: C, g: GeneratorVerdict): C {
  if (!g.saturated) return capacity;
  return {
    ...capacity,
    lowerBound: true,
    remedy: [capacity.remedy, g.remedy].filter((x): x is string => !!x).join('; ') || undefined,
    explanation: `${capacity.explanation}. Measured with a saturated generator (${g.reason}): a lower bound, the target may serve more — ${g.remedy}`,
  };
}
