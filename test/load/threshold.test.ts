import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compare, evaluateThreshold, parseThreshold, type ThresholdContext, type ThresholdOp } from '../../src/fold/threshold.js';

const OPS: ThresholdOp[] = ['<', '<=', '>', '>=', '==', '!='];

function ctx(over: Partial<ThresholdContext> = {}): ThresholdContext {
  return { latency: () => 100, count: () => 0, errorRate: () => 0, rps: () => 10, ...over };
}

describe('parseThreshold', () => {
  it('parses latency with units, classes and families', () => {
    const t = parseThreshold('read.2xx.p99 <= 1.5s');
    expect(t).toEqual({
      ok: true,
      threshold: {
        kind: 'latency',
        expression: 'read.2xx.p99 <= 1.5s',
        class: 'read',
        family: '2xx',
        metric: 'p99',
        op: '<=',
        value: 1500,
      },
    });
    const u = parseThreshold('p95<250ms');
    expect(u.ok && u.threshold.kind === 'latency' && u.threshold.value).toBe(250);
  });

  it('parses rates as fractions and counts without units', () => {
    const e = parseThreshold('errors < 1%');
    expect(e.ok && e.threshold.value).toBe(0.01);
    const c = parseThreshold('write.429 > 0');
    expect(c.ok && c.threshold.kind === 'count' && c.threshold.class).toBe('write');
    expect(parseThreshold('ratelimit.violations == 0').ok).toBe(true);
  });

  it('rejects malformed expressions with a reason', () => {
    for (const bad of [
      'p95 250ms',
      'p95 < fast',
      'latency < 1ms',
      '5xx < 1%',
      'errors < 3ms',
      'read.ratelimit.violations == 0',
      'p95 < 1%',
      '2xx.errors < 1',
    ]) {
      const r = parseThreshold(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error).toContain(bad);
    }
  });

  it('round-trips any well-formed expression (property)', () => {
    const sel = fc.constantFrom('p50', 'p95', 'p99', 'p999', 'max', 'read.p95', 'write.429.p99', 'read.other.mean');
    fc.assert(
      fc.property(sel, fc.constantFrom(...OPS), fc.integer({ min: 0, max: 100_000 }), fc.constantFrom('ms', 's'), (s, op, n, unit) => {
        const r = parseThreshold(`${s} ${op} ${n}${unit}`);
        expect(r.ok).toBe(true);
        if (r.ok) {
          expect(r.threshold.op).toBe(op);
          expect(r.threshold.value).toBe(unit === 's' ? n * 1000 : n);
        }
      }),
    );
  });
});

describe('evaluateThreshold', () => {
  it('agrees with the direct comparison for every latency and operator (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OPS), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }), (op, limit, actual) => {
        const r = parseThreshold(`p95 ${op} ${limit}ms`);
        if (!r.ok) throw new Error(r.error);
        const out = evaluateThreshold(r.threshold, ctx({ latency: () => actual }));
        expect(out.ok).toBe(compare(actual, op, limit));
        expect(out.actual).toBe(`${actual}ms`);
      }),
    );
  });

  it('evaluates error rates in percent against fractions (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 100 }),
        (errors, total, pct) => {
          fc.pre(errors <= total);
          const r = parseThreshold(`errors < ${pct}%`);
          if (!r.ok) throw new Error(r.error);
          const out = evaluateThreshold(r.threshold, ctx({ errorRate: () => errors / total }));
          expect(out.ok).toBe(errors / total < pct / 100);
        },
      ),
    );
  });

  it('passes the class through to the context and names breaches', () => {
    const r = parseThreshold('read.429 == 0');
    if (!r.ok) throw new Error(r.error);
    const out = evaluateThreshold(r.threshold, ctx({ count: (m, c) => (m === '429' && c === 'read' ? 7 : 0) }));
    expect(out).toEqual({ expression: 'read.429 == 0', ok: false, actual: '7' });
  });

  it('holds vacuously when there is no latency data, but counts still count', () => {
    const p = parseThreshold('p99 < 1ms');
    if (!p.ok) throw new Error(p.error);
    expect(evaluateThreshold(p.threshold, ctx({ latency: () => null })).ok).toBe(true);
  });
});
