/** The `--metrics` sink table (src/metrics/sinks.ts) is what option parsing, help text, the docs and the session read. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METRICS_KINDS, METRICS_SINKS, metricsKindsHelp } from '../../src/metrics/sinks.js';
import { parseMetricsValue } from '../../src/metrics/options.js';

const doc = readFileSync(new URL('../../docs/metrics.md', import.meta.url), 'utf8');

describe('the --metrics sink table', () => {
  it('has one row per name option parsing accepts, and parsing refuses a name outside it', () => {
    expect(Object.keys(METRICS_SINKS).sort()).toEqual([...METRICS_KINDS].sort());
    for (const kind of METRICS_KINDS) expect(parseMetricsValue(`${kind}=http://127.0.0.1:9/x`).kind).toBe(kind);
    expect(() => parseMetricsValue('influxdb=http://127.0.0.1:9/x')).toThrow(`KIND one of ${METRICS_KINDS.join(', ')}`);
  });

  it('gives the help text every name with its line, and docs/metrics.md a row per name', () => {
    expect(metricsKindsHelp()).toBe('prometheus-rw=URL (remote write) or otlp=URL (OTLP/HTTP)');
    for (const kind of METRICS_KINDS) expect(doc).toContain(`| \`--metrics ${kind}=URL\` |`);
  });

  it("makes each name's sink for an endpoint, named by the endpoint's display", async () => {
    for (const kind of METRICS_KINDS) {
      const endpoint = parseMetricsValue(`${kind}=http://127.0.0.1:9/x`);
      const make = await METRICS_SINKS[kind].load();
      const sink = make(endpoint, { runId: 'r', profile: 'p', shard: '0/1' }, 1000);
      expect(sink.display).toBe(`${kind} http://127.0.0.1:9/x`);
      await sink.close();
    }
  });
});
