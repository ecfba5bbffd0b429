/**
 * Seeded pseudo-random numbers for the reference server. Ids, keys and seed data come from separate
 * streams so that the number of requests served never changes which ids the data gets.
 */

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A small, fast, seedable generator (mulberry32); not for cryptography. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = (seed >>> 0) ^ 0x9e3779b9;
  }

  /** Next float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** A base62 token of the given length. */
  token(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[this.int(62)];
    return out;
  }

  /** An id with a resource prefix, e.g. "cus_" + 16 characters. */
  id(prefix: string): string {
    return prefix + this.token(16);
  }

  /** A derived generator, so sub-streams do not disturb each other. */
  fork(salt: number): Prng {
    return new Prng(Math.floor(this.next() * 4294967296) ^ salt);
  }
}
