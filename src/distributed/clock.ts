/**
 * Shards' clocks. A shard records when its clock started (epoch ms, to the microsecond: load/run.ts) and
 * on which machine's clock; `merge` places every response on one clock from that. On one machine the
 * shards share the clock and merge exactly. Across machines the clocks agree only as well as they are
 * synced, and a millisecond is enough to misorder two responses of a shared budget, which the rate-limit
 * analysis would read as Remaining jumping between counters. So each response's send-to-answer interval
 * is widened by the clocks' assumed disagreement there: fewer orderings are known, none is invented.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** How far apart two machines' clocks are assumed to be (NTP-synced hosts: a few ms; assumed, not measured). */
export const CROSS_MACHINE_SKEW_MS = 10;

let machineClock: string | undefined;

/**
 * This machine's clock, as an opaque id: a hash of the host name and the boot id (Linux), so shards that
 * ran on one machine are known to share a clock and nothing about the machine is written out.
 */
export function clockId(): string {
  if (machineClock === undefined) {
    let boot = '';
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      // Not Linux: the host name alone.
    }
    machineClock = createHash('sha256').update(`${hostname()}\u0000${boot}`).digest('hex').slice(0, 16);
  }
  return machineClock;
}

/**
 * The widening merge applies to every response's interval: 0 when every shard names one clock, else
 * CROSS_MACHINE_SKEW_MS (a shard that names none, written before shards did, may be on any machine).
 */
export function mergeSkewMs(clocks: ReadonlyArray<string | undefined>): number {
  const first = clocks[0];
  return first !== undefined && clocks.every((c) => c === first) ? 0 : CROSS_MACHINE_SKEW_MS;
}
