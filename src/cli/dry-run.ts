/**
 * `--dry-run` of conformance, load and run: print the plan (per phase: checks or requests per class, rate,
 * duration, destructive checks, caps applied) and send nothing. The embedded reference server, when it is
 * the target, is started only to learn its target description and closed again without a request. The
 * conformance planner (and with it every suite) is imported only by the dry runs that print it: a load dry
 * run (a `--workers` child's start, as the bench measures it) does not load the suites.
 */
import { SpgateError } from '../errors.js';
import type { Profile } from '../load/profile.js';
import { loadProfile } from '../load/profile.js';
import { planProfile } from '../load/plan.js';
import { loadPlanLines } from '../dry-run/load.js';
import { EMBEDDED_DURATIONS, RUN_PROFILES, writeSkipReason } from '../run/phases.js';
import { openTarget, type TargetOptions } from '../run/target.js';
import type { Target } from '../target/schema.js';

/** The heading every dry run starts with. */
export function dryRunHeading(target: Target): string {
  // The embedded server's URL is a throwaway port: naming it would suggest something listens there.
  const where =
    target.source === 'embedded' ? 'the embedded reference server (a loopback port per phase)' : `${target.baseUrl} (${target.source})`;
  return `dry run: nothing is sent to ${where} · allowWrites ${target.allowWrites}`;
}

/** Lines of a conformance dry run. */
export async function conformanceDryRun(target: Target, suites: string[], runs: number, seed: number): Promise<string[]> {
  const { conformancePlanLines, planConformance } = await import('../dry-run/conformance.js');
  const { SUITES } = await import('../../suites/index.js');
  return [dryRunHeading(target), ...conformancePlanLines(planConformance(target, suites, runs, seed, SUITES))];
}

/** Lines of a load dry run; configuration errors (writes not allowed, no route) throw as in a real run. */
export function loadDryRun(target: Target, profile: Profile, durationOverride?: number): string[] {
  return [dryRunHeading(target), ...loadPlanLines(planProfile(profile, target, durationOverride, { pending: true }), target)];
}

export interface RunDryRunOptions extends TargetOptions {
  seed: number;
  runs: number;
}

/** Lines of a `spgate run` dry run: the conformance phase, then each load phase as the pipeline would run it. */
export async function runDryRun(opts: RunDryRunOptions): Promise<string[]> {
  const embedded = opts.targetFile === undefined;
  // The embedded server is started only to learn its target description; nothing is sent to it.
  const opened = await openTarget({ ...opts, verifyTls: false });
  await opened.close();
  const target = opened.target;
  const { conformancePlanLines, planConformance } = await import('../dry-run/conformance.js');
  const { SUITES } = await import('../../suites/index.js');
  const out = [...target.warnings.map((w) => `warning: ${w}`), dryRunHeading(target)];
  out.push('phase 1 — ' + conformancePlanLines(planConformance(target, [], opts.runs, opts.seed, SUITES)).join('\n'));
  RUN_PROFILES.forEach((name, i) => {
    const profile = loadProfile(name);
    const skip = writeSkipReason(profile, target.allowWrites);
    const heading = `phase ${i + 2} — `;
    if (skip) {
      out.push(`${heading}${skip}`);
      return;
    }
    const duration = embedded ? EMBEDDED_DURATIONS[name] : undefined;
    try {
      out.push(heading + loadPlanLines(planProfile(profile, target, duration, { pending: true }), target).join('\n'));
    } catch (err) {
      if (!(err instanceof SpgateError) || err.exitCode !== 2) throw err;
      out.push(`${heading}load profile ${name} skipped: ${err.message}`);
    }
  });
  if (embedded) out.push('note: each load phase runs against a fresh embedded server with small budgets (2 s windows)');
  return out;
}
