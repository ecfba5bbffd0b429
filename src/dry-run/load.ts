/**
 * What a load profile would send against a target, without sending anything: the plan the engine would
 * run (caps applied), and the expected request count per class. Pure.
 */
import type { Plan, PlannedClass } from '../load/plan.js';
import type { Target } from '../target/schema.js';

/** Expected requests of one class over the plan's duration (open model: the integral of its rate). */
export function expectedRequests(plan: Plan, pc: PlannedClass): number | undefined {
  // A rate relative to a budget still to be discovered is not known before the run.
  if (pc.budgetPending) return undefined;
  const seconds = plan.durationMs / 1000;
  if (pc.rateAt) {
    const step = Math.min(0.1, seconds / 10);
    let n = 0;
    for (let t = 0; t < seconds; t += step) n += pc.rateAt(t) * Math.min(step, seconds - t);
    return Math.round(n);
  }
  // Closed model: as many as the target answers, unless a rate cap bounds it.
  return pc.maxRps !== undefined ? Math.round(pc.maxRps * seconds) : undefined;
}

/** The plan of one profile as terminal lines (indented under a phase heading). */
export function loadPlanLines(plan: Plan, target: Target): string[] {
  const seconds = plan.durationMs / 1000;
  const out = [
    `load ${plan.name}: ${plan.model} model · ${seconds}s · request timeout ${plan.timeoutMs} ms${plan.maxRequests !== undefined ? ` · at most ${plan.maxRequests} requests` : ''}`,
  ];
  let total = 0;
  let bounded = true;
  for (const c of plan.classes) {
    const n = expectedRequests(plan, c);
    if (n === undefined) bounded = false;
    else total += n;
    const rate = c.budgetPending
      ? `budget: to be discovered from headers (${c.budgetPending.budgetFactor}× its rate; fallback ${c.budgetPending.fallback} rps)`
      : c.rateAt
        ? `${round(c.rateAt(0))}→peak ${round(c.peakRate ?? 0)} rps`
        : `${c.connections ?? 0} connections${c.maxRps !== undefined ? `, at most ${c.maxRps} rps` : ', unthrottled'}`;
    // A route spread over a pool is one planned route per key: the labels once, every key named.
    const keys = [...new Set(c.routes.map((r) => r.keyName))].join(', ');
    const labels = [...new Set(c.routes.map((r) => r.label))];
    out.push(
      `  ${c.class}: ${rate} · ${n !== undefined ? `~${n} requests` : c.budgetPending ? 'request count known after discovery' : 'unbounded requests'} · ${labels.length} routes (${labels.join(', ')}) · keys ${keys}`,
    );
  }
  const capped = plan.maxRequests !== undefined ? Math.min(total, plan.maxRequests) : total;
  const why = plan.classes.some((c) => c.budgetPending)
    ? 'known once the budgets are discovered'
    : 'unbounded (closed model without caps.maxRps)';
  out.push(`  total: ${bounded ? `~${capped}` : why} requests`);
  const c = target.caps;
  out.push(
    `  caps: maxRps ${c.maxRps ?? 'none'} · maxRequests ${c.maxRequests ?? 'none'} · maxDuration ${c.maxDuration !== undefined ? `${c.maxDuration}s` : 'none'}`,
  );
  for (const n of plan.config.notes) out.push(`  note: ${n}`);
  return out;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
