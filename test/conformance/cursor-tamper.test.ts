/** Cursor tampering: every recipe changes the cursor, and equivalence is judged on decoded bytes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyTamper, equivalentCursors, tamperArb } from '../../src/conformance/cursor-tamper.js';

const cursorArb = fc
  .tuple(fc.uint8Array({ minLength: 1, maxLength: 60 }), fc.uint8Array({ minLength: 1, maxLength: 18 }))
  .map(([a, b]) => `${Buffer.from(a).toString('base64url')}.${Buffer.from(b).toString('base64url')}`);

describe('cursor tampering', () => {
  it('apart from equivalent encodings, a tampered cursor differs from the valid one', () => {
    fc.assert(
      fc.property(cursorArb, tamperArb, (valid, t) => {
        const bad = applyTamper(valid, t);
        if (t.kind !== 'random') expect(bad).not.toBe(valid);
        if (bad !== valid && equivalentCursors(valid, bad)) {
          // only bits that decode to nothing may change: the bytes must be the same
          const dec = (c: string) =>
            c
              .split('.')
              .map((s) => Buffer.from(s, 'base64url').toString('hex'))
              .join('.');
          expect(dec(bad)).toBe(dec(valid));
        }
      }),
    );
  });

  it('re-encoding changes a JSON payload value and keeps it decodable', () => {
    const valid = `${Buffer.from(JSON.stringify({ p: { t: 5, i: 'cus_1' } })).toString('base64url')}.sig`;
    const bad = applyTamper(valid, { kind: 'reencode', leaf: 0 });
    expect(JSON.parse(Buffer.from(bad.split('.')[0]!, 'base64url').toString())).toEqual({ p: { t: 6, i: 'cus_1' } });
    expect(equivalentCursors(valid, bad)).toBe(false);
  });
});
