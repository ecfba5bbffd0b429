/**
 * Slicing one profile into N shards (`spgate load --shard i/N`), for local workers or separate machines.
 * Pure: a shard is the same profile with its share of the load and the same target with its share of the
 * caps, planned by the unchanged planner. Arrival rates are divided exactly (they sum to the whole);
 * connections and integer caps are split with the remainder spread deterministically, and caps are split
 * downwards so the shards together never exceed what the target file allows.
 */
import { SpgateError } from '../errors.js';
import type { ShardRecord } from '../results/schema.js';
import { stripUserInfo } from '../results/build.js';
import type { Target } from '../target/schema.js';
import type { ClassMix, Profile, RateSpec } from '../load/profile.js';
import { ROUTE_CLASSES } from '../spec/routes.js';

export interface ShardSpec {
  /** 0-based (a Kubernetes completion index or a CI matrix index, as is). */
  index: number;
  count: number;
}

/** The most shards one run may be split into: more is a typo, not a plan. */
export const MAX_SHARDS = 1024;

/** Parses "i/N" (0 <= i < N); a bad value is one SPGATE_ERR_SHARD_INVALID line. */
export function parseShardSpec(raw: string): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  if (!m) throw new SpgateError('SPGATE_ERR_SHARD_INVALID', `--shard ${JSON.stringify(raw)} is not "INDEX/COUNT" (for example 0/4)`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new SpgateError('SPGATE_ERR_SHARD_INVALID', `--shard ${raw}: COUNT must be 1..${MAX_SHARDS}`);
  if (index >= count)
    throw new SpgateError('SPGATE_ERR_SHARD_INVALID', `--shard ${raw}: INDEX must be 0..${count - 1} (indexes start at 0)`);
  return { index, count };
}

/**
 * Shard `index`'s part of an integer `total` split over `count`: floor(total/count), plus one for `total %
 * count` shards chosen by rotating from `offset` (so different quantities do not all favour shard 0).
 */
export function splitInteger(total: number, count: number, index: number, offset = 0): number {
  const base = Math.floor(total / count);
  const extra = total - base * count;
  const pos = (((index - offset) % count) + count) % count;
  return base + (pos < extra ? 1 : 0);
}

function scaleRate(rate: RateSpec, k: number): RateSpec {
  return typeof rate === 'number' ? rate * k : { budgetFactor: rate.budgetFactor * k, fallback: rate.fallback * k };
}

/** The profile with this shard's share of connections (closed) or arrival rate (open); notes say what was done. */
export function shardProfile(profile: Profile, shard: ShardSpec): { profile: Profile; notes: string[] } {
  const notes: string[] = [];
  const k = 1 / shard.count;
  const classes: Profile['classes'] = {};
  let offset = 0;
  for (const cls of ROUTE_CLASSES) {
    const mix = profile.classes[cls];
    if (!mix) continue;
    const out: ClassMix = { ...mix };
    if (mix.connections !== undefined) {
      const share = splitInteger(mix.connections, shard.count, shard.index, offset);
      offset += mix.connections;
      // A shard cannot run with no connection; more shards than connections means more load than asked.
      out.connections = Math.max(1, share);
      if (share === 0)
        notes.push(
          `${cls}: ${mix.connections} connection(s) over ${shard.count} shards: this shard runs 1 (the shards together run ${shard.count})`,
        );
    }
    if (mix.rate !== undefined) out.rate = scaleRate(mix.rate, k);
    if (mix.ramp) out.ramp = { start: mix.ramp.start * k, stages: mix.ramp.stages.map((s) => ({ ...s, target: s.target * k })) };
    // An explicit schedule is dealt out send by send: together the shards send it once.
    if (mix.schedule) out.schedule = mix.schedule.filter((_, i) => i % shard.count === shard.index);
    classes[cls] = out;
  }
  const next: Profile = { ...profile, classes };
  if (profile.maxRequests !== undefined) next.maxRequests = requireShare(profile.maxRequests, shard, "the profile's maxRequests");
  // The open model's in-flight bound is per process; splitting it keeps the whole run's concurrency.
  next.maxConnections = Math.max(1, splitInteger(profile.maxConnections, shard.count, shard.index));
  if (profile.model === 'open') notes.push(`shard ${shard.index}/${shard.count}: arrival rates × 1/${shard.count}`);
  else
    notes.push(
      `shard ${shard.index}/${shard.count}: connections split (${ROUTE_CLASSES.filter((c) => classes[c])
        .map((c) => `${c} ${classes[c]!.connections}`)
        .join(', ')})`,
    );
  return { profile: next, notes };
}

/** The target with this shard's share of caps.maxRps and caps.maxRequests (rounded down: the sum never exceeds). */
export function shardTarget(target: Target, shard: ShardSpec): Target {
  const caps = { ...target.caps };
  if (caps.maxRps !== undefined) caps.maxRps = requireShare(Math.floor(caps.maxRps), shard, 'caps.maxRps');
  if (caps.maxRequests !== undefined) caps.maxRequests = requireShare(caps.maxRequests, shard, 'caps.maxRequests');
  return { ...target, caps };
}

function requireShare(total: number, shard: ShardSpec, what: string): number {
  // Judged on the whole, not on this shard's share, so every shard of the run fails alike.
  if (total < shard.count) {
    throw new SpgateError(
      'SPGATE_ERR_SHARD_INVALID',
      `${what} ${total} cannot be split over ${shard.count} shards (each needs at least 1): use fewer shards`,
    );
  }
  return splitInteger(total, shard.count, shard.index);
}

/**
 * What a shard's result records for `merge`: which slice, when its clock started and on which machine's
 * clock (clock.ts), and which run (never a key).
 */
export function shardRecord(shard: ShardSpec, startedAtEpochMs: number, profileArg: string, target: Target, clock?: string): ShardRecord {
  const rl = target.assumptions.rateLimit;
  return {
    index: shard.index,
    count: shard.count,
    startedAtEpochMs,
    ...(clock !== undefined ? { clock } : {}),
    profile: profileArg,
    target: { name: target.name, baseUrl: stripUserInfo(target.baseUrl) },
    expected: { ...(rl.read ? { read: { ...rl.read } } : {}), ...(rl.write ? { write: { ...rl.write } } : {}) },
    strict: target.assumptions.strict,
  };
}
