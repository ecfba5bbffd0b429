/** The pure search strategy: driven by a model of a limiter bug, it finds the small schedule and never repeats itself. */
import { describe, expect, it } from 'vitest';
import { shrinkCandidates, isSmaller, MAX_CHUNKS } from '../../src/shrink/candidates.js';
import { scheduleKey, type Send } from '../../src/shrink/schedule.js';

const read = (t: number, path = '/me', key = 'admin'): Send => ({ t, class: 'read', method: 'GET', path, key });
const write = (t: number): Send => ({ t, class: 'write', method: 'POST', path: '/conversations/{conversationId}/assign', key: 'admin' });

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
    const interplay = (s: Send[]) => s.some((x, i) => x.class === 'write' && s.slice(0, i).some((y) => y.class === 'read') && s.slice(i + 1).some((y) => y.class === 'read'));
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

  it('merges long idle gaps when the bug does not need them', () => {
    const initial = [read(0), read(10), read(5000), read(5010)];
    const { final } = drive(initial, (s) => s.length === 4);
    expect(final[3]!.t).toBeLessThan(1000);
  });
});
