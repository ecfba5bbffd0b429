/**
 * Which keys an attempt sends with. Where the target file gives a role a key pool (more keys of the same
 * workspace, each with a rate-limit budget of its own: target/schema.ts), consecutive attempts of a shrink or
 * of `replay --times` take turns over them: slot j sends each role's requests with the j-th key of the
 * role's pool (its own key first, cycling where one role's pool is shorter than another's). One attempt's
 * budget then refills while the next runs on another key, instead of every attempt waiting a window or more
 * for the last one's. The records keep the schedule's role, so the analysis and the violation's signature
 * are the same whichever slot ran. Pure.
 */
import type { KeyName, KeyRole, Target } from '../target/schema.js';

export interface KeySlots {
  /** How many slots there are (1 without a pool: every attempt uses the roles' own keys). */
  count: number;
  /** The key slot `slot` sends the role's requests with. */
  keyFor(slot: number, role: KeyRole): KeyName;
  /** "admin: 4 keys" (names and counts only), for the progress line; empty with one slot. */
  described: string;
}

/** The slots for a schedule that sends with `roles`. */
export function keySlots(target: Pick<Target, 'pools'>, roles: Iterable<KeyRole>): KeySlots {
  const used = [...new Set(roles)];
  const keysOf = (role: KeyRole): readonly KeyName[] => target.pools[role] ?? [role];
  const count = Math.max(1, ...used.map((r) => keysOf(r).length));
  return {
    count,
    keyFor: (slot, role) => {
      const keys = keysOf(role);
      return keys[slot % keys.length]!;
    },
    described:
      count > 1
        ? used
            .filter((r) => keysOf(r).length > 1)
            .map((r) => `${r}: ${keysOf(r).length} keys`)
            .join(', ')
        : '',
  };
}
