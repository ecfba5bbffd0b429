/**
 * The load phases of `spgate run`: which profiles, how long, and against what. Against the embedded server
 * each phase gets its own reference server with small budgets and a short window, so the budget profiles
 * cross several windows in a few seconds without the phases' budgets bleeding into each other.
 */
import type { Profile } from '../load/profile.js';

export const RUN_PROFILES = ['smoke', 'read-budget', 'write-budget', 'class-isolation'] as const;

/** Budgets of the per-phase embedded servers: 2 s windows, so 5 s crosses two boundaries. */
export const EMBEDDED_LOAD_BUDGETS = { read: 40, write: 10, windowSeconds: 2 } as const;

/** Durations (seconds) of the short versions against the embedded server. */
export const EMBEDDED_DURATIONS: Record<(typeof RUN_PROFILES)[number], number> = {
  smoke: 4,
  'read-budget': 5,
  'write-budget': 5,
  'class-isolation': 5,
};

/** Why a profile cannot run against a target that forbids writes, or undefined when it can. */
export function writeSkipReason(profile: Profile, allowWrites: boolean): string | undefined {
  if (allowWrites) return undefined;
  const mix = profile.classes;
  // A profile that only writes (or whose point is the write budget) has nothing left to measure.
  if (mix.write && !mix.read) return `load profile ${profile.name} skipped: it only writes, and the target file does not set allowWrites`;
  if (mix.write && profile.name === 'class-isolation')
    return `load profile ${profile.name} skipped: it needs writes to exhaust the write budget, and the target file does not set allowWrites`;
  return undefined;
}
