/**
 * Tampering with opaque list cursors, for the "malformed or tampered cursor returns 400" property: bit
 * flips, truncation, re-padding, re-encoded payloads, appended garbage and random strings. Pure.
 */
import fc from 'fast-check';

export type Tamper =
  | { kind: 'flip'; pos: number; bit: number }
  | { kind: 'truncate'; keep: number }
  | { kind: 'repad'; drop: number }
  | { kind: 'reencode'; leaf: number }
  | { kind: 'append'; text: string }
  | { kind: 'random'; text: string };

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const cursorChar = fc.constantFrom(...`${B64URL}.=`.split(''));

/** Arbitrary tampering recipes (applied to whatever valid cursor the target issued). */
export const tamperArb: fc.Arbitrary<Tamper> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), pos: fc.nat(), bit: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('repad' as const), drop: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('reencode' as const), leaf: fc.nat() }),
  fc.record({ kind: fc.constant('append' as const), text: fc.string({ unit: cursorChar, minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('random' as const), text: fc.string({ unit: cursorChar, minLength: 1, maxLength: 80 }) }),
);

function decodeSegment(seg: string): Buffer {
  return Buffer.from(seg.replace(/=+$/, ''), 'base64url');
}

/** Changes one leaf of a JSON value (numbers +1, strings get a character, booleans flip). */
function changeLeaf(value: unknown, target: number): { value: unknown; changed: boolean } {
  let i = 0;
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (changed) return v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') {
      if (i++ !== target) return v;
      changed = true;
      return typeof v === 'number' ? v + 1 : typeof v === 'string' ? `${v}x` : !v;
    }
    return v;
  };
  const out = walk(value);
  return { value: out, changed };
}

function countLeaves(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countLeaves(x), 0);
  if (v && typeof v === 'object') return Object.values(v).reduce((n: number, x) => n + countLeaves(x), 0);
  return typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? 1 : 0;
}

/** Re-encodes the cursor's first base64url segment with one payload value changed (or one byte, if not JSON). */
function reencode(valid: string, leaf: number): string {
  const dot = valid.indexOf('.');
  const head = dot < 0 ? valid : valid.slice(0, dot);
  const rest = dot < 0 ? '' : valid.slice(dot);
  const bytes = decodeSegment(head);
  try {
    const json: unknown = JSON.parse(bytes.toString('utf8'));
    const leaves = countLeaves(json);
    if (leaves > 0) {
      const { value } = changeLeaf(json, leaf % leaves);
      return Buffer.from(JSON.stringify(value)).toString('base64url') + rest;
    }
  } catch {
    // not JSON: change a byte instead
  }
  if (bytes.length === 0) return `${valid}A`;
  const copy = Buffer.from(bytes);
  copy[leaf % copy.length] = copy[leaf % copy.length]! ^ 1;
  return copy.toString('base64url') + rest;
}

/** Applies a tampering recipe to a valid cursor. */
export function applyTamper(valid: string, t: Tamper): string {
  switch (t.kind) {
    case 'flip': {
      if (valid.length === 0) return 'A';
      const pos = t.pos % valid.length;
      const idx = B64URL.indexOf(valid[pos]!);
      const ch = idx < 0 ? 'A' : B64URL[(idx ^ (1 << t.bit)) % 64]!;
      return valid.slice(0, pos) + ch + valid.slice(pos + 1);
    }
    case 'truncate':
      return valid.slice(0, valid.length <= 1 ? 0 : 1 + (t.keep % (valid.length - 1)));
    case 'repad': {
      const cut = valid.slice(0, Math.max(1, valid.length - t.drop));
      return cut + '='.repeat((4 - (cut.length % 4)) % 4 || 2);
    }
    case 'reencode':
      return reencode(valid, t.leaf);
    case 'append':
      return valid + t.text;
    case 'random':
      return t.text;
  }
}

/**
 * True when two cursors carry the same information: the same text, or the same bytes in every
 * '.'-separated base64url segment (a lenient decoder cannot tell them apart, so accepting is no finding).
 */
export function equivalentCursors(a: string, b: string): boolean {
  if (a === b) return true;
  const sa = a.split('.');
  const sb = b.split('.');
  if (sa.length !== sb.length) return false;
  const clean = (s: string): boolean => /^[A-Za-z0-9_-]*=*$/.test(s);
  if (![...sa, ...sb].every(clean)) return false;
  return sa.every((s, i) => decodeSegment(s).equals(decodeSegment(sb[i]!)));
}
