/** Small helpers for writing checks: collect failures, compare statuses, describe responses. */
import type { Exchange } from '../client/exchange.js';
import { describeBody, errorCode } from '../checks/envelope.js';
import type { ClauseViolation } from '../checks/envelope.js';
import type { ClauseId } from '../spec/clauses.js';
import type { CheckFailure, CheckOutcome } from './suite.js';

/** "HTTP 401 (code x) — body" for an exchange, or the transport error. */
export function describeAnswer(x: Exchange): string {
  if (!x.response) return `no response (${x.error?.kind ?? '?'}: ${x.error?.message ?? ''})`;
  const code = errorCode(x);
  return `HTTP ${x.response.status}${code !== undefined ? ` (code ${code})` : ''} — ${describeBody(x)}`;
}

/** A failure unless the response status is one of `statuses`. */
export function expectStatus(x: Exchange, statuses: number | readonly number[], what: string, clause?: ClauseId): CheckFailure | undefined {
  const list = typeof statuses === 'number' ? [statuses] : statuses;
  if (x.response && list.includes(x.response.status)) return undefined;
  return { expected: `${what}: HTTP ${list.join(' or ')}`, actual: describeAnswer(x), exchanges: [x], ...(clause ? { clause } : {}) };
}

/** A ClauseViolation as a CheckFailure with its exchanges. */
export function fromViolation(v: ClauseViolation, exchanges: Exchange[]): CheckFailure {
  return { clause: v.clause, expected: v.expected, actual: v.actual, exchanges };
}

/** Collects failures and counts cases over deterministic (non-property) checks. */
export class Tally {
  readonly failures: CheckFailure[] = [];
  cases = 0;

  /** Counts one case and keeps its failure, if any. */
  add(f: CheckFailure | undefined): void {
    this.cases++;
    if (f) this.failures.push(f);
  }

  /** Merges a sub-outcome (e.g. a property) into this tally. */
  merge(o: CheckOutcome): void {
    if (o.status === 'skipped') return;
    this.cases += o.cases;
    if (o.status === 'failed') this.failures.push(...o.failures);
  }

  /** passed or failed. */
  outcome(): CheckOutcome {
    return this.failures.length ? { status: 'failed', cases: this.cases, failures: this.failures } : { status: 'passed', cases: this.cases };
  }
}

/** Parses the JSON body as an object, or undefined. */
export function bodyObject(x: Exchange): Record<string, unknown> | undefined {
  const j = x.response?.json;
  return j && typeof j === 'object' && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
}
