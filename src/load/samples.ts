/**
 * The compact per-response record of a load run: typed-array columns that grow by doubling, so the hot
 * path (one call per response) only copies numbers and keeps the raw header strings it must keep.
 * Integral header values are stored as numbers; anything else (absent, negative, padded, duplicated) keeps
 * its raw string on the side, so verification and the analyzer still see exactly what the server sent.
 */

import type { RateLimitSample } from '../ratelimit/sample.js';

/** Header slots of a sample, in the order of the int column. */
export const H_LIMIT = 0;
export const H_REMAINING = 1;
export const H_RESET = 2;
export const H_RETRY_AFTER = 3;

const ABSENT = -1;
const RAW = -2;

/** One response as the engines hand it over: the analyzer's raw header fields plus the engine's own. */
export interface SampleInput extends Pick<RateLimitSample, 'limit' | 'remaining' | 'reset' | 'retryAfter' | 'requestId' | 'errorCode'> {
  route: number;
  /** ms since start when the request should have gone out (open model); NaN in the closed model. */
  intended: number;
  sent: number;
  received: number;
  /** 0 for a transport failure. */
  status: number;
  error?: string;
}

function toSlot(raw: string | undefined): number {
  if (raw === undefined) return ABSENT;
  const n = raw.length > 0 && raw.length < 10 && !(raw.length > 1 && raw[0] === '0') && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isNaN(n) ? RAW : n;
}

export class SampleBuffer {
  length = 0;
  private cap: number;
  route: Uint16Array;
  intended: Float64Array;
  sent: Float64Array;
  received: Float64Array;
  status: Uint16Array;
  headers: Int32Array;
  requestIds: Array<string | undefined> = [];
  /** Raw header strings that are not plain integers, keyed by index * 4 + slot. */
  rawHeaders = new Map<number, string>();
  errorCodes = new Map<number, string>();
  errors = new Map<number, string>();

  constructor(initial = 4096) {
    this.cap = initial;
    this.route = new Uint16Array(initial);
    this.intended = new Float64Array(initial);
    this.sent = new Float64Array(initial);
    this.received = new Float64Array(initial);
    this.status = new Uint16Array(initial);
    this.headers = new Int32Array(initial * 4);
  }

  private grow(): void {
    const cap = this.cap * 2;
    const g = <T extends Uint16Array | Float64Array | Int32Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.route = g(this.route, cap);
    this.intended = g(this.intended, cap);
    this.sent = g(this.sent, cap);
    this.received = g(this.received, cap);
    this.status = g(this.status, cap);
    this.headers = g(this.headers, cap * 4);
    this.cap = cap;
  }

  /** Appends one response; returns its index. */
  push(s: SampleInput): number {
    if (this.length === this.cap) this.grow();
    const i = this.length++;
    this.route[i] = s.route;
    this.intended[i] = s.intended;
    this.sent[i] = s.sent;
    this.received[i] = s.received;
    this.status[i] = s.status;
    const base = i * 4;
    this.setHeader(base + H_LIMIT, s.limit);
    this.setHeader(base + H_REMAINING, s.remaining);
    this.setHeader(base + H_RESET, s.reset);
    this.setHeader(base + H_RETRY_AFTER, s.retryAfter);
    this.requestIds[i] = s.requestId;
    if (s.errorCode !== undefined) this.errorCodes.set(i, s.errorCode);
    if (s.error !== undefined) this.errors.set(i, s.error);
    return i;
  }

  private setHeader(slot: number, raw: string | undefined): void {
    const v = toSlot(raw);
    this.headers[slot] = v;
    if (v === RAW) this.rawHeaders.set(slot, raw!);
  }

  /** The raw header string as the server sent it (undefined when absent). */
  header(i: number, slot: number): string | undefined {
    const v = this.headers[i * 4 + slot]!;
    if (v === ABSENT) return undefined;
    if (v === RAW) return this.rawHeaders.get(i * 4 + slot);
    return String(v);
  }

  /** Latency from the actual send, in ms. */
  latency(i: number): number {
    return this.received[i]! - this.sent[i]!;
  }

  /** Latency from the intended send time (coordinated-omission corrected), in ms; falls back to actual. */
  correctedLatency(i: number): number {
    const t = this.intended[i]!;
    return this.received[i]! - (Number.isNaN(t) ? this.sent[i]! : t);
  }
}
