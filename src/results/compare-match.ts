/**
 * Whether two runs can be compared at all. A different profile (no load profile in common, or one name
 * with a different route mix or model) is refused: its figures measure something else. A different
 * duration, target or engine is allowed with one warning line, because a CI gate often compares a run
 * against last week's run of the same profile on a target that moved. Pure.
 */
import type { ProfileResult, Results } from './schema.js';

export interface RunMatch {
  /** Set when the runs must not be compared; the command exits 2 with it. */
  refused?: string;
  /** One line naming every difference that makes the comparison weaker, or undefined. */
  warning?: string;
}

type Mix = { classes?: Array<{ class: string; routes?: Array<{ route: string; weight?: number }> }> };

/** What a profile asks for, independent of the target: route classes, routes and their weights. */
function mixOf(p: ProfileResult): string {
  const classes = (p.config as Mix).classes ?? [];
  return classes
    .map(
      (c) =>
        `${c.class}:${(c.routes ?? [])
          .map((r) => `${r.route}×${r.weight ?? 1}`)
          .sort()
          .join(',')}`,
    )
    .sort()
    .join(' ');
}

function durationS(p: ProfileResult): number {
  const stated = p.config['durationSeconds'];
  return typeof stated === 'number' ? stated : p.durationMs / 1000;
}

function sameTarget(a: Results, b: Results): boolean {
  // The embedded server listens on a fresh port every run: its base URL says nothing.
  if (a.meta.target.embedded || b.meta.target.embedded) return a.meta.target.embedded === b.meta.target.embedded;
  return a.meta.target.baseUrl === b.meta.target.baseUrl;
}

/** Checks that base and head measured the same thing. */
export function matchRuns(base: Results, head: Results): RunMatch {
  const common = head.load.filter((h) => base.load.some((b) => b.name === h.name));
  if (base.load.length > 0 && head.load.length > 0 && common.length === 0) {
    return {
      refused: `the runs share no load profile (base: ${base.load.map((p) => p.name).join(', ')}; head: ${head.load.map((p) => p.name).join(', ')}); compare runs of the same profile`,
    };
  }
  const diffs: string[] = [];
  for (const h of common) {
    const b = base.load.find((p) => p.name === h.name)!;
    if (mixOf(b) !== mixOf(h))
      return {
        refused: `profile ${h.name} differs between the runs (routes and weights: base ${mixOf(b) || 'none'}; head ${mixOf(h) || 'none'}); compare runs of the same profile`,
      };
    const [db, dh] = [durationS(b), durationS(h)];
    if (Math.abs(db - dh) > 0.1 * Math.max(db, dh)) diffs.push(`${h.name} duration ${db} s vs ${dh} s`);
    if (b.model !== h.model) diffs.push(`${h.name} engine ${b.model} vs ${h.model}`);
    const [pb, ph] = [b.generator?.processes ?? 1, h.generator?.processes ?? 1];
    if (pb !== ph) diffs.push(`${h.name} generator processes ${pb} vs ${ph}`);
  }
  if (!sameTarget(base, head))
    diffs.unshift(
      `target ${base.meta.target.name} (${base.meta.target.baseUrl}) vs ${head.meta.target.name} (${head.meta.target.baseUrl})`,
    );
  return diffs.length ? { warning: `the runs differ: ${diffs.join('; ')}; figures compare unlike runs` } : {};
}
