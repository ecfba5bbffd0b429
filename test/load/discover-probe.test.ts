import { describe, expect, it } from 'vitest';
import { countedOrder, runProbe, PROBE_MAX_REQUESTS } from '../../src/load/budget-probe.js';
import { estimateBudget, type ProbeSample } from '../../src/load/budget-estimate.js';
import { fixedWindow, noHeaders, simIO, slidingLog, tokenBucket, type SimLimiter } from './discover-sim.js';

const opts = { burst: 5, burstMax: 12, maxWaitMs: 65_000, maxRequests: PROBE_MAX_REQUESTS };

async function probe(limiter: SimLimiter, o: Partial<typeof opts> & { signal?: AbortSignal } = {}, startMs = 0, rttMs = 3, spreadMs = 0) {
  const io = simIO(limiter, startMs, rttMs, spreadMs);
  const out = await runProbe(io, { ...opts, ...o });
  return { ...out, estimate: estimateBudget(out.samples), sent: io.sent(), elapsed: io.clock() - startMs };
}

describe('budget probe over simulated limiters', () => {
  // Every start phase within the window, including just before a boundary: the probe must find W itself.
  it.each([
    [20, 3, 3],
    [6, 3, 3],
    [60, 1, 3],
    [100, 10, 3],
    [1000, 5, 3],
    [20, 3, 120],
    [60, 2, 250],
  ])('a fixed window of %i per %i s (round trip %i ms), probed at any phase, gives L and W with high confidence', async (L, W, rtt) => {
    for (let phase = 0; phase < W * 1000; phase += 37) {
      const r = await probe(fixedWindow(L, W, phase, Math.floor(L / 3)), {}, 0, rtt);
      expect(r.estimate, `phase ${phase}`).toMatchObject({ ok: true, limit: L, windowSeconds: W, confidence: 'high', model: 'window' });
      expect(r.sent).toBeLessThanOrEqual(PROBE_MAX_REQUESTS);
      expect(r.elapsed).toBeLessThanOrEqual(W * 1000 + 2500);
    }
  });

  // A loaded client: the burst's requests reach the limiter 40 ms apart, so at some phases the burst straddles
  // the window's end. Ordered by Remaining, two windows' answers look like a token bucket's Reset growing as
  // its budget is spent (the CI machine once read a 3 s window as 22 s from that and ran 7 times too slow).
  it.each([
    [20, 3],
    [6, 3],
    [60, 2],
  ])('a fixed window of %i per %i s probed by a burst whose requests arrive 40 ms apart is still a window of W', async (L, W) => {
    let straddled = 0;
    for (let phase = 0; phase < W * 1000; phase += 11) {
      const r = await probe(fixedWindow(L, W, phase, Math.floor(L / 3)), {}, 0, 3, 40);
      expect(r.estimate, `phase ${phase}`).toMatchObject({ ok: true, limit: L, windowSeconds: W, model: 'window' });
      if (r.samples.some((s, i) => i > 0 && s.t === r.samples[i - 1]!.t && Number(s.remaining) > Number(r.samples[i - 1]!.remaining)))
        straddled++;
    }
    // Some bursts did straddle the window's end: a refill inside one burst (else this shows nothing).
    expect(straddled).toBeGreaterThan(0);
  });

  it("a burst's answers in the order they were counted: a straddled window's end splits them by Reset; a token bucket's keep theirs", () => {
    const a = (remaining: number, reset: number): ProbeSample => ({
      t: 30,
      status: 200,
      limit: '20',
      remaining: String(remaining),
      reset: String(reset),
    });
    const before: ProbeSample = { t: 4, status: 200, limit: '20', remaining: '18', reset: '1' };
    // Two in the old window (Reset 1), two after its end (Reset 3): by Remaining alone they would interleave.
    const straddled = countedOrder([a(19, 3), a(17, 1), a(18, 3), a(16, 1)], before);
    expect(straddled.map((x) => `${x.remaining}/${x.reset}`)).toEqual(['17/1', '16/1', '19/3', '18/3']);
    // One window whose Reset ticked down during the burst: by Remaining.
    expect(countedOrder([a(16, 1), a(17, 2), a(15, 1)], before).map((x) => x.remaining)).toEqual(['17', '16', '15']);
    // A token bucket that got a unit back: more left, sooner full; by Remaining.
    expect(countedOrder([a(17, 2), a(18, 1), a(16, 2)], before).map((x) => x.remaining)).toEqual(['18', '17', '16']);
  });

  it('a fixed window already exhausted before the probe (first answer a 429) is still learned', async () => {
    const r = await probe(fixedWindow(10, 4, 1234, 10));
    expect(r.samples[0]!.status).toBe(429);
    expect(r.estimate).toMatchObject({ ok: true, limit: 10, windowSeconds: 4 });
  });

  it.each([
    [20, 3, 3],
    [10, 10, 3],
    [100, 2, 3],
    [20, 3, 150],
  ])('a sliding log of %i per %i s (round trip %i ms) gives W', async (L, W, rtt) => {
    const r = await probe(slidingLog(L, W), {}, 0, rtt);
    expect(r.estimate).toMatchObject({ ok: true, limit: L, windowSeconds: W, model: 'window' });
  });

  // A token bucket's Reset is `used × W / L`: one Reset never shows W. The estimate must land close enough
  // that half the budget stays under it and twice the budget stays over it.
  it.each([
    [20, 3, 3],
    [10, 10, 3],
    [6, 3, 3],
    [30, 60, 3],
    [50, 5, 3],
    [20, 3, 100],
    [50, 5, 100],
  ])('a token bucket of %i per %i s (round trip %i ms) gives W within [0.75 W, 1.5 W]', async (L, W, rtt) => {
    // Arrivals 40 ms apart only where the round trip is short: with 100 ms round trips too, a burst spreads
    // over a third of a fast bucket's refill and the arithmetic is out of range with or without them.
    const spread = rtt < 10 ? 40 : 0;
    for (const [before, spreadMs] of [
      [L, 0],
      [Math.ceil(L / 2), 0],
      [L, spread],
    ] as const) {
      const r = await probe(tokenBucket(L, W, before), {}, 0, rtt, spreadMs);
      expect(r.estimate, `tokens before ${before}`).toMatchObject({ ok: true, limit: L, model: 'token-bucket' });
      const w = (r.estimate as { windowSeconds: number }).windowSeconds;
      expect(w, `tokens before ${before}`).toBeGreaterThanOrEqual(0.75 * W);
      expect(w, `tokens before ${before}`).toBeLessThanOrEqual(1.5 * W);
    }
  });

  it('no rate-limit headers: one request, then the estimate fails and says why', async () => {
    const r = await probe(noHeaders());
    expect(r.sent).toBe(1);
    expect(r.note).toMatch(/no RateLimit-Limit/);
    expect(r.estimate).toMatchObject({ ok: false, reason: expect.stringMatching(/no integral RateLimit-Limit/) });
  });

  it('a refill announced beyond maxWaitMs is not waited for: the window is a lower bound, confidence low', async () => {
    const r = await probe(fixedWindow(100, 3600, 0, 0), {}, 1_000_000);
    expect(r.elapsed).toBeLessThan(1000);
    expect(r.note).toMatch(/beyond the probe/);
    expect(r.estimate).toMatchObject({ ok: true, confidence: 'low' });
  });

  it('respects its request share', async () => {
    const r = await probe(fixedWindow(20, 3, 500), { maxRequests: 3 });
    expect(r.sent).toBeLessThanOrEqual(3);
  });

  it('stops when aborted, without waiting for the refill', async () => {
    const ac = new AbortController();
    const io = simIO(fixedWindow(20, 30, 0));
    const send = io.send.bind(io);
    let n = 0;
    io.send = async () => {
      if (++n === 5) ac.abort();
      return send();
    };
    const out = await runProbe(io, { ...opts, signal: ac.signal });
    expect(out.samples.length).toBe(5);
    expect(io.clock()).toBeLessThan(1000);
  });

  it('a stated budget is checked with one request and probed further only when asked', async () => {
    const confirmed = await probe(fixedWindow(20, 3, 0), { ...{ checkOnly: { more: () => false } } } as never);
    expect(confirmed.sent).toBe(1);
    const io = simIO(fixedWindow(20, 3, 0));
    const out = await runProbe(io, { ...opts, checkOnly: { more: (s) => s.limit !== '1000' } });
    expect(out.samples.length).toBeGreaterThan(1);
    expect(estimateBudget(out.samples)).toMatchObject({ ok: true, limit: 20, windowSeconds: 3 });
  });
});
