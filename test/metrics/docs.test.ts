/** docs/metrics.md names every metric and label of the exporter's table (src/metrics/names.ts), in both forms. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LABELS, METRICS } from '../../src/metrics/names.js';

const doc = readFileSync(new URL('../../docs/metrics.md', import.meta.url), 'utf8');
const rows = doc.split('\n').filter((l) => l.startsWith('| `'));

describe('docs/metrics.md', () => {
  it('has a row per metric with its OpenTelemetry and Prometheus names', () => {
    for (const m of Object.values(METRICS)) {
      const prom = m.kind === 'histogram' ? `\`${m.prom}_bucket\`` : `\`${m.prom}\``;
      expect(
        rows.some((r) => r.startsWith(`| \`${m.otel}\` | ${prom}`)),
        m.otel,
      ).toBe(true);
    }
  });

  it('has a row per label with its attribute and label names', () => {
    for (const l of Object.values(LABELS))
      expect(
        rows.some((r) => r.startsWith(`| \`${l.otel}\` | \`${l.prom}\` |`)),
        l.otel,
      ).toBe(true);
  });
});
