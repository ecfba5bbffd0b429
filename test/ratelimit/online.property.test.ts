/**
 * The bounded-memory online analyzer against the batch analyzer: for simulated limiters (correct and with
 * each injected bug) the chunked analysis gives the same rule set, the same per-class counts, and never
 * holds more samples than its bound. Chunks are forced small here so every stream is cut many times.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { OnlineRateLimitAnalyzer, type OnlineAnalyzeOptions } from '../../src/ratelimit/online.js';
import type { RateLimitSample } from '../../src/ratelimit/sample.js';
import { simulate, type Bug, type LimiterModel, type SimOptions } from './simulators.js';

const base = (model: LimiterModel, bug: Bug, flood?: number) =>
  fc
    .record({
      limit: fc.integer({ min: 8, max: 20 }),
      windowMs: fc.constantFrom(1000, 2000),
      windows: fc.integer({ min: 12, max: 24 }),
      load: fc.double({ min: 0.5, max: 3, noNaN: true }),
      maxLatencyMs: fc.integer({ min: 1, max: 10 }),
      reportBefore: fc.constant(false),
      lazyWindows: fc.boolean(),
      startOffsetMs: fc.integer({ min: 0, max: 3000 }),
      twoClasses: fc.boolean(),
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    })
    .map((r): SimOptions => {
      const windowMs = bug === 'no-restore' || bug === 'retry-after-short' ? 3000 : r.windowMs;
      const load = flood ?? (bug === 'none' ? r.load : 3);
      return {
        model,
        bug,
        limit: r.limit,
        windowMs,
        count: Math.round(r.windows * r.limit * load),
        meanGapMs: windowMs / r.limit / load,
        minLatencyMs: 1,
        maxLatencyMs: r.maxLatencyMs,
        reportBefore: r.reportBefore,
        lazyWindows: r.lazyWindows,
        startOffsetMs: r.startOffsetMs,
        classes: r.twoClasses || bug === 'shared-classes' ? ['read', 'write'] : ['read'],
        seed: r.seed,
      };
    });

/** Feeds the samples in completion order, as the load engines do. */
function online(samples: RateLimitSample[], opts: OnlineAnalyzeOptions) {
  const a = new OnlineRateLimitAnalyzer(opts);
  const sorted = [...samples].sort((x, y) => x.receivedAt - y.receivedAt);
  for (const s of sorted) a.push(s);
  return { analysis: a.finish(), peak: a.peakRetained, chunks: a.chunkCount };
}

const rules = (vs: Array<{ rule: string }>) => [...new Set(vs.map((v) => v.rule))].sort();

/** Rules that name a broken budget outright (the bound, counters moving apart, the other class eating it). */
const NAMES_THE_BUG = new Set([
  '8.ratelimit.over-admission',
  '8.ratelimit.remaining-rises',
  '8.ratelimit.remaining-decreases',
  '8.ratelimit.classes-isolated',
]);
/** Rules that read every response as one honest counter's word: symptoms whose evidence may straddle a chunk cut. */
const ONE_COUNTER = new Set([
  '8.ratelimit.under-admission',
  '8.ratelimit.reset-plausible',
  '8.ratelimit.reset-restores',
  '8.ratelimit.retry-after-honoured',
]);

/**
 * The verdict a user reads: the rule set, less the one-counter symptoms once a rule names the bug (the
 * analyzer holds those back as false leads; next to the named bug, a chunk cut may show or hide one).
 */
function verdict(vs: Array<{ rule: string }>): string[] {
  const r = rules(vs);
  return r.some((x) => NAMES_THE_BUG.has(x)) ? r.filter((x) => !ONE_COUNTER.has(x)) : r;
}
/**
 * A quarter of the stream, by count and by time (folded refusals hold fewer than the count): every stream
 * is cut several times.
 */
function quarters(samples: RateLimitSample[]): OnlineAnalyzeOptions {
  const span = Math.max(...samples.map((s) => s.receivedAt)) - Math.min(...samples.map((s) => s.sentAt));
  return { maxSamples: Math.max(20, Math.floor(samples.length / 4)), chunkMs: span / 4 };
}

function compare(o: SimOptions, chunking: (samples: RateLimitSample[]) => OnlineAnalyzeOptions = quarters): void {
  const samples = simulate(o);
  const opts = chunking(samples);
  const batch = analyzeRateLimits(samples);
  const got = online(samples, opts);
  expect(got.peak).toBeLessThanOrEqual(opts.maxSamples ?? 50_000);
  expect(got.chunks).toBeGreaterThan(1);
  expect(verdict(got.analysis.violations)).toEqual(verdict(batch.violations));
  // Per-class counts and the observed Limit are exact, however the stream was cut.
  const counts = (a: typeof batch) =>
    a.classes.map((c) => [c.class, c.samples, c.admitted, c.refused, c.observedLimit, c.limitConstant, c.windowSeconds]);
  expect(counts(got.analysis)).toEqual(counts(batch));
  // Window rows count every response once, however the chunks cut the windows: up to a response or two
  // in flight across a cut, which each side may place in its own window.
  const rowSums = (a: typeof batch) =>
    a.classes.flatMap((c) => c.windows.reduce((n, w) => [n[0]! + w.admitted, n[1]! + w.refused], [0, 0]));
  const want = rowSums(batch);
  rowSums(got.analysis).forEach((n, i) => expect(Math.abs(n - want[i]!)).toBeLessThanOrEqual(2));
  // Per-response rules count every occurrence exactly once, however the stream was cut.
  expect(occurrences(got.analysis.violations)).toEqual(occurrences(batch.violations));
}

const PER_RESPONSE = new Set(['8.ratelimit.headers', '8.ratelimit.429-code', '8.ratelimit.retry-after', '8.ratelimit.remaining-bounds']);
function occurrences(vs: Array<{ rule: string; class?: string; message: string }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of vs) {
    if (!PER_RESPONSE.has(v.rule)) continue;
    const m = / \((\d+) occurrences\)/.exec(v.message);
    const k = `${v.rule}|${v.class}`;
    out[k] = (out[k] ?? 0) + (m ? Number(m[1]) : 1);
  }
  return out;
}

describe('online analysis equals batch analysis', () => {
  for (const model of ['fixed', 'sliding', 'bucket'] as const) {
    it(`correct ${model} limiter`, () => {
      fc.assert(
        fc.property(base(model, 'none'), (o) => compare(o)),
        { numRuns: 25 },
      );
    });
  }
  const bugs: Bug[] = [
    'over-admit',
    'early-429',
    'stuck',
    'negative',
    'no-restore',
    'retry-after-short',
    'no-retry-after',
    'code',
    'headers-missing-on-429',
    'reset-ms',
    'limit-changes',
    'shared-classes',
  ];
  for (const bug of bugs) {
    it(`fixed limiter with bug ${bug}`, () => {
      fc.assert(
        fc.property(base('fixed', bug), (o) => compare(o)),
        { numRuns: 10 },
      );
    });
  }

  // A flood: twelve budgets' worth of requests per window, nearly all refused. The bound holds less than
  // one window of responses; folded runs of identical refusals let each chunk span windows all the same.
  // Not 'negative', 'reset-ms' and 'retry-after-short': their refusals differ on every response
  // (Remaining -1, -2, ...; Reset in ms) or are evidence themselves (sent after a Retry-After of 0 passed),
  // so they are held one by one and a bound under one window of responses sees no window; the regular
  // cases above show them named with a bound of a few windows.
  const FLOOD = 12;
  for (const model of ['fixed', 'sliding', 'bucket'] as const) {
    const floodBugs: Bug[] =
      model === 'fixed'
        ? [
            'none',
            'over-admit',
            'early-429',
            'stuck',
            'no-restore',
            'no-retry-after',
            'code',
            'headers-missing-on-429',
            'limit-changes',
            'shared-classes',
          ]
        : ['none'];
    for (const bug of floodBugs) {
      it(`a flood (bound under one window of responses): ${model} limiter, bug ${bug}`, () => {
        fc.assert(
          fc.property(base(model, bug, FLOOD), (o) => compare(o, () => ({ maxSamples: Math.floor(0.8 * FLOOD * o.limit) }))),
          { numRuns: 10 },
        );
      });
    }
  }

  // A counterexample the flood property once found (`.ci/run`, 30 Nov 2026), kept as a fixed case: a chunk
  // holding no fall of Remaining called a refusal the write class explained a stuck counter, where the whole
  // run had seen the classes share one budget (AnalyzeOptions.seen).
  it('a flood against one budget shared by both classes: the same verdict as the whole run (seed 15)', () => {
    const o: SimOptions = {
      model: 'fixed',
      bug: 'shared-classes',
      limit: 8,
      windowMs: 2000,
      count: 2304,
      meanGapMs: 2000 / 8 / FLOOD,
      minLatencyMs: 1,
      maxLatencyMs: 1,
      reportBefore: false,
      lazyWindows: true,
      startOffsetMs: 0,
      classes: ['read', 'write'],
      seed: 15,
    };
    compare(o, () => ({ maxSamples: Math.floor(0.8 * FLOOD * o.limit) }));
  });

  it("a flood of identical refusals is held as the run's first and last, and every response still counts", () => {
    const a = new OnlineRateLimitAnalyzer({ maxSamples: 1000 });
    // 10 admitted, then 5,000 refusals without Retry-After (a per-response finding on each one).
    for (let i = 0; i < 5010; i++) {
      const refused = i >= 10;
      a.push({
        sentAt: i,
        receivedAt: i + 0.5,
        class: 'read',
        status: refused ? 429 : 200,
        limit: '10',
        remaining: refused ? '0' : String(9 - i),
        reset: '60',
        requestId: `r${i}`,
      });
    }
    expect(a.peakRetained).toBeLessThanOrEqual(12);
    const out = a.finish();
    expect(out.classes[0]).toMatchObject({ samples: 5010, admitted: 10, refused: 5000 });
    const ra = out.violations.find((v) => v.rule === '8.ratelimit.retry-after')!;
    expect(ra.message).toMatch(/\(5000 occurrences\)$/);
  });

  describe('a budget beyond the bound, at a rate where a full chunk covers under one window: cut at the cache size', () => {
    // Responses 0.04 ms apart (25,000 a second), Reset 10 s: 4,000 samples cover 0.16 s.
    type Bug = 'none' | 'two-counters' | 'refuses-with-budget';
    function stream(n: number, gapMs: number, limit: number, bug: Bug = 'none'): RateLimitSample[] {
      const out: RateLimitSample[] = [];
      for (let i = 0; i < n; i++) {
        // two-counters: every fifth response comes from a second store, 500 behind; refuses-with-budget:
        // every 997th is a 429 although the budget is nearly untouched.
        const second = bug === 'two-counters' && i % 5 === 0;
        const refused = bug === 'refuses-with-budget' && i % 997 === 500;
        const remaining = Math.max(0, limit - 1 - i - (second ? 500 : 0));
        out.push({
          sentAt: i * gapMs,
          receivedAt: i * gapMs + 0.5,
          class: 'read',
          status: refused ? 429 : 200,
          limit: String(limit),
          remaining: String(remaining),
          reset: '10',
          retryAfter: refused ? '10' : undefined,
          errorCode: refused ? 'rate_limit.exceeded' : undefined,
          requestId: `r${i}`,
        });
      }
      return out;
    }
    const analyse = (samples: RateLimitSample[], cacheSamples: number) => {
      const a = new OnlineRateLimitAnalyzer({ maxSamples: 4000, cacheSamples });
      for (const s of samples) a.push(s);
      const out = a.finish();
      return { out, chunks: a.chunkCount, peak: a.peakRetained };
    };

    it('cuts at the cache size only then: not with a Limit under the bound, not when a full chunk covers a window', () => {
      // One chunk per 1,000 new samples (each also holds the half carried from the one before).
      expect(analyse(stream(12_000, 0.04, 1_000_000_000), 1000).chunks).toBeGreaterThanOrEqual(12);
      // Limit 1,000 < the bound: a chunk can hold a window's admissions, so it stays full size.
      expect(analyse(stream(12_000, 0.04, 1000), 1000).chunks).toBeLessThanOrEqual(6);
      // 5 ms apart: 4,000 samples cover 20 s, two windows; full size as well.
      expect(analyse(stream(12_000, 5, 1_000_000_000), 1000).chunks).toBeLessThanOrEqual(6);
    });

    it('cuts at four times the requests in flight (at least 1,000), and at 5,000 when they are unknown', () => {
      const samples = stream(12_000, 0.04, 1_000_000_000);
      const peak = (o: { inFlight?: number }) => {
        const a = new OnlineRateLimitAnalyzer({ maxSamples: 20_000, ...o });
        for (const s of samples) a.push(s);
        a.finish();
        return a.peakRetained;
      };
      // A chunk holds the half of the cache size carried from the one before, and the cache size of new samples.
      expect(peak({ inFlight: 8 })).toBe(1500);
      expect(peak({ inFlight: 600 })).toBe(3600);
      expect(peak({})).toBe(7500);
    });

    it.each(['none', 'two-counters', 'refuses-with-budget'] as const)('%s: the same verdict and counts as full-size chunks', (bug) => {
      const samples = stream(30_000, 0.04, 1_000_000_000, bug);
      const small = analyse(samples, 1000);
      const full = analyse(samples, 4000);
      expect(small.chunks).toBeGreaterThan(full.chunks);
      expect(small.peak).toBeLessThanOrEqual(4000);
      expect(rules(small.out.violations)).toEqual(rules(full.out.violations));
      expect(rules(small.out.violations)).toEqual(rules(analyzeRateLimits(samples).violations));
      if (bug !== 'none') expect(small.out.violations.length).toBeGreaterThan(0);
      expect(occurrences(small.out.violations)).toEqual(occurrences(full.out.violations));
      const counts = (a: typeof small.out) => a.classes.map((c) => [c.samples, c.admitted, c.refused, c.observedLimit]);
      expect(counts(small.out)).toEqual(counts(full.out));
    });
  });

  it('regression: a folded run of refusals answered after the next window began was counted in two window rows (fast-check seed 890569770)', () => {
    // A flood on a lazy fixed window: the run's last refusal (carrying 107 responses) was sent just after
    // the next window's first admission but answered before it; the chunk that held it new counted it in
    // the old window's row, the next chunk (holding it in its overlap) in the new window's row as well.
    const o: SimOptions = {
      model: 'fixed',
      bug: 'none',
      limit: 19,
      windowMs: 2000,
      count: 3420,
      meanGapMs: 2000 / 19 / 12,
      minLatencyMs: 1,
      maxLatencyMs: 8,
      reportBefore: false,
      lazyWindows: true,
      startOffsetMs: 0,
      classes: ['read', 'write'],
      seed: 1,
    };
    compare(o, () => ({ maxSamples: Math.floor(0.8 * 12 * o.limit) }));
  });

  it('regression: a chunk cut through in-flight requests made Remaining look shared with the other class (fast-check seed 1613029616)', () => {
    // A fixed window refusing at 80 % (early-429) on two classes: the batch names under-admission; a chunk
    // whose deferred tail lacked the requests still in flight saw an unexplained Remaining fall, and then
    // blamed every later refusal of the chunk on the other class (8.ratelimit.classes-isolated).
    compare({
      model: 'fixed',
      bug: 'early-429',
      limit: 8,
      windowMs: 1000,
      count: 360,
      meanGapMs: 1000 / 24,
      minLatencyMs: 1,
      maxLatencyMs: 1,
      reportBefore: false,
      lazyWindows: true,
      startOffsetMs: 0,
      classes: ['read', 'write'],
      seed: 8,
    });
  });

  it('one chunk gives exactly the batch analysis', () => {
    fc.assert(
      fc.property(base('fixed', 'over-admit'), (o) => {
        const samples = simulate(o);
        // Folded refusals change only the counts some messages give: exact equality needs them held one by one.
        const a = new OnlineRateLimitAnalyzer({ foldRefusals: false });
        for (const s of samples) a.push(s);
        expect(a.finish()).toEqual(analyzeRateLimits(samples));
      }),
      { numRuns: 10 },
    );
  });

  it('copies what it is handed: one record reused for every push (as the aggregator does) gives the same analysis', () => {
    const FIELDS = [
      'sentAt',
      'receivedAt',
      'class',
      'status',
      'limit',
      'remaining',
      'reset',
      'retryAfter',
      'requestId',
      'errorCode',
      'key',
      'dialect',
      'policyWindow',
    ] as const;
    fc.assert(
      fc.property(base('fixed', 'over-admit'), (o) => {
        const samples = simulate(o);
        const opts = quarters(samples);
        const a = new OnlineRateLimitAnalyzer(opts);
        const scratch: Record<string, unknown> = {};
        for (const s of [...samples].sort((x, y) => x.receivedAt - y.receivedAt)) {
          for (const f of FIELDS) scratch[f] = s[f];
          a.push(scratch as unknown as RateLimitSample);
        }
        const got = a.finish();
        expect(got.violations.length).toBeGreaterThan(0);
        expect(got).toEqual(online(samples, opts).analysis);
      }),
      { numRuns: 10 },
    );
  });

  it('slow responses (latency far above the chunk) never make it hold more than its bound', () => {
    const a = new OnlineRateLimitAnalyzer({ maxSamples: 50 });
    for (let i = 0; i < 2000; i++) {
      a.push({
        sentAt: i * 10,
        receivedAt: i * 10 + 8000,
        class: 'read',
        status: 200,
        limit: '1000',
        remaining: '999',
        reset: '1',
        requestId: `r${i}`,
      });
    }
    expect(a.peakRetained).toBeLessThanOrEqual(50);
    const out = a.finish();
    expect(out.classes[0]!.samples).toBe(2000);
  });
});
