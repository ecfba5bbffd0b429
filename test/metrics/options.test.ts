/** `--metrics KIND=URL` and `--metrics-interval`, normalised once; bad values are one-line usage errors that never show credentials. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INTERVAL_SECONDS,
  metricsArgs,
  parseMetricsOptions,
  parseMetricsValue,
  redactedCommandLine,
} from '../../src/metrics/options.js';
import { SpgateError } from '../../src/errors.js';

function usage(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(SpgateError);
    expect((err as SpgateError).code).toBe('SPGATE_ERR_USAGE');
    return (err as SpgateError).message;
  }
  throw new Error('no error');
}

describe('parseMetricsValue', () => {
  it('accepts both kinds with http(s) URLs', () => {
    expect(parseMetricsValue('prometheus-rw=http://127.0.0.1:9090/api/v1/write')).toEqual({
      kind: 'prometheus-rw',
      url: 'http://127.0.0.1:9090/api/v1/write',
      headers: {},
      display: 'prometheus-rw http://127.0.0.1:9090/api/v1/write',
    });
    expect(parseMetricsValue('otlp=https://collector.example:4318/v1/metrics').kind).toBe('otlp');
  });

  it('turns URL credentials into Basic authorization and shows neither them nor the query', () => {
    const e = parseMetricsValue('prometheus-rw=https://me:p%40ss@metrics.example/api/v1/write?tenant=t-secret');
    expect(e.headers).toEqual({ Authorization: `Basic ${Buffer.from('me:p@ss').toString('base64')}` });
    expect(e.url).toBe('https://metrics.example/api/v1/write?tenant=t-secret');
    expect(e.display).toBe('prometheus-rw https://metrics.example/api/v1/write');
  });

  it('refuses unknown kinds, missing kinds, non-URLs and other schemes — masking credentials', () => {
    expect(usage(() => parseMetricsValue('influxdb=http://x/write'))).toContain('KIND one of prometheus-rw, otlp');
    expect(usage(() => parseMetricsValue('=http://x/write'))).toContain('expected KIND=URL');
    expect(usage(() => parseMetricsValue('otlp=localhost:4318'))).toContain('not an http:// or https:// URL');
    expect(usage(() => parseMetricsValue('otlp=/v1/metrics'))).toContain('not a URL');
    const m = usage(() => parseMetricsValue('influx=http://me:secret-pw@host/write?token=tok-secret'));
    expect(m).not.toMatch(/secret-pw|tok-secret/);
  });
});

describe('parseMetricsOptions', () => {
  it('defaults the interval and takes a repeated option', () => {
    expect(parseMetricsOptions(undefined, undefined)).toEqual({ endpoints: [], intervalMs: DEFAULT_INTERVAL_SECONDS * 1000 });
    const o = parseMetricsOptions(['otlp=http://a/v1/metrics', 'prometheus-rw=http://b/api/v1/write'], 2.5);
    expect(o.endpoints.map((e) => e.kind)).toEqual(['otlp', 'prometheus-rw']);
    expect(o.intervalMs).toBe(2500);
  });

  it('bounds the interval, and wants --metrics with it', () => {
    for (const bad of [0, -1, 'x', 5000]) expect(usage(() => parseMetricsOptions(['otlp=http://a/'], bad))).toContain('--metrics-interval');
    expect(usage(() => parseMetricsOptions(undefined, 2))).toBe('--metrics-interval goes with --metrics');
  });

  it('gives the same options to a child process', () => {
    expect(metricsArgs(['otlp=http://a/'], 2)).toEqual(['--metrics', 'otlp=http://a/', '--metrics-interval', '2']);
    expect(metricsArgs(undefined, undefined)).toEqual([]);
  });
});

describe('redactedCommandLine', () => {
  it('masks URL credentials and --metrics queries in the command line results record', () => {
    expect(
      redactedCommandLine([
        '--metrics',
        'prometheus-rw=https://u:pw-secret@m.example/api/v1/write?token=tk-secret',
        '--metrics=otlp=http://a:b-secret@c/v1/metrics',
        '--seed',
        '3',
        '--base-url',
        'https://x:y-secret@api.example/v1',
      ]),
    ).toEqual([
      '--metrics',
      'prometheus-rw=https://***@m.example/api/v1/write?…',
      '--metrics=otlp=http://***@c/v1/metrics',
      '--seed',
      '3',
      '--base-url',
      'https://***@api.example/v1',
    ]);
  });
});
