/** The one abortable wait: resolves on time or at the abort, and leaves no listener behind on a long-lived signal. */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sleepUnlessAborted } from '../src/sleep.js';

describe('sleepUnlessAborted', () => {
  it('removes its abort listener when the timer fires: a thousand waits on one signal hold none', async () => {
    const c = new AbortController();
    for (let i = 0; i < 1000; i++) await sleepUnlessAborted(i % 50 === 0 ? 1 : 0, c.signal);
    // Eight at once, under Node's warning at eleven listeners on one signal (a full test run printed it).
    const waits = Array.from({ length: 8 }, () => sleepUnlessAborted(1, c.signal));
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(8);
    await Promise.all(waits);
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);
  });

  it('resolves at once when the signal aborts, and at once when it already has', async () => {
    const c = new AbortController();
    const t0 = performance.now();
    const wait = sleepUnlessAborted(60_000, c.signal);
    c.abort();
    await wait;
    await sleepUnlessAborted(60_000, c.signal);
    expect(performance.now() - t0).toBeLessThan(30_000);
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);
  });
});
