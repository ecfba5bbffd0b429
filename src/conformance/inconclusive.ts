/**
 * A check that ran but could not observe what it exists for (no item in the right state, a list that fits
 * on one page, every generated input refused, a read that did not succeed) is inconclusive: never passed,
 * never failed. It says why, and what would let it judge (the target-file line, the pool, the command).
 */

/** Thrown inside a check that cannot reach a verdict; the runner reports it as `inconclusive`. */
export class Inconclusive extends Error {
  /**
   * @param reason what the check could not observe, and why
   * @param remedy what to add or change (a target-file line, a pool item) so that the check can judge
   */
  constructor(
    reason: string,
    readonly remedy?: string,
  ) {
    super(reason);
    this.name = 'Inconclusive';
  }
}

/** Throws Inconclusive: the check stops here without a verdict. */
export function inconclusive(reason: string, remedy?: string): never {
  throw new Inconclusive(reason, remedy);
}
