/**
 * The pusher on a fake clock: one push per interval and one at the end, a busy sink skips ticks instead
 * of piling pushes up, the final push waits for the one under way (so it never arrives first), a failing
 * sink is reported and the others go on, and finish() is bounded even when a sink never answers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Pusher, type MetricsSink } from '../../src/metrics/pusher.js';
import type { MetricsSnapshot } from '../../src/metrics/model.js';

const snap = (at: number): MetricsSnapshot => ({
  at,
  requests: [],
  sent: { read: at, write: 0 },
  dropped: { read: 0, write: 0 },
  remaining: [],
  lag: {},
});

interface FakeSink extends MetricsSink {
  pushed: number[];
  closed: boolean;
}

function sink(display: string, push: (s: MetricsSnapshot) => Promise<void>): FakeSink {
  const f: FakeSink = {
    display,
    pushed: [],
    closed: false,
    push: (s) => {
      f.pushed.push(s.at);
      return push(s);
    },
    close: async () => {
      f.closed = true;
    },
  };
  return f;
}

let clock = 0;
beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

const snapshot = (): MetricsSnapshot => snap(++clock);

describe('Pusher', () => {
  it('pushes once per interval and once more at the end, then closes the sinks', async () => {
    const s = sink('a', async () => {});
    const p = new Pusher({ sinks: [s], intervalMs: 1000, snapshot, report: () => undefined });
    p.start();
    await vi.advanceTimersByTimeAsync(3500);
    expect(s.pushed).toEqual([1, 2, 3]);
    await p.finish();
    expect(s.pushed).toEqual([1, 2, 3, 4]);
    expect(s.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(s.pushed).toHaveLength(4);
  });

  it('a sink still busy skips ticks; the final push waits for the one under way', async () => {
    let release: () => void = () => undefined;
    const order: string[] = [];
    const s = sink(
      'slow',
      (x) =>
        new Promise<void>((resolve) => {
          order.push(`start ${x.at}`);
          release = () => {
            order.push(`end ${x.at}`);
            resolve();
          };
        }),
    );
    const p = new Pusher({ sinks: [s], intervalMs: 1000, snapshot, report: () => undefined });
    p.start();
    await vi.advanceTimersByTimeAsync(3500);
    // Three ticks, one push: the sink was busy at the second and third.
    expect(s.pushed).toEqual([1]);
    const done = p.finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual(['start 1']);
    release();
    await vi.advanceTimersByTimeAsync(10);
    release();
    await done;
    expect(order).toEqual(['start 1', 'end 1', 'start 4', 'end 4']);
  });

  it('reports every failed push with a one-line reason; the other sinks go on', async () => {
    const reports: string[] = [];
    const bad = sink('bad', async () => {
      throw new Error('HTTP 400: out of order sample\nsecond line');
    });
    const throwing: MetricsSink = {
      display: 'throws',
      push: () => {
        throw new Error('sync');
      },
      close: async () => {},
    };
    const good = sink('good', async () => {});
    const p = new Pusher({
      sinks: [bad, throwing, good],
      intervalMs: 1000,
      snapshot,
      report: (k, r) => reports.push(`${k.display}: ${r}`),
    });
    p.start();
    await vi.advanceTimersByTimeAsync(2500);
    await p.finish();
    expect(good.pushed).toHaveLength(3);
    expect(reports.filter((r) => r.startsWith('bad'))).toEqual(Array(3).fill('bad: HTTP 400: out of order sample'));
    expect(reports.filter((r) => r.startsWith('throws'))).toEqual(Array(3).fill('throws: sync'));
    expect(p.failures).toBe(6);
  });

  it('finish() is bounded when a sink never answers, and its close never answering either', async () => {
    const hang: MetricsSink = { display: 'hang', push: () => new Promise(() => {}), close: () => new Promise(() => {}) };
    const p = new Pusher({ sinks: [hang], intervalMs: 1000, snapshot, report: () => undefined, finalMs: 2000 });
    p.start();
    await vi.advanceTimersByTimeAsync(1500);
    let finished = false;
    const done = p.finish().then(() => (finished = true));
    await vi.advanceTimersByTimeAsync(1999);
    expect(finished).toBe(false);
    // The wait for the push under way ends at the bound; the final push is not even started; close gets 1 s.
    await vi.advanceTimersByTimeAsync(2000);
    await done;
    expect(finished).toBe(true);
  });

  it('with no sink it does nothing', async () => {
    const snap0 = vi.fn(snapshot);
    const p = new Pusher({ sinks: [], intervalMs: 1000, snapshot: snap0, report: () => undefined });
    p.start();
    await vi.advanceTimersByTimeAsync(3000);
    await p.finish();
    expect(snap0).not.toHaveBeenCalled();
  });
});
