/**
 * The open model's guard for caps.maxRps over a sliding window: at most k sends in any window of
 * 1000·k/maxRps ms (k = max(1, floor(maxRps))). Calendar-second buckets would let 2 × maxRps through
 * around a bucket boundary; a sliding window does not, whenever the server looks.
 */
export class RateGate {
  private readonly k: number;
  private readonly windowMs: number;
  /** Send times of the last k sends (ring buffer). */
  private readonly ring: number[];
  private next = 0;
  private filled = 0;

  constructor(maxRps: number) {
    this.k = Math.max(1, Math.floor(maxRps));
    this.windowMs = (1000 * this.k) / maxRps;
    this.ring = new Array<number>(this.k).fill(0);
  }

  /** Takes a send slot at `now` (ms) when the window allows one; false means wait. */
  tryTake(now: number): boolean {
    if (this.filled === this.k && now - this.ring[this.next]! < this.windowMs) return false;
    this.ring[this.next] = now;
    this.next = (this.next + 1) % this.k;
    if (this.filled < this.k) this.filled++;
    return true;
  }

  /** When the next slot opens (ms; at most `now` when one is open). */
  availableAt(): number {
    return this.filled === this.k ? this.ring[this.next]! + this.windowMs : 0;
  }
}
