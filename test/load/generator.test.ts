/**
 * The generator knows when it is the bottleneck: the verdict over its own figures (pure), the thresholds
 * that refer to it, and a real run whose event loop is kept busy (a stand-in for a generator short of CPU)
 * being called saturated in the results and the terminal summary, with a threshold
 * on it failing the run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  combineGenerators,
  GENERATOR_BOUNDS,
  judgeGenerator,
  markLowerBound,
  type GeneratorFigures,
} from '../../src/fold/generator-verdict.js';
import { evaluateThreshold, parseThreshold, type Threshold, type ThresholdContext } from '../../src/fold/threshold.js';
import { parseProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { summaryLines } from '../../src/load/print.js';
import { ProfileResult } from '../../src/results/schema.js';
import { GeneratorMeter } from '../../src/load/generator-meter.js';
import { startCountingServer, type CountingServer } from './support/counting-server.js';
import { makeResults } from '../report/fixtures.js';
import { buildMarkdown } from '../../src/report/markdown.js';
import { profileSection } from '../../src/report/html/profile.js';

const calm: GeneratorFigures = {
  processes: 1,
  wallMs: 10_000,
  cpuMs: 2_000,
  cpuShare: 0.2,
  eventLoopDelayP99Ms: 6,
  eventLoopDelayMaxMs: 12,
  sends: 5000,
  slipP50Ms: 0.01,
  slipP99Ms: 0.8,
  slipMaxMs: 3,
  offered: 5000,
  dropped: 0,
};

describe('generator verdict', () => {
  it('a generator within every bound kept up', () => {
    expect(judgeGenerator(calm)).toMatchObject({ saturated: false, reason: null, remedy: null });
  });

  it.each([
    ['slip', { slipP99Ms: GENERATOR_BOUNDS.slipP99Ms + 0.1 }, 'send-time slip p99'],
    ['CPU', { cpuShare: GENERATOR_BOUNDS.cpuShare }, '% of a core'],
    ['event-loop delay', { eventLoopDelayP99Ms: GENERATOR_BOUNDS.eventLoopDelayP99Ms + 1 }, 'event-loop delay p99'],
  ] as const)('%s beyond its bound: saturated, naming it and the remedy', (_n, patch, words) => {
    const v = judgeGenerator({ ...calm, ...patch, dropped: 40, offered: 5000 });
    expect(v.saturated).toBe(true);
    expect(v.reason).toContain(words);
    expect(v.reason).toContain('40 of 5000 arrivals dropped');
    expect(v.remedy).toContain('--workers 2');
  });

  it("dropped arrivals alone are the target's (or the connections'), not the generator's", () => {
    expect(judgeGenerator({ ...calm, dropped: 900, offered: 5000 }).saturated).toBe(false);
  });

  it('several processes: saturated when any was, the worst figures kept, the remedy doubles the processes', () => {
    const v = combineGenerators([
      { ...calm, processes: 1 },
      { ...calm, cpuShare: 0.97, slipP99Ms: 9 },
    ])!;
    expect(v).toMatchObject({ processes: 2, saturated: true, cpuShare: 0.97, slipP99Ms: 9 });
    expect(v.remedy).toContain('--workers 4');
    expect(combineGenerators([calm, calm])!.saturated).toBe(false);
  });

  it('a capacity measured with a saturated generator is a lower bound naming the remedy; otherwise untouched', () => {
    const cap: {
      rps: number;
      sloP95Ms: number;
      maxErrorPct: number;
      firstBreachAt: number;
      explanation: string;
      lowerBound?: boolean;
      remedy?: string;
    } = { rps: 380, sloP95Ms: 250, maxErrorPct: 1, firstBreachAt: 12, explanation: 'x' };
    expect(markLowerBound(cap, judgeGenerator(calm))).toEqual(cap);
    const marked = markLowerBound(cap, judgeGenerator({ ...calm, cpuShare: 0.99 }));
    expect(marked).toMatchObject({ rps: 380, lowerBound: true });
    expect(marked.remedy).toContain('--workers');
    expect(marked.explanation).toContain('lower bound');
  });
});

describe('generator in the reports', () => {
  it('a saturated generator is a Generator list item in markdown and a badge in the HTML section; a calm one only a muted line', () => {
    const r = makeResults({ clean: true });
    const p = r.load[0]!;
    const saturated = judgeGenerator({ ...calm, cpuShare: 0.97, dropped: 12 });
    p.generator = saturated;
    p.capacity = markLowerBound({ rps: 380, sloP95Ms: 250, maxErrorPct: 1, firstBreachAt: 3, explanation: 'x' }, saturated);
    const md = buildMarkdown(r);
    expect(md).toContain('#### Generator');
    expect(md).toMatch(
      /generator saturated \(CPU 97 % of a core; 12 of 5000 arrivals dropped\) — add generator processes: --workers 2.*lower bound/,
    );
    const html = String(profileSection(p, 0, []));
    expect(html).toContain('generator saturated');
    expect(html).toContain('at least');
    p.generator = judgeGenerator(calm);
    delete p.capacity;
    expect(buildMarkdown(r)).not.toContain('#### Generator');
    expect(String(profileSection(p, 0, []))).toContain('Generator kept up: CPU 20 % of a core');
  });
});

describe('generator thresholds', () => {
  const parsed = (e: string): Threshold => {
    const r = parseThreshold(e);
    if (!r.ok) throw new Error(r.error);
    return r.threshold;
  };
  const ctx = (g?: GeneratorFigures): ThresholdContext => ({
    latency: () => null,
    count: () => 0,
    errorRate: () => null,
    rps: () => 0,
    generator: (m) => {
      if (!g) return null;
      const v = judgeGenerator(g);
      return {
        saturated: v.saturated ? 1 : 0,
        slip_p50: v.slipP50Ms,
        slip_p99: v.slipP99Ms,
        slip_max: v.slipMaxMs,
        cpu: v.cpuShare,
        eld_p99: v.eventLoopDelayP99Ms,
        eld_max: v.eventLoopDelayMaxMs,
      }[m];
    },
  });

  it('parses the generator metrics with their units', () => {
    expect(parsed('generator.saturated == false')).toMatchObject({ kind: 'generator', metric: 'saturated', op: '==', value: 0 });
    expect(parsed('generator.slip_p99 < 0.005s')).toMatchObject({ metric: 'slip_p99', value: 5 });
    expect(parsed('generator.cpu < 90%')).toMatchObject({ metric: 'cpu', value: 0.9 });
    expect(parsed('generator.eld_p99 <= 20ms')).toMatchObject({ metric: 'eld_p99', value: 20 });
  });

  it.each([
    'generator.saturated < 1',
    'generator.saturated == 2',
    'generator.cpu < 5ms',
    'generator.slip_p99 < 5%',
    'generator.nope < 1',
    'p95 < true',
    'generator.slip_p99 < true',
  ])('refuses %s in one line', (e) => {
    const r = parseThreshold(e);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.split('\n')).toHaveLength(1);
  });

  it('holds on a calm generator, fails on a saturated one, and fails when nothing was measured', () => {
    const t = parsed('generator.saturated == false');
    expect(evaluateThreshold(t, ctx(calm))).toMatchObject({ ok: true, actual: 'false' });
    expect(evaluateThreshold(t, ctx({ ...calm, slipP99Ms: 30 }))).toMatchObject({ ok: false, actual: 'true' });
    expect(evaluateThreshold(parsed('generator.slip_p99 < 5ms'), ctx({ ...calm, slipP99Ms: 30 }))).toMatchObject({
      ok: false,
      actual: '30ms',
    });
    expect(evaluateThreshold(t, ctx(undefined))).toMatchObject({ ok: false, actual: 'not measured' });
  });
});

describe('a run measures its own generator', () => {
  let srv: CountingServer;
  beforeAll(async () => {
    srv = await startCountingServer();
  });
  afterAll(async () => {
    await srv?.close();
  });
  const profile = parseProfile(
    {
      name: 'g',
      description: 'd',
      model: 'open',
      duration: 1.5,
      maxConnections: 8,
      classes: { read: { rate: 200, routes: [{ route: 'me' }] } },
      thresholds: ['generator.saturated == false'],
    },
    't',
  );

  it('every send is measured and the verdict is the one its figures give', async () => {
    const { result } = await runProfile({ target: srv.target(), profile });
    expect(ProfileResult.safeParse(result).success).toBe(true);
    const g = result.generator!;
    expect(g.sends).toBe(result.totals.sent);
    expect(g.offered).toBe(result.totals.sent + result.totals.dropped);
    expect(g.cpuMs).toBeGreaterThan(0);
    const { saturated, reason, remedy, ...figures } = g;
    expect({ saturated, reason, remedy }).toEqual(
      (({ saturated: s, reason: r, remedy: m }) => ({ saturated: s, reason: r, remedy: m }))(judgeGenerator(figures)),
    );
  });

  it('a generator whose event loop is kept busy is called saturated in the result and on the terminal, and the threshold on it fails', async () => {
    // 40 ms of every 50 ms spent elsewhere: the schedule cannot be kept.
    const blocker = setInterval(() => {
      const end = performance.now() + 40;
      while (performance.now() < end) {
        /* busy */
      }
    }, 50);
    let run: Awaited<ReturnType<typeof runProfile>>;
    try {
      run = await runProfile({ target: srv.target(), profile });
    } finally {
      clearInterval(blocker);
    }
    const { result, findings } = run;
    const g = result.generator!;
    expect(g.saturated, JSON.stringify(g)).toBe(true);
    expect(g.eventLoopDelayP99Ms).toBeGreaterThan(GENERATOR_BOUNDS.eventLoopDelayP99Ms);
    expect(g.slipP99Ms!).toBeGreaterThan(GENERATOR_BOUNDS.slipP99Ms);
    expect(result.thresholds).toEqual([{ expression: 'generator.saturated == false', ok: false, actual: 'true' }]);
    expect(result.status).toBe('failed');
    const lines = summaryLines(result, findings).filter((l) => l.includes('generator saturated'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--workers');
  });
});

describe("GeneratorMeter.takeSlipMax (the live metrics' send slip)", () => {
  it('gives the largest slip since the previous call, in seconds, and nothing when nothing was sent', () => {
    const m = new GeneratorMeter();
    try {
      expect(m.takeSlipMax()).toBeUndefined();
      m.slip(2);
      m.slip(7.5);
      m.slip(-1);
      expect(m.takeSlipMax()).toBe(0.0075);
      expect(m.takeSlipMax()).toBeUndefined();
      m.slip(-0.2);
      expect(m.takeSlipMax()).toBe(0);
      // The run's own figures are unaffected by the live readings.
      expect(m.finish().sends).toBe(4);
    } finally {
      m.finish();
    }
  });
});
