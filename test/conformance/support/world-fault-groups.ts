/**
 * The faults worlds-faults*.test.ts runs in the busy and drifting worlds, in groups that share one server: a
 * fault set of check-faults.ts with the checks it names, and every other fault the conformance suites must
 * catch with the checks that judge its clause.
 */
import { FAULT_NAMES, FAULTS, type FaultName } from '../../../src/reference/faults.js';
import { SUITES } from '../../../suites/index.js';
import { CHECK_FAULT_BUDGETS as BUDGETS, CHECK_FAULTS, NEEDS_WINDOW_ROOM, SMALL_READ, SMALL_READ_BUDGET } from '../check-faults.js';

/** Every fault a conformance suite must catch (`by` 'conformance' or 'both'), derived from the fault table. */
export const JUDGED_FAULTS: FaultName[] = FAULT_NAMES.filter((f) => FAULTS[f].by === 'conformance' || FAULTS[f].by === 'both');

/**
 * Where a fault shows when no check of the catalogue has its clause as the check's own: measured, as
 * suite-faults-limits.test.ts's SHOWN_IN (the fault's finding carries its clause from a check of another).
 */
export const SHOWN_BESIDE_CLAUSE: Partial<Record<FaultName, string[]>> = {
  'limit-default-20': ['pagination.limit-bounds'],
  'timestamps-no-offset': ['shapes.customer'],
  'conversation-status-label': ['shapes.conversation'],
  'turn-unwrapped': ['shapes.turn'],
  'attachment-url-wrong-file': ['attachments.expiry'],
  'body-limit-code': ['limits.read-body', 'limits.write-body'],
  'collection-body-limit-code': ['limits.write-body-routes'],
  'ratelimit-429-code': ['limits.429', 'limits.429-read'],
  'ratelimit-reset-ms': ['limits.headers', 'limits.remaining-decreases', 'limits.429', 'limits.429-read'],
  'ratelimit-reset-epoch': ['limits.headers', 'limits.429', 'limits.429-read'],
  'ratelimit-remaining-negative': ['limits.429', 'limits.429-read'],
};

/**
 * Reset in milliseconds shows in limits.remaining-decreases by Reset falling faster than time over two answers
 * 1.1 s apart; a window ending between them hides it. An hour's window (as suite-faults-limits.test.ts) ends
 * there about once in 3,000 runs, and nothing waits it out.
 */
const ONE_HOUR: FaultName[] = ['ratelimit-reset-ms'];

export interface FaultGroup {
  /** The test's name: the fault set, and what the server needs. */
  key: string;
  faults: FaultName[];
  checks: string[];
  /** True: each check must fail (check-faults.ts); false: one of them must show the fault's clause. */
  each: boolean;
  budgets: { read: number; write: number; windowSeconds: number };
  /** Start the checks with at least 3 s left in the rate-limit window. */
  windowRoom: boolean;
}

function group(faults: FaultName[], checks: string[], each: boolean): FaultGroup {
  const hourly = faults.some((f) => ONE_HOUR.includes(f));
  const read = checks.some((c) => SMALL_READ_BUDGET.has(c)) ? SMALL_READ : BUDGETS.read;
  const windowRoom = !hourly && checks.some((c) => NEEDS_WINDOW_ROOM.has(c));
  const key = `${faults.join(' + ')}${read === BUDGETS.read ? '' : ' (small read budget)'}${windowRoom ? ' (window room)' : ''}${hourly ? ' (one-hour window)' : ''}`;
  const budgets = { ...BUDGETS, read, windowSeconds: hourly ? 3600 : BUDGETS.windowSeconds };
  return { key, faults, checks, each, budgets, windowRoom };
}

/** The catalogue's checks whose own clause is the fault's, else where it was measured to show. */
export function judging(fault: FaultName): string[] {
  const ids = SUITES.flatMap((s) => s.checks.filter((c) => c.clause === FAULTS[fault].catches).map((c) => c.id));
  return ids.length > 0 ? ids : (SHOWN_BESIDE_CLAUSE[fault] ?? []);
}

/** check-faults.ts's checks grouped by the fault set (and budgets) that must make them fail, then every other judged fault. */
function groups(): FaultGroup[] {
  const bySet = new Map<string, FaultGroup>();
  for (const [id, f] of Object.entries(CHECK_FAULTS)) {
    const g = group(typeof f === 'string' ? [f] : [...f], [id], true);
    const known = bySet.get(g.key);
    if (known) known.checks.push(id);
    else bySet.set(g.key, g);
  }
  const alone = new Set(Object.values(CHECK_FAULTS).filter((f): f is FaultName => typeof f === 'string'));
  const rest = JUDGED_FAULTS.filter((f) => !alone.has(f)).map((f) => group([f], judging(f), false));
  return [...bySet.values(), ...rest];
}

export const FAULT_GROUPS: FaultGroup[] = groups();
