/**
 * Resolve from every state (spec part 3: the resolve rows start from state "any"). Pure: which resolves
 * to send from a completed-type status so every completed key is a starting state of both forms (without
 * `status`, and with a completed key), and a record of which starting states a run actually covered, so a
 * run that met only one kind of state says so instead of passing as "every state".
 *
 * Active-type states cannot be produced through any shown operation (resolve only leaves them), so they
 * are covered only as far as the pool conversations handed to the check start in them; a run that met none
 * did not judge "from any state" (inconclusive).
 */
import type { ResolveBody } from './requests.js';

export type StartType = 'active' | 'completed' | 'unknown';
export type ResolveForm = 'default' | 'key';

/** One resolve of a walk: the body sent and the status it must lead to, from the previous step's status. */
export interface ResolveStep {
  body: ResolveBody;
  expected: string;
}

/** The type of a status key: from the active and completed key lists, else unknown (still resolvable). */
export function typeOfStatus(status: string, active: readonly string[], completed: readonly string[]): StartType {
  if (active.includes(status)) return 'active';
  return completed.includes(status) ? 'completed' : 'unknown';
}

/** The form of a body: without `status` (→ the default completed status) or with a completed key. */
export function formOf(body: ResolveBody): ResolveForm {
  return body.status === undefined ? 'default' : 'key';
}

/** The status a resolve with `body` must lead to. */
export function expectedStatus(body: ResolveBody, defaultCompleted: string): string {
  return body.status ?? defaultCompleted;
}

/**
 * Steps that make every completed key a starting state of both forms, from a conversation now in a
 * completed status: first a key walk (each key resolved from the previous one, ending back at the first),
 * then, per key, a move to it and a resolve without status from it. 3·n + 1 requests at most for n keys.
 */
export function completedWalk(completed: readonly string[], defaultCompleted: string): ResolveStep[] {
  const keys = [...new Set(completed)];
  if (keys.length === 0) return [];
  const steps: ResolveStep[] = [];
  const key = (status: string): void => void steps.push({ body: { status }, expected: status });
  for (const k of [...keys, keys[0]!]) key(k);
  let at = keys[0]!;
  for (const k of keys) {
    if (at !== k) key(k);
    steps.push({ body: {}, expected: defaultCompleted });
    at = defaultCompleted;
  }
  return steps;
}

/** Which starting states a run covered, with which forms, and whether each passed. */
export class ResolveCoverage {
  private readonly seen = new Map<string, { type: StartType; forms: Set<ResolveForm>; failed: boolean }>();

  /** Records one resolve from `start`. */
  add(start: string, type: StartType, form: ResolveForm, ok: boolean): void {
    const entry = this.seen.get(start) ?? { type, forms: new Set<ResolveForm>(), failed: false };
    entry.forms.add(form);
    entry.failed ||= !ok;
    this.seen.set(start, entry);
  }

  /** The starting types met at least once. */
  types(): Set<StartType> {
    return new Set([...this.seen.values()].map((e) => e.type));
  }

  /** "open (active: without status), resolved (completed: without status, with a key)". */
  summary(): string {
    const forms = (f: Set<ResolveForm>): string =>
      [...f]
        .sort()
        .map((x) => (x === 'default' ? 'without status' : 'with a key'))
        .join(', ');
    return [...this.seen].map(([s, e]) => `${s} (${e.type}: ${forms(e.forms)})`).join('; ') || 'none';
  }

  /** The starting types (active, completed) not met: while one is missing, "from any state" is not judged. */
  missing(): Array<'active' | 'completed'> {
    const t = this.types();
    return (['active', 'completed'] as const).filter((x) => !t.has(x));
  }

  /** What the run covered, and — when a starting type was not met — why (the inconclusive reason). */
  note(poolShort: boolean): string {
    const missing = this.missing();
    const head = `starting states covered: ${this.summary()}`;
    if (missing.length === 0) return head;
    const why = poolShort
      ? 'fixtures.ids.pools.conversations ran out'
      : `no pool conversation handed to the check started in an ${missing.join(' or ')}-type status`;
    return `${head}. NOT every state: no ${missing.join(' or ')}-type starting state was met (${why})`;
  }
}
