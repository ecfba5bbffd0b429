/**
 * The pure pieces of CI-facing text (issue 31): personal data redacted from quoted bodies and request URLs,
 * findings grouped by check with what differs, re-run lines of load findings that repeat the run, and numbers
 * that agree (durations, percentiles against their max).
 */
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { redactPersonal } from '../../src/client/personal.js';
import { ciText, failureLines, groupFindings, occurrenceLines, ruleViolations, VIOLATIONS_SHOWN } from '../../src/report/failures.js';
import { makeResults } from './fixtures.js';
import { fmtDuration } from '../../src/report/format.js';
import { loadRerunCommand, traceLines, withLoadRerun } from '../../src/load/findings.js';
import { summarize } from '../../src/fold/hdr.js';
import type { FindingRecord } from '../../src/results/schema.js';

const finding = (over: Partial<FindingRecord>): FindingRecord => ({
  checkId: 'customers.delete.unlisted',
  clause: '3.customer.soft-delete-unlisted',
  basis: 'spec',
  severity: 'error',
  title: 'a deleted customer is not listed',
  expected: 'absent',
  actual: 'listed',
  exchangeIds: [],
  source: 'customers',
  ...over,
});

describe('redactPersonal', () => {
  it('removes string values of a quoted body but keeps ids, codes and the shape, even when the preview is cut off', () => {
    const body =
      '{"data":{"id":"cus_1","name":"Ada Lovelace","email":"ada@example.com","phone":"+44 20 7946 0958","tags":["vip","late payer"],"conversationCount":3,"timezone":"Europ…';
    const out = redactPersonal(`HTTP 200 — ${body}`);
    expect(out).toBe(
      'HTTP 200 — {"data":{"id":"cus_1","name":"<redacted>","email":"<redacted>","phone":"<redacted>","tags":["<redacted>","<redacted>"],"conversationCount":3,"timezone":"Europ…"',
    );
    expect(redactPersonal('{"error":{"code":"rate_limit.exceeded","message":"Ada, slow down","requestId":"req_9"}}')).toBe(
      '{"error":{"code":"rate_limit.exceeded","message":"<redacted>","requestId":"req_9"}}',
    );
  });

  it('removes emails (also percent-encoded) and query values but paging ones from request URLs', () => {
    expect(redactPersonal('curl "$SPGATE_BASE_URL/customers?q=ada%40example.com&limit=100&cursor=abc"')).toBe(
      'curl "$SPGATE_BASE_URL/customers?q=<redacted>&limit=100&cursor=abc"',
    );
    expect(redactPersonal('write to ada.l@example.co.uk now')).toBe('write to <redacted> now');
    // Dates and counts are not phone numbers.
    expect(redactPersonal('at 2026-11-20T10:00:00Z, 12345678 requests')).toBe('at 2026-11-20T10:00:00Z, 12345678 requests');
  });
});

describe('findings grouped by check', () => {
  it('one group per check with a count and each distinct occurrence; exchange ids said for what they are', () => {
    const fs = [
      finding({ expected: 'absent from text search', actual: 'listed in x55' }),
      finding({ expected: 'absent from the external-id filter', actual: 'listed in x56' }),
      finding({ expected: 'absent from text search', actual: 'listed in x55' }),
      finding({
        checkId: 'customers.delete.status',
        clause: '4.5.delete.status',
        severity: 'warning',
        actual: 'HTTP 200 (x43) — {"name":"Ada"}',
      }),
    ];
    const groups = groupFindings(fs);
    expect(groups.map((g) => [g.checkId, g.count, g.occurrences.length])).toEqual([
      ['customers.delete.unlisted', 3, 2],
      ['customers.delete.status', 1, 1],
    ]);
    expect(occurrenceLines(groups[0]!)).toEqual([
      'expected absent from text search; actual listed in response x55 of the HTML report',
      'expected absent from the external-id filter; actual listed in response x56 of the HTML report',
    ]);
    expect(ciText('HTTP 200 (x43) — {"name":"Ada"}')).toBe('HTTP 200 — {"name":"<redacted>"}');
  });

  it('counts rate-limit rules broken as the ratelimit.violations threshold does (findings of a rate-limit clause)', () => {
    const fs = [
      finding({ clause: '8.ratelimit.over-admission', source: 'read-budget' }),
      finding({ clause: '8.ratelimit.headers', source: 'read-budget' }),
      finding({ clause: '8.ratelimit.headers', source: 'smoke' }),
    ];
    expect(ruleViolations(fs, 'read-budget')).toBe(2);
  });
});

describe('re-run lines of load findings', () => {
  it('repeat the target, base URL and duration, write a trace, and name replay and shrink for it', () => {
    const r = { profile: 'read-budget', targetSource: 'staging.yaml', baseUrlOverride: 'https://proxy.internal/v1', durationSeconds: 12.5 };
    expect(loadRerunCommand(r)).toBe(
      'spgate load --profile read-budget --target staging.yaml --base-url https://proxy.internal/v1 --duration 12.5 --trace spgate-trace.ndjson',
    );
    expect(traceLines({ ...r, tracePath: 'run 1.ndjson' })).toEqual([
      "# trace of this run: 'run 1.ndjson'",
      "# replay it: spgate replay 'run 1.ndjson' --target staging.yaml --base-url https://proxy.internal/v1 · shrink it: spgate shrink 'run 1.ndjson' --target staging.yaml --base-url https://proxy.internal/v1 --trace-out minimal.ndjson",
    ]);
    const [f] = withLoadRerun(
      [finding({ reproduction: { curl: ['curl -i -X GET "$SPGATE_BASE_URL/customers"'], command: 'spgate load --profile read-budget' } })],
      r,
    );
    expect(f!.reproduction!.command).toContain('--target staging.yaml');
    expect(f!.reproduction!.curl[0]).toBe('curl -i -X GET "$SPGATE_BASE_URL/customers"');
    // The embedded server needs no --target (a re-run starts it again).
    expect(loadRerunCommand({ profile: 'smoke', targetSource: 'embedded', durationSeconds: 4 })).toBe(
      'spgate load --profile smoke --duration 4 --trace spgate-trace.ndjson',
    );
  });
});

describe('numbers that agree', () => {
  it('formats durations without a 60th second', () => {
    expect(fmtDuration(119_600)).toBe('2 min 00 s');
    expect(fmtDuration(59_970)).toBe('1 min 00 s');
    expect(fmtDuration(59_900)).toBe('59.9 s');
    expect(fmtDuration(185_000)).toBe('3 min 05 s');
  });

  it('never gives a percentile above the recorded max (HDR bucket rounding)', () => {
    const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 2 });
    for (let i = 0; i < 50; i++) h.recordValue(1000 + i * 37);
    h.recordValue(123_457);
    // The bucket of the max ends above it: unclamped, p100 would read 123.9 ms against a max of 123.457.
    expect(h.getValueAtPercentile(100)).toBeGreaterThan(h.maxValue);
    const s = summarize(h, 'read', '2xx', false);
    expect(s.max).toBe(123.457);
    for (const v of [s.p50, s.p90, s.p95, s.p99, s.p999, ...s.curve.map(([, x]) => x)]) expect(v).toBeLessThanOrEqual(s.max);
    expect(s.p99).toBe(123.457);
  });
});

describe('the console of a failed run', () => {
  it('names every failed check with its count, every threshold with ✓/✗ and its actual value, and the first violations', () => {
    const r = makeResults();
    const text = failureLines(r).join('\n');
    for (const g of groupFindings(r.findings.filter((f) => f.severity === 'error'))) {
      expect(text).toContain(`${g.checkId}${g.count > 1 ? ` ×${g.count}` : ''} — `);
    }
    for (const p of r.load) {
      for (const t of p.thresholds) expect(text).toContain(`${t.ok ? '✓' : '✗'} ${t.expression} (actual `);
      for (const v of p.rateLimit.violations.slice(0, VIOLATIONS_SHOWN))
        if (v.window) expect(text).toContain(`window ${(v.window.start / 1000).toFixed(1)}–`);
    }
    expect(failureLines(makeResults({ clean: true })).join('\n')).not.toMatch(/^failed/m);
  });
});
