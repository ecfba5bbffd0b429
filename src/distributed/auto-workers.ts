/**
 * How many local workers `spgate load` uses when the user does not say (or says `--workers auto`): the
 * machine's cores, bounded. Pure. The bounds, each for a reason the run would otherwise pay for:
 * - a target on this machine (the embedded server, or any loopback address) needs the cores itself: one
 *   generator already outruns the single-process embedded server, and on a 2-core machine two workers
 *   against a local server gave less than half the throughput of one (docs/distributed.md);
 * - never more than MAX_WORKERS processes: past that one generator host is the bottleneck;
 * - never more shards than the profile can split without sending more than it asks: a closed class of
 *   N connections, an open model of N connections, or caps of N (maxRps, maxRequests) allow N shards.
 */
import { isIP } from 'node:net';
import type { Target } from '../target/schema.js';
import type { Profile } from '../load/profile.js';
import { ROUTE_CLASSES } from '../spec/routes.js';

/** Local workers never exceed this, whatever the machine has: past it, one generator host is the bottleneck. */
export const MAX_WORKERS = 8;

/** Where the target runs, as far as the worker count is concerned. */
export type TargetPlace = 'embedded' | 'loopback' | 'remote';

export interface AutoWorkers {
  count: number;
  /** Why this count, in a few words (printed with the plan). */
  why: string;
}

/** Whether a base URL's host is this machine (localhost, 127.0.0.0/8, ::1, or the unspecified address). */
export function isLoopbackUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.') || host === '0.0.0.0';
  if (isIP(host) === 6) return host === '::1' || host === '::' || /^::ffff:127\./.test(host);
  return false;
}

/** Where a target runs. */
export function placeOf(target: Pick<Target, 'source' | 'baseUrl'>): TargetPlace {
  if (target.source === 'embedded') return 'embedded';
  return isLoopbackUrl(target.baseUrl) ? 'loopback' : 'remote';
}

/** The default worker count for a profile against a target on a machine with `cores` cores. */
export function autoWorkers(o: { cores: number; place: TargetPlace; profile: Profile; caps: Target['caps'] }): AutoWorkers {
  if (o.place === 'embedded') return { count: 1, why: 'the embedded server runs in this process; one generator outruns it' };
  if (o.place === 'loopback') return { count: 1, why: 'the target runs on this machine and needs its cores (--workers N to override)' };
  const bounds: Array<[number, string]> = [
    [Math.max(1, Math.floor(o.cores)), `${Math.floor(o.cores)} core(s)`],
    [MAX_WORKERS, `at most ${MAX_WORKERS}`],
  ];
  const { profile } = o;
  if (profile.model === 'closed') {
    for (const cls of ROUTE_CLASSES) {
      const n = profile.classes[cls]?.connections;
      if (n !== undefined) bounds.push([n, `${cls} has ${n} connection(s)`]);
    }
  } else {
    bounds.push([profile.maxConnections, `${profile.maxConnections} connection(s)`]);
    // A reproduction's timing is kept best by one process.
    if (profile.classes.read?.schedule || profile.classes.write?.schedule) bounds.push([1, 'an explicit schedule']);
  }
  if (o.caps.maxRps !== undefined) bounds.push([Math.floor(o.caps.maxRps), `caps.maxRps ${o.caps.maxRps}`]);
  if (o.caps.maxRequests !== undefined) bounds.push([o.caps.maxRequests, `caps.maxRequests ${o.caps.maxRequests}`]);
  const [count, why] = bounds.reduce((a, b) => (b[0] < a[0] ? b : a));
  return { count: Math.max(1, count), why: `remote target; ${why}` };
}
