/** The set of faults currently switched on; replaced as a whole by setFaults, read with one Set lookup. */
import type { FaultName } from './faults.js';

export class FaultSet {
  private active = new Set<FaultName>();

  constructor(initial: readonly FaultName[] = []) {
    this.set(initial);
  }

  /** True when the named fault is on. */
  has(name: FaultName): boolean {
    return this.active.has(name);
  }

  /** True when no fault is on (the hot paths cache answers only then). */
  get none(): boolean {
    return this.active.size === 0;
  }

  /** Replaces the active faults. */
  set(names: readonly FaultName[]): void {
    this.active = new Set(names);
  }

  /** The active faults, for display. */
  list(): FaultName[] {
    return [...this.active];
  }
}
