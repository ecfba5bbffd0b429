/**
 * What `spgate conformance` would do against a target, without sending anything: per suite, how many
 * checks run, which are skipped and why, and which of the running ones change data. Pure.
 */
import { selectSuites, unmetNeeds } from '../conformance/run.js';
import type { SuiteDef } from '../conformance/suite.js';
import type { Target } from '../target/schema.js';

export interface SuitePlan {
  suite: string;
  checks: number;
  /** Checks that would run. */
  running: string[];
  /** Checks that would be skipped, with the reason. */
  skipped: Array<{ checkId: string; reason: string }>;
  /** Running checks that change data (need allowWrites). */
  destructive: string[];
}

export interface ConformancePlan {
  suites: SuitePlan[];
  runs: number;
  seed: number;
}

/** Plans a conformance run: the same selection and skip rules as the runner, nothing sent. */
export function planConformance(target: Target, names: string[], runs: number, seed: number, catalogue?: SuiteDef[]): ConformancePlan {
  const hasFixtures = target.fixtures.api !== undefined;
  const suites = selectSuites(names, catalogue).map((s): SuitePlan => {
    const plan: SuitePlan = { suite: s.name, checks: s.checks.length, running: [], skipped: [], destructive: [] };
    for (const c of s.checks) {
      const reason = unmetNeeds(c, target, hasFixtures);
      if (reason) plan.skipped.push({ checkId: c.id, reason });
      else {
        plan.running.push(c.id);
        if (c.needs?.writes) plan.destructive.push(c.id);
      }
    }
    return plan;
  });
  return { suites, runs, seed };
}

/** The plan as terminal lines. */
export function conformancePlanLines(p: ConformancePlan): string[] {
  const total = p.suites.reduce((n, s) => n + s.checks, 0);
  const running = p.suites.reduce((n, s) => n + s.running.length, 0);
  const destructive = p.suites.flatMap((s) => s.destructive);
  const out = [`conformance: ${p.suites.length} suites · ${total} checks · ${running} would run · ${total - running} skipped · ${p.runs} runs per property · seed ${p.seed}`];
  for (const s of p.suites) {
    out.push(`  suite ${s.suite}: ${s.running.length}/${s.checks} checks${s.destructive.length ? ` · destructive: ${s.destructive.join(', ')}` : ''}`);
    for (const k of s.skipped) out.push(`    skip ${k.checkId}: ${k.reason}`);
  }
  out.push(destructive.length ? `  destructive checks that would run (change data): ${destructive.length}` : '  destructive checks that would run: none');
  return out;
}
