/** The search driver over a fake target: acceptance by reproduction rate, every bound, interruption. */
import { describe, expect, it } from 'vitest';
import { SpgateError } from '../../src/errors.js';
import type { RateLimitAnalysis } from '../../src/results/schema.js';
import type { Send } from '../../src/shrink/schedule.js';
import { asOftenAs, searchMinimal, type AttemptOutcome } from '../../src/shrink/search.js';

const SIG = { rule: '8.ratelimit.over-admission', class: 'read' as const };
const schedule: Send[] = Array.from({ length: 64 }, (_, i) => ({ t: i * 10, class: 'read', method: 'GET', path: '/me', key: 'admin' }));

/** A fake limiter bug: shows when at least `need` reads go out within 200 ms. */
function fake(need: number, flaky?: () => boolean) {
  let calls = 0;
  const attempt = async (s: readonly Send[]): Promise<AttemptOutcome> => {
    calls += 1;
    const shows = s.some((x) => s.filter((y) => y.t >= x.t && y.t < x.t + 200).length >= need) && (flaky ? flaky() : true);
    const analysis: RateLimitAnalysis = {
      classes: [],
      violations: shows
        ? [
            {
              rule: SIG.rule,
              class: 'read',
              message: 'm',
              samples: [
                { t: s[0]!.t, status: 200 },
                { t: s[s.length - 1]!.t, status: 200 },
              ],
            },
          ]
        : [],
    };
    return { records: [], analysis, sent: s.length };
  };
  return { attempt, calls: () => calls };
}

const base = { signature: SIG, attempts: 2, maxRequests: 100_000, deadline: Infinity };

describe('searchMinimal', () => {
  it('shrinks to what the bug needs, keeping only candidates the sequential test accepts', async () => {
    const f = fake(12);
    const r = await searchMinimal({ ...base, schedule, attempt: f.attempt });
    expect(r.stopped).toBe('done');
    expect(r.original.rate).toEqual({ reproduced: 2, attempts: 2 });
    expect(r.best.schedule.length).toBeLessThanOrEqual(16);
    expect(r.best.schedule.length).toBeGreaterThanOrEqual(12);
    expect(r.kept[0]).toBe(r.original);
    expect(r.kept[r.kept.length - 1]).toBe(r.best);
    // Held to the original's 2/2 (97 %): seven reproductions in a row accept, one miss rejects.
    expect(r.steps.filter((s) => s.accepted).every((s) => s.rate.reproduced === 7 && s.rate.attempts === 7)).toBe(true);
    expect(r.steps.filter((s) => !s.accepted).every((s) => s.rate.reproduced === s.rate.attempts - 1 || s.rate.attempts === 1)).toBe(true);
    expect(r.sent).toBeGreaterThan(0);
  });

  it('refuses a candidate that reproduces less often than the original', async () => {
    // The original always reproduces; every smaller schedule only every other time.
    let n = 0;
    const f = fake(1, () => (n++ < 2 ? true : n % 2 === 0));
    const r = await searchMinimal({ ...base, schedule, attempt: f.attempt });
    expect(r.steps.filter((s) => s.accepted)).toEqual([]);
    expect(r.best).toBe(r.original);
  });

  it('a violation that never shows is SPGATE_ERR_NOT_REPRODUCED', async () => {
    const f = fake(1000);
    await expect(searchMinimal({ ...base, schedule, attempt: f.attempt })).rejects.toMatchObject({ code: 'SPGATE_ERR_NOT_REPRODUCED' });
    expect(f.calls()).toBe(2);
  });

  it('stops at --max-requests with the best so far', async () => {
    const f = fake(12);
    const r = await searchMinimal({ ...base, schedule, attempt: f.attempt, maxRequests: 500 });
    expect(r.stopped).toBe('requests');
    expect(r.sent).toBeLessThanOrEqual(500);
    expect(r.best.schedule.length).toBeLessThan(64);
  });

  it('stops at the deadline, and refuses an original that does not fit the bounds', async () => {
    let now = 0;
    const f = fake(12);
    const r = await searchMinimal({ ...base, schedule, attempt: async (s) => ((now += 10), f.attempt(s)), deadline: 35, now: () => now });
    expect(r.stopped).toBe('time');
    // A moving deadline (time kept for the final measurement) is read before every attempt.
    now = 0;
    let reserve = 0;
    const moved = await searchMinimal({
      ...base,
      schedule,
      attempt: async (s) => ((now += 10), (reserve += 5), f.attempt(s)),
      deadline: () => 200 - reserve,
      now: () => now,
    });
    expect(moved.stopped).toBe('time');
    expect(now).toBeLessThanOrEqual(150);
    const e = (await searchMinimal({ ...base, schedule, attempt: f.attempt, maxRequests: 10 }).catch((x: unknown) => x)) as SpgateError;
    expect([e.code, e.message]).toEqual(['SPGATE_ERR_USAGE', 'the original schedule (64 requests) does not fit the --max-requests bound']);
  });

  it('an abort keeps the best schedule found before it', async () => {
    const controller = new AbortController();
    const f = fake(12);
    let kept = 0;
    const r = await searchMinimal({
      ...base,
      schedule,
      signal: controller.signal,
      attempt: f.attempt,
      onStep: (line) => {
        if (line.startsWith('kept') && ++kept === 2) controller.abort();
      },
    });
    expect(r.stopped).toBe('interrupted');
    expect(r.best.schedule.length).toBeLessThan(64);
    expect(r.kept.length).toBe(3);
  });
});

describe('asOftenAs', () => {
  it('allows one attempt of sampling error against the original rate', () => {
    expect(asOftenAs({ reproduced: 9, attempts: 10 }, { reproduced: 2, attempts: 2 })).toBe(true);
    expect(asOftenAs({ reproduced: 8, attempts: 10 }, { reproduced: 2, attempts: 2 })).toBe(false);
    expect(asOftenAs({ reproduced: 4, attempts: 10 }, { reproduced: 1, attempts: 2 })).toBe(true);
    expect(asOftenAs({ reproduced: 0, attempts: 10 }, { reproduced: 0, attempts: 2 })).toBe(false);
  });
});
