/**
 * Runs a built-in profile against a limiter server with budgets unstated, for a duration short enough for
 * tests yet long enough for the profile (the windows it needs), and boils the
 * result down to what the tests assert, in a form whose diff explains a failure.
 */
import { loadProfile } from '../../../src/load/profile.js';
import { runProfile } from '../../../src/load/run.js';
import type { FindingRecord, ProfileResult } from '../../../src/results/schema.js';
import { targetFor, type Budgets, type LimitedServer } from './server.js';

/** Built-in profiles in the order the table runs them; capacity and soak are shortened. */
export const PROFILES = ['smoke', 'read-budget', 'write-budget', 'class-isolation', 'burst', 'capacity', 'soak'] as const;

const SHORT: Record<string, number> = { smoke: 2, capacity: 2, soak: 2 };

/** Seconds to run a profile: its minWindows × the longest window of the classes it drives, at least 2.5 s. */
export function durationFor(profile: string, budgets: Budgets): number {
  if (SHORT[profile] !== undefined) return SHORT[profile];
  const p = loadProfile(profile);
  const windows = (['read', 'write'] as const).filter((c) => p.classes[c]).map((c) => budgets[c].windowSeconds);
  return Math.max(2.5, (p.minWindows ?? 2.5) * Math.max(...windows));
}

/**
 * Latency thresholds (`p95 < 250ms` in smoke, soak) are left out of what tests assert: on a shared 2-core
 * machine they measure the machine, not the limiter, and speed is measured in bench/ only.
 */
const LATENCY = /^(?:(?:read|write)\.)?(?:(?:2xx|429|other)\.)?(?:p\d+|min|mean|max)\s*[<>=!]/;

export interface RunSummary {
  /** The run's status with latency thresholds left out (see LATENCY). */
  status: ProfileResult['status'];
  /** Breached thresholds other than latency ones. */
  failedThresholds: string[];
  /** Findings as `clause (severity): actual`, for readable diffs. */
  findings: string[];
  /** Analyzer violations as `rule class: message`. */
  violations: string[];
}

export interface LimiterRun {
  result: ProfileResult;
  findings: FindingRecord[];
  summary: RunSummary;
  /** Every 8.ratelimit.* rule id reported, by the analyzer or the per-response checks. */
  rules: Set<string>;
}

/** Runs `profile` against the server (target without assumptions.rateLimit). */
export async function runAgainst(name: string, server: LimitedServer, profile: string, budgets: Budgets): Promise<LimiterRun> {
  const target = targetFor(name, server.url);
  const { result, findings } = await runProfile({ target, profile: loadProfile(profile), durationOverride: durationFor(profile, budgets) });
  const failed = result.thresholds.filter((t) => !t.ok && !LATENCY.test(t.expression));
  const errors = findings.some((f) => f.severity === 'error');
  const summary: RunSummary = {
    status: result.status === 'failed' && !failed.length && !errors ? 'passed' : result.status,
    failedThresholds: failed.map((t) => `${t.expression} (actual ${t.actual ?? 'n/a'})`),
    findings: findings.map((f) => `${f.clause} (${f.severity}): ${f.actual}`),
    violations: result.rateLimit.violations.map((v) => `${v.rule} ${v.class ?? ''}: ${v.message}`),
  };
  const rules = new Set(
    [...result.rateLimit.violations.map((v) => v.rule), ...findings.map((f) => f.clause)].filter((r) => r.startsWith('8.ratelimit')),
  );
  return { result, findings, summary, rules };
}
