/** The shrink page: both timelines drawn with the run report's chart code, server text escaped, self-contained. */
import { describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { renderShrinkPage } from '../../src/report/shrink-page.js';
import { traceChartInput } from '../../src/shrink/chart-input.js';
import type { TraceRecord } from '../../src/trace/record.js';
import { traceToSamples } from '../../src/trace/samples.js';

const rec = (t: number, remaining: number, status = 200, requestId = `req_${t}`): TraceRecord => ({
  t,
  latency: 3,
  class: 'read',
  method: 'GET',
  path: '/me',
  status,
  limit: '5',
  remaining: String(remaining),
  reset: '1',
  requestId,
  key: 'admin',
  ...(status === 429 ? { retryAfter: '1', errorCode: 'rate_limit.exceeded' } : {}),
});

describe('renderShrinkPage', () => {
  it('draws the minimal sequence beside the original, with rates and steps, and escapes server text', () => {
    const original = [0, 1, 2, 3, 4].map((i) => rec(i * 50, 4 - i)).concat([rec(300, 0, 429), rec(1300, 4), rec(1350, 3)]);
    const minimal = [rec(0, 4), rec(20, 3), rec(40, 2, 200, '<script>alert(1)</script>'), rec(60, 0, 429)];
    const a = (r: TraceRecord[]) => analyzeRateLimits(traceToSamples(r));
    const page = renderShrinkPage({
      title: '8.ratelimit.under-admission on read',
      original: traceChartInput('original', original, a(original)),
      minimal: traceChartInput('minimal', minimal, a(minimal)),
      minimalAnalysis: a(minimal),
      originalRequests: 8,
      minimalRequests: 4,
      originalRate: { reproduced: 2, attempts: 2 },
      rate: { reproduced: 9, attempts: 10 },
      steps: [{ step: 'cut after the violation', sends: 4, accepted: true, rate: { reproduced: 2, attempts: 2 } }],
    });
    expect(page).toContain('id="chart-shrink-original"');
    expect(page).toContain('id="chart-shrink-minimal"');
    expect(page).toContain('reproduced 9/10');
    expect(page).toContain('cut after the violation');
    const charts = JSON.parse(/<script id="spgate-charts" type="application\/json">(.*?)<\/script>/s.exec(page)![1]!) as Array<{
      id: string;
      config: { data: { datasets: Array<{ label: string }> } };
    }>;
    expect(charts.map((c) => c.id)).toEqual(['shrink-original', 'shrink-minimal']);
    expect(charts[1]!.config.data.datasets.map((d) => d.label)).toEqual(
      expect.arrayContaining(['Remaining (read, highest)', '429 (read)']),
    );
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).not.toMatch(/<(link|img)[^>]+(src|href)="https?:/);
  });
});
