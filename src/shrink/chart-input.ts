/** A trace drawn as the load report's rate-limit timeline: the same fine series, the analyzer's windows. */
import { RateLimitSeriesBuilder } from '../fold/ratelimit-series.js';
import type { RateLimitAnalysis } from '../results/schema.js';
import type { RateLimitChartInput } from '../report/charts/ratelimit.js';
import type { TraceRecord } from '../trace/record.js';

/** The chart's input for one trace and its analysis (times since the trace's first send). */
export function traceChartInput(name: string, records: readonly TraceRecord[], analysis: RateLimitAnalysis): RateLimitChartInput {
  const series = new RateLimitSeriesBuilder();
  const t0 = records.reduce((m, r) => Math.min(m, r.t), Infinity);
  let end = 0;
  for (const r of records) {
    if (r.status === 0) continue;
    const received = r.t - t0 + r.latency;
    end = Math.max(end, received);
    series.add(r.class, received, r.status, r.remaining);
  }
  return { name, durationMs: end, timeline: [], rateLimit: analysis, rateLimitSeries: series.build(end) };
}
