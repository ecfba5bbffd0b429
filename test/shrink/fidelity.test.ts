import { describe, expect, it } from 'vitest';
import { fidelityOf, formatFidelity } from '../../src/shrink/fidelity.js';

describe('fidelityOf', () => {
  it('gives nearest-rank percentiles of the absolute send-time errors', () => {
    const f = fidelityOf([...Array.from({ length: 98 }, () => 1), 10, -20]);
    expect(f).toEqual({ count: 100, p50: 1, p95: 1, p99: 10, max: 20 });
    expect(formatFidelity(f)).toBe('send-time error p50 1 ms, p95 1 ms, p99 10 ms, max 20 ms (100 requests)');
  });
  it('is zero with nothing measured', () => {
    expect(fidelityOf([])).toEqual({ count: 0, p50: 0, p95: 0, p99: 0, max: 0 });
  });
});
