/** The pure search strategy: driven by a model of a limiter bug, it finds the small schedule and never repeats itself. */
import { describe, expect, it } from 'vitest';
import { shrinkCandidates, isSmaller, MAX_CHUNKS, worthACut, type ShrinkHint } from '../../src/shrink/candidates.js';
import { fittedShapes } from '../../src/shrink/fitted.js';
import { scheduleKey, type Send } from '../../src/shrink/schedule.js';

const read = (t: number, path = '/me', key = 'admin'): Send => ({ t, class: 'read', method: 'GET', path, key });
const write = (t: number): Send => ({ t, class: 'write', method: 'POST', path: '/conversations/{conversationId}/assign', key: 'admin' });

/** A hint: a violation citing two admitted reads at these times, 1 s windows. */
const citing = (a: number, b: number): ShrinkHint => ({
  violation: { rule: 'r', class: 'read', message: '', samples: [a, b].map((t) => ({ t, status: 200 })) },
  windowMs: 1000,
});

/** Drives the generator with `reproduces`; returns the final schedule and every candidate seen. */
function drive(initial: Send[], reproduces: (s: Send[]) => boolean, violationAt?: [number, number]) {
  const seen: Send[][] = [];
  let current = initial;
  const gen = shrinkCandidates(initial, { rule: 'r', class: 'read' }, () => ({
    violation: violationAt ? { rule: 'r', class: 'read', message: '', samples: violationAt.map((t) => ({ t, status: 200 })) } : undefined,
    windowMs: 1000,
  }));
  let next = gen.next();
  while (!next.done) {
    const c = next.value.schedule;
    expect(isSmaller(c, current)).toBe(true);
    seen.push(c);
    const ok = reproduces(c);
    if (ok) current = c;
    next = gen.next(ok);
  }
  return { final: next.value, seen };
}

describe('shrinkCandidates', () => {
  it('shrinks a burst bug (≥ 12 reads within 300 ms) from 200 mixed requests to a small burst', () => {
    const initial: Send[] = [];
    for (let i = 0; i < 150; i++) initial.push(read(i * 20, i % 2 ? '/me' : '/customers', i % 3 ? 'admin' : 'agent'));
    for (let i = 0; i < 50; i++) initial.push(write(i * 60 + 5));
    initial.sort((a, b) => a.t - b.t);
    const burst = (s: Send[]) => {
      const reads = s.filter((x) => x.class === 'read').map((x) => x.t);
      return reads.some((t, i) => reads.filter((u) => u >= t && u < t + 300).length >= 12 && i >= 0);
    };
    const { final, seen } = drive(initial, burst, [1000, 2000]);
    expect(burst(final)).toBe(true);
    expect(final.every((x) => x.class === 'read')).toBe(true);
    expect(new Set(final.map((x) => x.key)).size).toBe(1);
    expect(final.length).toBeLessThanOrEqual(24);
    expect(final[0]!.t).toBe(0);
    expect(new Set(seen.map(scheduleKey)).size).toBe(seen.length);
  });

  it('keeps what the bug needs: both classes when the bug is their interplay', () => {
    const initial = [read(0), write(10), read(20), read(400), write(500), read(900)];
    const interplay = (s: Send[]) =>
      s.some(
        (x, i) => x.class === 'write' && s.slice(0, i).some((y) => y.class === 'read') && s.slice(i + 1).some((y) => y.class === 'read'),
      );
    const { final } = drive(initial, interplay);
    expect(interplay(final)).toBe(true);
    expect(final.length).toBe(3);
  });

  it('proposes nothing but the merge when nothing can go, and stops after at most MAX_CHUNKS chunks', () => {
    const initial = Array.from({ length: 40 }, (_, i) => read(i * 10));
    const { final, seen } = drive(initial, () => false);
    expect(final).toEqual(initial);
    // ddmin: 2 + 4 + 8 chunks, never finer; plus the class/cut steps that apply.
    expect(seen.filter((s) => s.length < 40).length).toBeLessThanOrEqual(2 + 4 + MAX_CHUNKS + 2);
  });

  it('cuts at the ends only when they take away at least the finest chunk: a trim of 2 sends from 160 is left to delta debugging', () => {
    const initial = Array.from({ length: 160 }, (_, i) => read(i * 25));
    const steps = (at: number) => {
      const gen = shrinkCandidates(initial, { rule: 'r', class: 'read' }, () => citing(at, at + 25));
      const seen: string[] = [];
      for (let next = gen.next(); !next.done && seen.length < 8; next = gen.next(false)) seen.push(next.value.step);
      return seen.filter((s) => /^(cut|start|drop|the violation's stretch and)/.test(s)).slice(0, 3);
    };
    // Near the start: starting at the violation drops 2 sends and 50 ms of 3,975; cutting after it is worth it.
    // (Its halves are the same schedule once rebased: the second is not proposed again.)
    // (Here the fitted two-window shape is that same cut: it is proposed once.)
    expect(steps(50)).toEqual([
      "the violation's stretch and the window before it",
      'drop requests 1–80 of 160',
      'drop requests 1–40 of 160',
    ]);
    expect(worthACut(initial.slice(2), initial)).toBe(false);
    expect(worthACut(initial.slice(20), initial)).toBe(true);
    // Half-way: the fitted two-window shape first; then both ends are worth a cut (two windows before the
    // violation is the whole schedule).
    expect(steps(2000)).toEqual([
      "the violation's stretch and the window before it",
      'cut after the violation',
      'start 1.0 s before the violation',
    ]);
    // A few sends over a long idle head: the span alone makes the cut worth it.
    const head = [read(0), read(1500), ...Array.from({ length: 40 }, (_, i) => read(3000 + i * 25))];
    expect(worthACut(head.slice(2), head)).toBe(true);
  });

  it('merges long idle gaps when the bug does not need them', () => {
    const initial = [read(0), read(10), read(5000), read(5010)];
    const { final } = drive(initial, (s) => s.length === 4);
    expect(final[3]!.t).toBeLessThan(1000);
  });
});

describe('fittedShapes', () => {
  it('tries the cited requests, then the class inside the stretch, then the stretch, before any generic step', () => {
    const initial: Send[] = [];
    for (let i = 0; i < 60; i++) initial.push(read(i * 50));
    for (let i = 0; i < 10; i++) initial.push(write(i * 300 + 7));
    initial.sort((a, b) => a.t - b.t);
    // The violation: reads at 1000 and 1100 (sent a few ms late, as attempts are), stretch 1000–1400.
    const v = {
      rule: 'r',
      class: 'read' as const,
      message: '',
      window: { start: 1002, end: 1403 },
      samples: [
        { t: 1003, status: 200 },
        { t: 1102, status: 200 },
      ],
    };
    const shapes = fittedShapes(initial, v, { rule: 'r', class: 'read' });
    expect(shapes.map((s) => s.step)).toEqual([
      'only the 2 requests the violation cites',
      "only the read requests of the violation's stretch",
      "only the violation's stretch",
    ]);
    expect(shapes[0]!.schedule.map((x) => x.t)).toEqual([1000, 1100]);
    expect(shapes[1]!.schedule.map((x) => x.t)).toEqual([1000, 1050, 1100, 1150, 1200, 1250, 1300, 1350, 1400]);
    expect(shapes[2]!.schedule.some((x) => x.class === 'write')).toBe(true);
  });

  it('with the window known, the stretch and the window before it come before the one-window stretch, so a lucky one-window keep has two windows to fall back to', () => {
    const initial = Array.from({ length: 80 }, (_, i) => read(i * 50));
    const v = { rule: 'r', class: 'read' as const, message: '', window: { start: 2000, end: 2950 }, samples: [{ t: 2900, status: 429 }] };
    const shapes = fittedShapes(initial, v, { rule: 'r', class: 'read' }, undefined, null, 1000);
    expect(shapes.map((s) => s.step)).toEqual([
      'only the 1 requests the violation cites',
      "the violation's stretch and the window before it",
      "only the read requests of the violation's stretch",
    ]);
    expect([shapes[1]!.schedule[0]!.t, shapes[1]!.schedule.length]).toEqual([1000, 40]);
    expect([shapes[2]!.schedule[0]!.t, shapes[2]!.schedule.length]).toEqual([2000, 20]);
    // Driven: both are kept in turn, so the kept chain holds the two-window schedule under the one-window one.
    const kept: number[] = [];
    const gen = shrinkCandidates(initial, { rule: 'r', class: 'read' }, () => ({ violation: v, windowMs: 1000 }));
    for (let next = gen.next(); !next.done; ) {
      const ok = next.value.schedule.length >= 20;
      if (ok) kept.push(next.value.schedule.length);
      next = gen.next(ok);
    }
    expect(kept.slice(0, 2)).toEqual([40, 20]);
    // Without the window, as before: no two-window shape.
    expect(fittedShapes(initial, v, { rule: 'r', class: 'read' }).some((s) => s.step.includes('window before'))).toBe(false);
  });

  it('a bug shown by the two cited requests shrinks to them in the first step', () => {
    const initial = Array.from({ length: 80 }, (_, i) => read(i * 25));
    const pair = (s: Send[]) => s.some((x) => x.t === 0) && s.length >= 2 && s.some((x) => x.t === 25);
    const seen: Send[][] = [];
    const gen = shrinkCandidates(initial, { rule: 'r', class: 'read' }, () => citing(500, 526));
    let next = gen.next();
    while (!next.done) {
      seen.push(next.value.schedule);
      next = gen.next(seen.length === 1 ? true : pair(next.value.schedule));
    }
    expect(seen[0]!.length).toBe(2);
    expect(next.value.length).toBe(2);
  });

  it('over-admission: the admitted requests of the interval up to the first over the bound come first (the smallest count above it)', () => {
    // Two counters behind one port, 20 per 3 s each, 60 reads/s for 6 s: 40 admitted at the start of each
    // window, the rest refused. The analyzer's interval holds 80 admissions where at most 61 are legitimate;
    // it cites the first, the first over the bound (the 62nd) and a few after.
    const initial = Array.from({ length: 360 }, (_, i) => read(Math.round((i * 1000) / 60)));
    const admittedAt = (t: number) => t % 3000 < 667;
    const attempt = initial.map((x) => ({ t: x.t + 2, status: admittedAt(x.t) ? 200 : 429 }));
    const inside = attempt.filter((a) => a.status === 200 && a.t >= 2);
    const v = {
      rule: '8.ratelimit.over-admission',
      class: 'read' as const,
      message: '',
      window: { start: 2, end: 3700 },
      samples: [inside[0]!, inside[61]!, inside[62]!, inside[63]!, inside[79]!],
    };
    const shapes = fittedShapes(initial, v, { rule: v.rule, class: 'read' }, attempt);
    expect(shapes[0]!.step).toBe('only the 5 requests the violation cites');
    expect(shapes[1]!.step).toBe("the 62 admitted requests of the over-admission's interval up to its cited response 2");
    expect(shapes[1]!.schedule.every((x) => admittedAt(x.t))).toBe(true);
    expect(shapes[1]!.schedule.filter((x) => x.t >= 3000)).toHaveLength(22);
    expect(shapes.map((s) => s.schedule.length)).toEqual([5, 62, 63, 64, 80, ...shapes.slice(5).map((s) => s.schedule.length)]);
    // Knowing the window (3 s), the admissions after the refused ones go a tenth of it later, at most 250 ms:
    // replayed, a window started a little late must not refuse them. Those before keep their times.
    const margined = fittedShapes(initial, v, { rule: v.rule, class: 'read' }, attempt, null, 3000)[1]!.schedule;
    expect(margined.map((x) => x.t)).toEqual(shapes[1]!.schedule.map((x) => (x.t >= 3000 ? x.t + 250 : x.t)));
    expect(fittedShapes(initial, v, { rule: v.rule, class: 'read' }, attempt, null, 1000)[1]!.schedule.at(-1)!.t).toBe(
      shapes[1]!.schedule.at(-1)!.t + 100,
    );
    // Once the count just above the bound is kept, no cut that leaves fewer than it needs over as long a
    // span is tried; cuts at its ends (shorter spans, lower bounds) still are.
    const seen: Array<{ n: number; span: number }> = [];
    const gen = shrinkCandidates(initial, { rule: v.rule, class: 'read' }, () => ({ violation: v, windowMs: 3000, attempt }));
    let next = gen.next();
    while (!next.done) {
      const s = next.value.schedule;
      seen.push({ n: s.length, span: s[s.length - 1]!.t - s[0]!.t });
      next = gen.next(s.length >= 62 && s.every((x) => admittedAt(x.t)));
    }
    expect(seen.slice(0, 2).map((x) => x.n)).toEqual([5, 62]);
    const kept = seen[1]!.span;
    expect(seen.slice(2).filter((x) => x.n < 61 && x.span >= kept)).toEqual([]);
    expect(seen.slice(2).some((x) => x.n < 61 && x.span < kept)).toBe(true);
    expect(next.value).toHaveLength(62);
    // With the budget's Limit known, one more than twice it sent at once comes first (a stuck or
    // per-replica counter admitting it all shows it with the fewest requests).
    const withLimit = fittedShapes(initial, v, { rule: v.rule, class: 'read' }, attempt, 20);
    expect(withLimit[1]!.step).toBe(
      "the first 42 admitted requests of the over-admission's interval, sent at once (twice the Limit and more)",
    );
    expect(new Set(withLimit[1]!.schedule.map((x) => x.t)).size).toBe(1);
    // Without the attempt's statuses (or for another rule) only the generic fitted shapes are proposed.
    expect(fittedShapes(initial, v, { rule: v.rule, class: 'read' }).some((s) => s.step.includes('admitted'))).toBe(false);
    expect(fittedShapes(initial, { ...v, rule: 'r' }, { rule: 'r', class: 'read' }, attempt).some((s) => s.step.includes('admitted'))).toBe(
      false,
    );
  });

  it("an early 429: the window's admissions up to it, close together, then one request a window later", () => {
    // The reference server's early 429: 10 per 1 s, but 8 admitted per window; 20 reads/s for 4 s. The
    // analyzer cites the response that still reported budget left and the 429s after it.
    const initial = Array.from({ length: 80 }, (_, i) => read(i * 50));
    const attempt = initial.map((x) => ({ t: x.t + 1, status: x.t % 1000 < 400 ? 200 : 429, latency: 3 }));
    const v = {
      rule: '8.ratelimit.under-admission',
      class: 'read' as const,
      message: '',
      window: { start: 1, end: 952 },
      samples: [attempt[7]!, attempt[8]!, attempt[9]!],
    };
    const shape = (limit: number | null, a: typeof attempt | undefined = attempt, rule = v.rule) =>
      fittedShapes(initial, { ...v, rule }, { rule, class: 'read' }, a, limit, 1000).find((s) => s.step.includes('early 429'));
    const s = shape(10)!;
    expect(s.step).toBe(
      'the early 429 and the 8 admissions before it in one window, close together, with one more, and one request a window later',
    );
    // The first alone; the other seven, the 429's request and one more a quarter of the window later (with one
    // more, a window's end between them does not matter, and a first answer read late rarely does); one more
    // 1.05 s on. A cut of the ones at once is not tried (spare 0): it would reproduce at fewer phases.
    expect(s.schedule.map((x) => x.t)).toEqual([0, ...Array<number>(9).fill(250), 1300]);
    expect(s.spare).toBe(0);
    // Without room for the one more under the budget (a correct limiter must admit them all), the 429's request
    // alone, once the first answer is in: four times the slowest answer (3 ms), at least 50 ms.
    expect(shape(9)!.schedule.map((x) => x.t)).toEqual([0, ...Array<number>(8).fill(50), 1100]);
    // Tried right after the cited requests: the smallest shape but theirs.
    expect(fittedShapes(initial, v, { rule: v.rule, class: 'read' }, attempt, 10, 1000)[1]!.step).toBe(s.step);
    // There, slow answers push the rest later, but never past a quarter of the window.
    expect(
      shape(
        9,
        attempt.map((a) => ({ ...a, latency: 40 })),
      )!.schedule[1]!.t,
    ).toBe(160);
    expect(
      shape(
        9,
        attempt.map((a) => ({ ...a, latency: 400 })),
      )!.schedule[1]!.t,
    ).toBe(250);
    // Not when the requests at once would be more than the budget (a correct limiter refuses those too),
    // without the attempt's statuses, or for another rule.
    expect(shape(8)).toBeUndefined();
    expect(fittedShapes(initial, v, { rule: v.rule, class: 'read' }, undefined, 10, 1000).some((x) => x.step.includes('early 429'))).toBe(
      false,
    );
    expect(shape(10, attempt, '8.ratelimit.over-admission')).toBeUndefined();
  });
});
