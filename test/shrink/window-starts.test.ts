/**
 * The phase spread of a shrink's attempts stops where the limiter's windows start with each attempt
 * (src/shrink/window-starts.ts): @fastify/rate-limit, whose window starts at a key's first request, then costs
 * no half-window wait per attempt; the reference server's windows, aligned to the epoch, and its token bucket
 * keep the spread for good.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { createAttemptRunner } from '../../src/shrink/attempts.js';
import type { Send } from '../../src/shrink/schedule.js';
import { attemptsToTell, NO_WINDOW_STARTS, observeWindowStarts, windowsStartWithAttempts } from '../../src/shrink/window-starts.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { Target } from '../../src/target/schema.js';
import type { TraceRecord } from '../../src/trace/record.js';
import { startFastifyServer } from '../limiters/support/fastify-server.js';
import { targetFor, type LimitedServer } from '../limiters/support/server.js';

const answer = (t: number, reset: string | undefined, o: Partial<TraceRecord> = {}): TraceRecord =>
  ({
    t,
    latency: 2,
    method: 'GET',
    path: '/me',
    class: 'read',
    key: 'admin',
    status: 200,
    ...(reset !== undefined ? { reset } : {}),
    ...o,
  }) as TraceRecord;

describe('observeWindowStarts', () => {
  it('how many attempts tell: under a 2 % chance of a clock window saying W each time; never for 1 s windows', () => {
    expect([2, 3, 4, 5, 60].map(attemptsToTell)).toEqual([6, 4, 3, 3, 3]);
    expect(attemptsToTell(1)).toBe(Infinity);
    expect(attemptsToTell(2.5)).toBe(Infinity);
  });

  it("counts attempts whose every budget's first answer announced the whole window; one short of it keeps the spread", () => {
    let s = NO_WINDOW_STARTS;
    for (let i = 0; i < 3; i++) s = observeWindowStarts(s, [answer(0, '3'), answer(5, '2'), answer(9, '3', { class: 'write' })], 3);
    expect(s).toEqual({ own: 3, phased: false });
    expect(windowsStartWithAttempts(s, 3)).toBe(false);
    const four = observeWindowStarts(s, [answer(0, '3')], 3);
    expect(windowsStartWithAttempts(four, 3)).toBe(true);
    // The write budget's first answer began in a window of its own clock: the spread stays, whatever follows.
    const phased = observeWindowStarts(s, [answer(0, '3'), answer(1, '1', { class: 'write' })], 3);
    expect(phased.phased).toBe(true);
    expect(windowsStartWithAttempts(observeWindowStarts(phased, [answer(0, '3')], 3), 3)).toBe(false);
  });

  it('says nothing from a refusal, an answer without Reset, a Reset in ms, a Reset above the window, or a 1 s window', () => {
    const s = NO_WINDOW_STARTS;
    expect(observeWindowStarts(s, [answer(0, '3', { status: 429 })], 3)).toEqual(s);
    expect(observeWindowStarts(s, [answer(0, undefined)], 3)).toEqual(s);
    expect(observeWindowStarts(s, [answer(0, '2990')], 3, new Set(['read (key admin)']))).toEqual(s);
    expect(observeWindowStarts(s, [answer(0, '4')], 3)).toEqual(s);
    expect(observeWindowStarts(s, [answer(0, '1')], 1)).toEqual(s);
  });
});

/** Six reads at once: one more than the budget of 5, so each attempt spends it. */
const SPEND: Send[] = Array.from({ length: 6 }, () => ({ t: 0, class: 'read' as const, method: 'GET', path: '/me', key: 'admin' }));

describe('attempts against real limiters', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  const attempts = async (target: Target, n: number, phaseSpreadMs: number) => {
    const client = createClient({ baseUrl: target.baseUrl, secrets: target.secrets });
    const notes: string[] = [];
    const runner = createAttemptRunner({ client, target, maxWaitMs: 10_000, phaseSpreadMs, note: (l) => notes.push(l) });
    try {
      const out = [];
      for (let i = 0; i < n; i++) out.push(await runner.run(SPEND));
      return { phases: out.map((a) => a.phaseMs), notes, spread: runner.spreadMs(), records: out.map((a) => a.records) };
    } finally {
      await client.close();
    }
  };

  it('@fastify/rate-limit (a window from the first request): the spread stops after four attempts', async () => {
    const server: LimitedServer = await startFastifyServer({
      budgets: { read: { limit: 5, windowSeconds: 3 }, write: { limit: 5, windowSeconds: 3 } },
    });
    close = () => server.close();
    const { phases, notes, spread } = await attempts(targetFor('fastify', server.url, { pool: true }), 6, 3000);
    expect(notes).toContain(
      "the first answer of each of 4 attempts announced a whole window (RateLimit-Reset 3 s): the limiter's windows start with each attempt, so no attempt waits for a phase of them any more",
    );
    // The first attempt's phase is 0 (phaseAt(0)); the next three wait theirs; the last two none.
    expect(phases.slice(1, 4).every((p) => p > 0)).toBe(true);
    expect(phases.slice(4)).toEqual([0, 0]);
    expect(spread).toBe(0);
  });

  it.each(['fixed-window', 'token-bucket'] as const)(
    'the reference server (%s: windows on the epoch clock, a refill per request): the spread stays',
    async (model) => {
      const s: RunningReferenceServer = await startReferenceServer({
        dialect: model === 'token-bucket' ? 'token-bucket' : 'default',
        budgets: { read: 5, write: 5, windowSeconds: 2 },
      });
      close = () => s.close();
      // The first attempt starts in the second half of an epoch window (its first answer says Reset 1): a clock
      // window says W only to an attempt begun in its first second, half of them here, and which later
      // attempts do is the clock's.
      await new Promise((r) => setTimeout(r, (3400 - (Date.now() % 2000)) % 2000));
      const { phases, notes, spread, records } = await attempts(targetFromInput(s.describe({ budgets: false }), 'reference'), 3, 2000);
      expect(notes.filter((n) => n.includes('whole window'))).toEqual([]);
      expect(spread).toBe(2000);
      expect(phases.slice(1).every((p) => p > 0)).toBe(true);
      // Not merely too few attempts to tell (six for 2 s windows): their first answers already showed the phases matter.
      expect(records.reduce((st, r) => observeWindowStarts(st, r, 2), NO_WINDOW_STARTS).phased).toBe(true);
    },
  );
});
