/**
 * Spec part 5: the `pk_live_` and `pk_test_` prefixes "mark key mode only and do not isolate data or select
 * an environment". A write run through a `pk_live_` key therefore changes the same workspace data as any
 * other key — worth one warning before anything is sent, since the prefix suggests otherwise.
 */
import type { KeyRole } from './schema.js';

export const LEGACY_LIVE_PREFIX = 'pk_live_';

/** Roles whose keys the conformance suites send writes with. */
export const WRITING_ROLES: readonly KeyRole[] = ['admin', 'helpDelegated', 'secondConnection', 'member'];

/** The warning for writes sent with pk_live_ keys of the given roles, or undefined when there are none. */
export function legacyWriteWarning(
  secrets: Partial<Record<KeyRole, string>>,
  roles: Iterable<KeyRole>,
  allowWrites: boolean,
): string | undefined {
  if (!allowWrites) return undefined;
  const live = [...new Set(roles)].filter((r) => secrets[r]?.startsWith(LEGACY_LIVE_PREFIX));
  if (live.length === 0) return undefined;
  return `writes will be sent with legacy pk_live_ key(s) (${live.join(', ')}): the prefix marks key mode only and does not isolate data (spec part 5) — this run changes the workspace's real data`;
}
