/**
 * The analyzer against the embedded reference server: the clean limiter gives no violation and each
 * load-side rate-limit fault is reported under the clause the fault catalogue names.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import type { RateLimitSample } from '../../src/ratelimit/sample.js';
import { FAULTS, startReferenceServer, type FaultName } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/load.js';

/**
 * 60 requests, 41 ms apart on the server's clock: a fake one the loop moves, so the server's windows and the
 * samples' times are exactly the schedule's (each answer 1 ms after its send) and nothing waits on the wall.
 */
async function drive(fault: FaultName | undefined): Promise<RateLimitSample[]> {
  const t0 = Date.now();
  let now = t0;
  const srv = await startReferenceServer({
    port: 0,
    seed: 1,
    budgets: { read: 6, write: 6, windowSeconds: 1 },
    faults: fault ? [fault] : [],
    clock: () => now,
  });
  const target = targetFromInput(srv.target, 'embedded');
  const client = createClient({ baseUrl: target.baseUrl, secrets: target.secrets });
  const conv = target.fixtures.ids.conversationId!;
  const samples: RateLimitSample[] = [];
  try {
    // ~2.4 s at ~2.5x the budget; writes interleaved so class isolation is observable.
    for (let i = 0; i < 60; i++) {
      const write = i % 2 === 1;
      const sentAt = now - t0;
      now += 1;
      const x = await client.send(
        write
          ? { method: 'POST', path: `/conversations/${conv}/assign`, json: { team: 'spgate' }, role: 'admin' }
          : { method: 'GET', path: '/customers', role: 'admin' },
      );
      const s: RateLimitSample = {
        sentAt,
        receivedAt: now - t0,
        class: write ? 'write' : 'read',
        status: x.response?.status ?? 0,
      };
      for (const [field, name] of [
        ['limit', 'ratelimit-limit'],
        ['remaining', 'ratelimit-remaining'],
        ['reset', 'ratelimit-reset'],
        ['retryAfter', 'retry-after'],
        ['requestId', 'x-request-id'],
      ] as const) {
        const v = x.response?.headers[name];
        if (v !== undefined) s[field] = Array.isArray(v) ? v.join(', ') : v;
      }
      const code = (x.response?.json as { error?: { code?: unknown } } | undefined)?.error?.code;
      if (typeof code === 'string') s.errorCode = code;
      samples.push(s);
      now += 40;
    }
  } finally {
    await client.close();
    await srv.close();
  }
  return samples;
}

describe('reference server rate limiting', () => {
  it('the clean limiter gives zero violations', async () => {
    const a = analyzeRateLimits(await drive(undefined));
    expect(a.violations).toEqual([]);
    expect(a.classes.map((c) => c.observedLimit)).toEqual([6, 6]);
  });

  const faults: FaultName[] = ['ratelimit-over-admit', 'ratelimit-shared-classes', 'ratelimit-no-restore', 'ratelimit-reset-ms'];
  for (const fault of faults) {
    it(`${fault} is reported as ${FAULTS[fault].catches}`, async () => {
      const a = analyzeRateLimits(await drive(fault));
      expect(a.violations.map((v) => v.rule)).toContain(FAULTS[fault].catches);
    });
  }
});
