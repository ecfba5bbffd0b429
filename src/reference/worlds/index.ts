/**
 * Worlds: the conditions of a shared staging, switched on by name (`--world big,busy,drifting,sparse`).
 * Unlike faults they are not bugs: the server stays correct in every world, and a correct tool must give
 * zero findings in each. A world changes what data there is (big, sparse) or what happens to it while a run
 * goes on (busy, drifting); the seed still decides everything the server draws.
 */

export const WORLD_NAMES = ['big', 'busy', 'drifting', 'sparse'] as const;
export type WorldName = (typeof WORLD_NAMES)[number];

/** The worlds of one server, every option filled in; an absent key is a world switched off. */
export interface Worlds {
  /** Extra customers (a copy of production), about 4 % of them known by phone alone. */
  big?: { customers: number };
  /** Another client writing all the time: one CRM sync and agent step every `intervalMs`. */
  busy?: { intervalMs: number };
  /** Pool items move on by themselves `afterMs` after the seed. */
  drifting?: { afterMs: number };
  /** A nearly empty workspace: 2 customers, few conversations, small pools. */
  sparse?: Record<string, never>;
}

/** Defaults of the worlds' options (the values a staging shows). */
export const WORLD_DEFAULTS = { bigCustomers: 50_000, busyIntervalMs: 200, driftAfterMs: 20_000 } as const;

/** One line per world, for help texts. */
export const WORLD_DESCRIPTIONS: Readonly<Record<WorldName, string>> = {
  big: `tens of thousands of customers (big=N, default ${WORLD_DEFAULTS.bigCustomers}), about 4 % phone-only`,
  busy: `another client writing: a CRM sync adds and soft-deletes customers, agents change conversations (busy=MS, default every ${WORLD_DEFAULTS.busyIntervalMs} ms)`,
  drifting: `pool items move on by themselves (drifting=DELAY, default ${WORLD_DEFAULTS.driftAfterMs / 1000}s after the seed; 0 at once)`,
  sparse: 'a nearly empty workspace: 2 customers (one phone-only), few conversations, small pools',
};

/** True for the name of a world. */
export function isWorldName(name: string): name is WorldName {
  return (WORLD_NAMES as readonly string[]).includes(name);
}

/**
 * Parses world specs (`big`, `big=12000`, `drifting=2s`, comma lists, any number of them). Throws a
 * RangeError with a one-line message for an unknown name or a bad option; the CLI turns it into a usage error.
 */
export function parseWorlds(specs: readonly string[]): Worlds {
  const out: Worlds = {};
  for (const spec of specs
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = spec.indexOf('=');
    const name = eq < 0 ? spec : spec.slice(0, eq);
    const value = eq < 0 ? undefined : spec.slice(eq + 1);
    if (!isWorldName(name)) throw new RangeError(`unknown world "${name}"; valid worlds: ${WORLD_NAMES.join(', ')}`);
    switch (name) {
      case 'big':
        out.big = { customers: value === undefined ? WORLD_DEFAULTS.bigCustomers : count(value, spec) };
        break;
      case 'busy':
        out.busy = { intervalMs: value === undefined ? WORLD_DEFAULTS.busyIntervalMs : Math.max(1, duration(value, spec, 'ms')) };
        break;
      case 'drifting':
        out.drifting = { afterMs: value === undefined ? WORLD_DEFAULTS.driftAfterMs : duration(value, spec, 's') };
        break;
      case 'sparse':
        if (value !== undefined) throw new RangeError(`world "sparse" takes no option (got "${spec}")`);
        out.sparse = {};
        break;
    }
  }
  return out;
}

/** The worlds as the specs that would make them again (for notes and target names). */
export function formatWorlds(w: Worlds): string[] {
  const out: string[] = [];
  if (w.big) out.push(`big=${w.big.customers}`);
  if (w.busy) out.push(`busy=${w.busy.intervalMs}ms`);
  if (w.drifting) out.push(`drifting=${w.drifting.afterMs}ms`);
  if (w.sparse) out.push('sparse');
  return out;
}

/** A whole number of customers, at most a million (memory stays bounded). */
function count(value: string, spec: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n > 1_000_000)
    throw new RangeError(`world "${spec}": the count must be a whole number from 0 to 1000000`);
  return n;
}

/** A duration in ms from `250ms`, `2s` or a bare number in `unit`. */
function duration(value: string, spec: string, unit: 'ms' | 's'): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value);
  if (!m) throw new RangeError(`world "${spec}": the option must be a duration such as 500ms or 2s`);
  const ms = Number(m[1]) * ((m[2] ?? unit) === 's' ? 1000 : 1);
  if (ms > 86_400_000) throw new RangeError(`world "${spec}": the duration must be at most one day`);
  return Math.round(ms);
}
