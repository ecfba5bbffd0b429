/** Findings are data, not strings: reporters format them, nothing parses messages. */
import type { Basis } from '../spec/clauses.js';
import type { Exchange } from '../client/exchange.js';

export type Severity = 'error' | 'warning';

export interface Reproduction {
  /** Seed of the property run that found it, if any. */
  seed?: number;
  /** fast-check shrink path, if any. */
  path?: string;
  /** Copy-pasteable shell lines (curl with the key as $SPGATE_API_KEY). */
  curl: string[];
  /** Re-run command line for spgate itself. */
  command?: string;
}

export interface Finding {
  checkId: string;
  clause: string;
  basis: Basis;
  severity: Severity;
  title: string;
  expected: string;
  actual: string;
  /** Ids of exchanges (in the results' exchange list) that show it. */
  exchangeIds: string[];
  reproduction?: Reproduction;
  /** Where it came from: a suite name or a load profile name. */
  source: string;
}

/** What a pure check returns: nothing, or a violation to turn into a Finding. */
export interface Violation {
  expected: string;
  actual: string;
  exchangeIds?: string[];
}

/** A check over one or more exchanges: pure, synchronous, no I/O. */
export type Check<I> = (input: I) => Violation | undefined;

export type { Exchange };
