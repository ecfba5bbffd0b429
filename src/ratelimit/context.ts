/**
 * What the rules know about one budget beyond its samples: the budget, the window, how Reset is rounded,
 * the inferred model and windows. Built once per group by analyze.ts.
 */
import type { Group } from './group.js';
import type { ParsedSample } from './parsed.js';
import type { Segment } from './segments.js';

export type Model = 'fixed-window' | 'sliding-window' | 'token-bucket' | 'unknown';

export interface BudgetContext {
  group: Group;
  /** The other class's group for the same key, when there is one (for the isolation rule). */
  other: Group | undefined;
  /** Budget per window: expected (target file) or the observed Limit; used to count admissions. */
  limit: number | null;
  /** The Limit the responses announced (most frequent); Remaining/Reset claims are read against it. */
  announcedLimit: number | null;
  /** Window length in ms: expected, or inferred; null when unknown. */
  windowMs: number | null;
  /** A window no longer than the true one (ms), for the model-free bounds (bounds.ts); null when unknown. */
  boundWindowMs: number | null;
  /** Extra ms allowed after a Reset/Retry-After claim: 1000 when the limiter rounds down, else 0. */
  roundingSlackMs: number;
  model: Model;
  /** Refill-delimited segments in sentAt order (windows, for a fixed-window limiter). */
  segments: Segment[];
  /** The window a sample falls in, for reports: its segment (fixed windows) or its tile of windowMs. */
  windowOf(s: ParsedSample): { start: number; end: number } | undefined;
}

/** Allowance for timer granularity between the client's and the server's clocks. */
export const CLOCK_EPS_MS = 5;

/** The latest time the budget may become full again according to a response's Reset. */
export function claimedFullAt(ctx: BudgetContext, receivedAt: number, resetSeconds: number): number {
  return receivedAt + resetSeconds * 1000 + ctx.roundingSlackMs + CLOCK_EPS_MS;
}
