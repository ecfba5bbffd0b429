/**
 * Regression: the batch analyzer overflowed the call stack on a long trace without a window (no Reset
 * header and no stated budget), where the window row's end was taken with Math.max over every sample.
 */
import { describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import type { RateLimitSample } from '../../src/ratelimit/sample.js';

describe('a long trace without a window', () => {
  it('is analysed (one window row spanning the trace) instead of overflowing the stack', () => {
    const n = 300_000;
    const samples: RateLimitSample[] = [];
    for (let i = 0; i < n; i++)
      samples.push({
        sentAt: i * 0.05,
        receivedAt: i * 0.05 + 1,
        class: 'read',
        status: 200,
        limit: '1000000',
        remaining: String(1_000_000 - i),
        key: 'admin',
      });
    const a = analyzeRateLimits(samples);
    const read = a.classes.find((c) => c.class === 'read')!;
    expect(read.samples).toBe(n);
    expect(read.windows).toEqual([{ start: 0, end: (n - 1) * 0.05 + 1, admitted: n, refused: 0 }]);
  });
});
