/**
 * The fold's histograms: one series per route class × method × status family (transport failures in
 * `error`, with their durations), exact sums, and the class × family views the results and thresholds
 * read — methods added together, `error` left out, the corrected view kept apart.
 */
import { describe, expect, it } from 'vitest';
import { FoldHistograms } from '../../src/fold/histograms.js';

const routes = [
  { class: 'write' as const, method: 'POST' },
  { class: 'write' as const, method: 'PATCH' },
  { class: 'read' as const, method: 'GET' },
  // A second route of the same class and method shares its series.
  { class: 'write' as const, method: 'POST' },
];

describe('FoldHistograms', () => {
  it('keeps a series per class × method × family, and class × family views that add the methods', () => {
    const h = new FoldHistograms(routes, false);
    h.record(0, 'write', 201, 10, 10);
    h.record(3, 'write', 201, 30, 30);
    h.record(1, 'write', 200, 20, 20);
    h.record(1, 'write', 429, 2, 2);
    h.record(2, 'read', 0, 5000, 5000);
    h.record(2, 'read', 503, 7, 7);
    const series = Object.fromEntries(h.series().map((s) => [`${s.class}|${s.method}|${s.family}`, [s.histogram.totalCount, s.sumMs]]));
    expect(series).toEqual({
      'write|POST|2xx': [2, 40],
      'write|PATCH|2xx': [1, 20],
      'write|PATCH|429': [1, 2],
      'read|GET|error': [1, 5000],
      'read|GET|other': [1, 7],
    });
    expect(h.merged('write', '2xx').totalCount).toBe(3);
    expect(h.merged('write').totalCount).toBe(4);
    // A transport failure is no latency of the results.
    expect(h.merged('read').totalCount).toBe(1);
    expect(h.summaries().map((s) => `${s.class}|${s.family}|${s.count}`)).toEqual(['read|other|1', 'write|2xx|3', 'write|429|1']);
  });

  it('keeps the corrected view per class × family beside, for a run with intended send times', () => {
    const h = new FoldHistograms(routes, true);
    h.record(0, 'write', 201, 10, 250);
    h.record(1, 'write', 201, 20, 260);
    h.record(2, 'read', 0, 5, 5);
    expect(h.merged('write', '2xx').maxValue).toBeGreaterThanOrEqual(259_000);
    expect(h.merged('write', '2xx', false).maxValue).toBeLessThan(21_000);
    expect(h.merged('read', undefined, true).totalCount).toBe(0);
    expect(h.summaries().map((s) => `${s.class}|${s.family}|${s.corrected}|${s.count}`)).toEqual(['write|2xx|true|2', 'write|2xx|false|2']);
  });

  it('does not grow with the number of responses: one histogram per label combination seen', () => {
    const h = new FoldHistograms(routes, false);
    const footprint = (): number => h.series().reduce((a, s) => a + s.histogram.estimatedFootprintInBytes, 0);
    for (let i = 0; i < 1000; i++) h.record(i % 4, routes[i % 4]!.class, i % 7 === 0 ? 429 : 200, i % 50, 0);
    const before = [h.series().length, footprint()];
    for (let i = 0; i < 100_000; i++) h.record(i % 4, routes[i % 4]!.class, i % 7 === 0 ? 429 : 200, i % 50, 0);
    expect([h.series().length, footprint()]).toEqual(before);
  });
});
