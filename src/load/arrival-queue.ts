/**
 * The open model's queue of arrivals waiting for a connection: their intended send times, first in first
 * out, in a growing ring of doubles (Array.shift would move every waiting arrival on each send).
 */
export class ArrivalQueue {
  private ring = new Float64Array(64);
  private head = 0;
  private n = 0;

  /** Arrivals waiting. */
  get length(): number {
    return this.n;
  }

  /** Adds an arrival intended at `t` ms. */
  push(t: number): void {
    if (this.n === this.ring.length) {
      const grown = new Float64Array(this.ring.length * 2);
      for (let i = 0; i < this.n; i++) grown[i] = this.ring[(this.head + i) % this.ring.length]!;
      this.ring = grown;
      this.head = 0;
    }
    this.ring[(this.head + this.n) % this.ring.length] = t;
    this.n++;
  }

  /** The oldest arrival's intended time (the queue must not be empty). */
  peek(): number {
    return this.ring[this.head]!;
  }

  /** Removes and returns the oldest arrival's intended time (the queue must not be empty). */
  shift(): number {
    const t = this.ring[this.head]!;
    this.head = (this.head + 1) % this.ring.length;
    this.n--;
    return t;
  }

  /** Forgets every arrival. */
  clear(): void {
    this.head = 0;
    this.n = 0;
  }
}
