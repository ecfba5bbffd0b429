/**
 * The shrink's acceptance rule, apart from any I/O. A rate-limit violation can be probabilistic (which of
 * several replicas answers is not the client's choice), so "does this smaller schedule still reproduce?"
 * is a statistical question. It is answered with Wald's sequential probability ratio test between
 *
 *   H1: the candidate reproduces as often as the original  (p = p1, the original's measured rate)
 *   H0: it reproduces at most 70 % as often                 (p = p0 = 0.7 p1)
 *
 * attempt by attempt: each reproduction adds ln(p1/p0) to the log-likelihood ratio, each miss
 * ln((1−p1)/(1−p0)); the candidate is accepted when the ratio reaches ln((1−β)/α) and rejected when it falls
 * to ln(β/(1−α)). Wald's bounds: a candidate that reproduces 70 % as often is accepted with probability at
 * most about α, one as good as the original rejected with probability at most about β. Not half as often:
 * the final measurement holds the result to the original's rate less one attempt in ten, and against a
 * store per replica the search kept schedules reproducing 2 to 8 times in 10 on four reproductions each
 * (0.8⁴ = 41 %), which the final measurement then dropped, backing off to a schedule half the original.
 * Attempts are spent where the decision is close: a schedule that never reproduces is rejected on its first
 * miss, a clearly good one accepted after a few reproductions, a borderline one measured up to
 * `maxAttempts` (then rejected: undecided is not accepted), and no further than the attempts left can still
 * bring it to acceptance. Pure.
 */

/** One measured rate: reproductions out of attempts. */
export interface Rate {
  reproduced: number;
  attempts: number;
}

export interface AcceptanceRule {
  /** H0: the candidate reproduces at most this share of the rate it is held to (0.7). */
  h0Share: number;
  /** At most this probability of accepting a candidate that reproduces h0Share as often as it must (H0). */
  alpha: number;
  /** At most this probability of rejecting a candidate as good as the original. */
  beta: number;
  /** Attempts per candidate at the most; a test still undecided then rejects. */
  maxAttempts: number;
}

/** The defaults `spgate shrink` uses (docs/rate-limits.md states them with the measured error rates). */
export const DEFAULT_RULE: AcceptanceRule = { h0Share: 0.7, alpha: 0.1, beta: 0.1, maxAttempts: 12 };

/**
 * The reproduction rate worth handing over: a limiter's authors who run it once should see the bug 9
 * times in 10. A candidate is held to this even when the original reproduced less often (which replica
 * answers is not the client's choice): the search then keeps only schedules more reliable than the
 * original, and the original stays the result when none is.
 */
export const RELIABLE = 0.9;

/**
 * The rate a candidate is held to: the original's measured rate, at least RELIABLE, and at most 0.97 so
 * that one miss is not read as impossible (a rate of 1 would make any miss final).
 */
export function heldRate(original: Rate): number {
  const p = original.attempts > 0 ? original.reproduced / original.attempts : 0;
  return Math.min(0.97, Math.max(RELIABLE, p));
}

export type Decision = 'accept' | 'reject' | 'continue';

/** A sequential test for one candidate: feed it each attempt's outcome until it decides. */
export class SequentialTest {
  private llr = 0;
  private n = 0;
  private k = 0;
  private readonly up: number;
  private readonly down: number;
  private readonly hit: number;
  private readonly miss: number;

  constructor(
    private readonly p1: number,
    private readonly rule: AcceptanceRule = DEFAULT_RULE,
  ) {
    const p0 = p1 * rule.h0Share;
    this.hit = Math.log(p1 / p0);
    this.miss = Math.log((1 - p1) / (1 - p0));
    this.up = Math.log((1 - rule.beta) / rule.alpha);
    this.down = Math.log(rule.beta / (1 - rule.alpha));
  }

  /** Records one attempt; returns the decision so far. */
  record(reproduced: boolean): Decision {
    this.n += 1;
    if (reproduced) this.k += 1;
    this.llr += reproduced ? this.hit : this.miss;
    return this.decision();
  }

  /**
   * accept / reject once a bound is crossed, else continue; reject too once the acceptance bound is out of
   * reach in the attempts left (every one of them a reproduction would not get there), since the test
   * would end undecided and so rejected: the same decision, without the attempts that cannot change it
   * (one miss after a reproduction, held to 97 %, used to cost all 8).
   */
  decision(): Decision {
    if (this.llr >= this.up) return 'accept';
    const left = this.rule.maxAttempts - this.n;
    if (this.llr <= this.down || left <= 0 || this.llr + left * this.hit < this.up) return 'reject';
    return 'continue';
  }

  /** The attempts so far. */
  rate(): Rate {
    return { reproduced: this.k, attempts: this.n };
  }

  /** The rate the test holds candidates to (for messages). */
  held(): number {
    return this.p1;
  }
}

/**
 * Wilson score interval of a rate at ~95 % (z = 1.96): how sure a measured k of n is. Used to state the
 * original's rate and the final one with their bounds.
 */
export function wilson(r: Rate, z = 1.96): { low: number; high: number } {
  if (r.attempts === 0) return { low: 0, high: 1 };
  const n = r.attempts;
  const p = r.reproduced / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { low: Math.max(0, c - h), high: Math.min(1, c + h) };
}

/** "9/10 (95 % interval 60–98 %)". */
export function formatRate(r: Rate): string {
  const { low, high } = wilson(r);
  return `${r.reproduced}/${r.attempts} (95 % interval ${Math.round(low * 100)}–${Math.round(high * 100)} %)`;
}
