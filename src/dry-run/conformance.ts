/**
 * What `spgate conformance` would do against a target, without sending anything: per suite, how many
 * checks run, which are skipped and why, and which of the running ones change data. Pure.
 */
import { selectSuites, unmetNeeds } from '../conformance/run.js';
import type { CheckDef, SuiteDef } from '../conformance/suite.js';
import type { Target } from '../target/schema.js';
import { envNameFor } from '../target/env-names.js';

export interface SuitePlan {
  suite: string;
  checks: number;
  /** Checks that would run. */
  running: string[];
  /** Checks that would be skipped, with the reason and the target-file lines that would let them run. */
  skipped: Array<{ checkId: string; reason: string; add: string[] }>;
  /** Running checks that change data (need allowWrites). */
  destructive: string[];
}

export interface ConformancePlan {
  suites: SuitePlan[];
  runs: number;
  seed: number;
}

/** Plans a conformance run: the same selection and skip rules as the runner, nothing sent. */
export function planConformance(target: Target, names: string[], runs: number, seed: number, catalogue: SuiteDef[]): ConformancePlan {
  const hasFixtures = target.fixtures.api !== undefined;
  const suites = selectSuites(names, catalogue).map((s): SuitePlan => {
    const plan: SuitePlan = { suite: s.name, checks: s.checks.length, running: [], skipped: [], destructive: [] };
    for (const c of s.checks) {
      const reason = unmetNeeds(c, target, hasFixtures);
      if (reason) plan.skipped.push({ checkId: c.id, reason, add: linesToEnable(c, target) });
      else {
        plan.running.push(c.id);
        if (c.needs?.writes) plan.destructive.push(c.id);
      }
    }
    return plan;
  });
  return { suites, runs, seed };
}

/** The target-file lines (dotted paths) that would let a skipped check run. */
export function linesToEnable(check: CheckDef, target: Target): string[] {
  const out: string[] = [];
  for (const role of check.needs?.roles ?? []) {
    if (!target.secrets[role]) out.push(`keys.${role}: { key: "env:${envNameFor(role)}" }`);
  }
  if (check.needs?.fixtures && target.fixtures.api === undefined)
    out.push('fixtures.api: <URL of a fixtures API> (docs/target-file.md#fixtures)');
  if (check.needs?.writes && !target.allowWrites) out.push('allowWrites: true');
  return out;
}

/** The plan as terminal lines. */
export function conformancePlanLines(p: ConformancePlan): string[] {
  const total = p.suites.reduce((n, s) => n + s.checks, 0);
  const running = p.suites.reduce((n, s) => n + s.running.length, 0);
  const destructive = p.suites.flatMap((s) => s.destructive);
  const out = [
    `conformance: ${p.suites.length} suites · ${total} checks · ${running} would run · ${total - running} skipped · ${p.runs} runs per property · seed ${p.seed}`,
  ];
  for (const s of p.suites) {
    out.push(
      `  suite ${s.suite}: ${s.running.length}/${s.checks} checks${s.destructive.length ? ` · destructive: ${s.destructive.join(', ')}` : ''}`,
    );
    for (const k of s.skipped) {
      out.push(`    skip ${k.checkId}: ${k.reason}`);
      for (const line of k.add) out.push(`      add: ${line}`);
    }
  }
  out.push(
    destructive.length
      ? `  destructive checks that would run (change data): ${destructive.length}`
      : '  destructive checks that would run: none',
  );
  const unlocks = new Map<string, number>();
  for (const k of p.suites.flatMap((s) => s.skipped)) for (const line of k.add) unlocks.set(line, (unlocks.get(line) ?? 0) + 1);
  if (unlocks.size) {
    out.push('  to run more, add to the target file (checks that need each line):');
    for (const [line, n] of [...unlocks].sort((a, b) => b[1] - a[1])) out.push(`    ${line}   (${n})`);
  }
  return out;
}
