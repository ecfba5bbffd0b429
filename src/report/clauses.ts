/** Clause lookups for reports: labels, spec part grouping, summaries (unknown ids degrade gracefully). */
import { CLAUSES, type Clause } from '../spec/clauses.js';

const BY_ID = new Map<string, Clause>(CLAUSES.map((c) => [c.id, c]));

export const PART_TITLES: Record<number, string> = {
  1: 'What the service does',
  2: 'Resources and their fields',
  3: 'States and transitions',
  4: 'Endpoints',
  5: 'Authentication',
  6: 'Events',
  7: 'Errors',
  8: 'Limits',
  9: 'Versioning',
};

/** The registered clause, if the id is known. */
export function findClause(id: string): Clause | undefined {
  return BY_ID.get(id);
}

/** "§4.4 4.4.cursor.tampered" — section and id, or just the id when unregistered. */
export function clauseLabel(id: string): string {
  const c = BY_ID.get(id);
  return c ? `${c.section} ${id}` : id;
}

/**
 * The spec part a clause belongs to: the leading number of its id, else of its section ("§4.7 §4.8" → 4);
 * 0 when neither says.
 */
export function clausePart(id: string): number {
  const lead = /^(\d)/.exec(id);
  if (lead) return Number(lead[1]);
  const sec = BY_ID.get(id)?.section;
  const m = sec ? /§(\d)/.exec(sec) : null;
  return m ? Number(m[1]) : 0;
}
