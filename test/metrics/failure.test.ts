/**
 * Bad metrics endpoints never cost a run its results: unreachable, refusing (4xx/5xx) or silent, each is
 * reported once as one `spgate: metrics: …` line while the run goes on, exits as it would have and writes
 * its results. A `--metrics` value that is not KIND=URL is a one-line usage error before anything is sent.
 * Credentials in a metrics URL never reach the output.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { refusingPort } from '../support/ports.js';
import { Results } from '../../src/results/schema.js';

const metricsLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.includes('spgate: metrics:'));

interface Endpoint {
  url: string;
  hits: number;
  /** Headers of the last request. */
  headers: Record<string, string | string[] | undefined>;
  close(): Promise<void>;
}

/** A local endpoint that answers every request with `status`, or never answers (`'silent'`). */
async function endpoint(behaviour: number | 'silent'): Promise<Endpoint> {
  const ep = { hits: 0 } as Endpoint;
  const server: Server = createServer((req, res) => {
    ep.hits++;
    ep.headers = req.headers;
    req.resume();
    if (behaviour === 'silent') return;
    req.on('end', () => res.writeHead(behaviour, { 'content-type': 'text/plain' }).end(`no thanks (${behaviour})\n`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ep.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  ep.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return ep;
}

let open: Endpoint[] = [];
afterEach(async () => {
  await Promise.all(open.map((e) => e.close()));
  open = [];
});

/**
 * A light profile whose only threshold holds on a machine however busy (a latency threshold could fail on a
 * loaded CI machine, and these tests are about the exit code being the run's own).
 */
function quietProfile(dir: string): string {
  const file = join(dir, 'quiet.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'quiet',
      description: 'a few reads a second',
      model: 'open',
      duration: 2,
      classes: { read: { rate: 20, routes: [{ route: 'me' }] } },
      thresholds: ['transport == 0'],
    }),
  );
  return file;
}

async function loadWith(metrics: string[]): Promise<{ code: number | null; stderr: string; stdout: string; json: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'spgate-metrics-fail-'));
  const json = join(dir, 'r.json');
  const r = await runCli(
    [
      'load',
      '--profile',
      quietProfile(dir),
      '--duration',
      '2',
      '--json',
      json,
      ...metrics.flatMap((m) => ['--metrics', m]),
      // Each push is bounded by the interval: at 0.5 s a starved CI machine let a working endpoint's push
      // time out too; 1 s still pushes twice in the 2 s run (once on the interval, once at the end).
      '--metrics-interval',
      '1',
    ],
    { timeoutMs: 60_000 },
  );
  return { ...r, json };
}

function expectIntactResults(json: string): void {
  const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
  expect(doc.verdict).toBe('passed');
  expect(doc.load[0]!.totals.completed).toBeGreaterThan(0);
  expect(doc.load[0]!.totals.completed).toBe(doc.load[0]!.totals.sent);
  expect(doc.errors).toEqual([]);
}

describe('a failing metrics endpoint is reported once and the run goes on', () => {
  it('unreachable (connection refused): one line, exit 0, results intact; URL credentials never shown', async () => {
    const port = await refusingPort();
    const r = await loadWith([`prometheus-rw=http://spgate:hunter2secret@127.0.0.1:${port}/api/v1/write?token=qs-secret`]);
    expect(r.code, r.stderr).toBe(0);
    const lines = metricsLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `spgate: metrics: prometheus-rw http://127.0.0.1:${port}/api/v1/write: connection refused (ECONNREFUSED) — the run goes on without it; retrying each push, not reported again`,
    );
    expect(r.stderr + r.stdout).not.toMatch(/hunter2secret|qs-secret/);
    expect(stackFrames(r.stderr)).toEqual([]);
    expectIntactResults(r.json);
  });

  it('a 4xx from a remote-write endpoint: one line naming the status, not retried within a push, tried again each push', async () => {
    const ep = await endpoint(400);
    open.push(ep);
    const r = await loadWith([`prometheus-rw=${ep.url}/api/v1/write`]);
    expect(r.code, r.stderr).toBe(0);
    const lines = metricsLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(': HTTP 400: no thanks (400)');
    // More than one push reached it (each push tries once: a 400 is final), and the run still passed.
    expect(ep.hits).toBeGreaterThanOrEqual(2);
    expectIntactResults(r.json);
  });

  it('a 5xx is retried within its bound, then reported once', async () => {
    const ep = await endpoint(503);
    open.push(ep);
    const r = await loadWith([`prometheus-rw=${ep.url}/api/v1/write`]);
    expect(r.code, r.stderr).toBe(0);
    expect(metricsLines(r.stderr)).toHaveLength(1);
    expect(metricsLines(r.stderr)[0]).toContain('HTTP 503');
    expectIntactResults(r.json);
  });

  it('an endpoint that never answers cannot hang the run: bounded, reported once', async () => {
    const ep = await endpoint('silent');
    open.push(ep);
    const r = await loadWith([`prometheus-rw=${ep.url}/api/v1/write`]);
    expect(r.code, r.stderr).toBe(0);
    const lines = metricsLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('no answer in time');
    expectIntactResults(r.json);
  });

  it('two OTLP endpoints, one refusing connections and one silent: one line each, the run bounded', async () => {
    const port = await refusingPort();
    const silent = await endpoint('silent');
    open.push(silent);
    const r = await loadWith([`otlp=http://127.0.0.1:${port}/v1/metrics`, `otlp=${silent.url}/v1/metrics`]);
    expect(r.code, r.stderr).toBe(0);
    expect(metricsLines(r.stderr).sort()).toEqual(
      [
        `spgate: metrics: otlp http://127.0.0.1:${port}/v1/metrics: connection refused (ECONNREFUSED) — the run goes on without it; retrying each push, not reported again`,
        `spgate: metrics: otlp ${silent.url}/v1/metrics: no answer in time — the run goes on without it; retrying each push, not reported again`,
      ].sort(),
    );
    expectIntactResults(r.json);
  });

  it('an OTLP endpoint answering 404, beside a working one of the other kind: one line for the broken one only', async () => {
    const bad = await endpoint(404);
    const good = await endpoint(204);
    open.push(bad, good);
    const r = await loadWith([`otlp=${bad.url}/v1/metrics`, `prometheus-rw=${good.url.replace('//', '//writer:s3cret-pw@')}/api/v1/write`]);
    expect(r.code, r.stderr).toBe(0);
    const lines = metricsLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^spgate: metrics: otlp ${bad.url}/v1/metrics: .*404`));
    expect(good.hits).toBeGreaterThanOrEqual(2);
    // Remote write 1.0's headers.
    expect(good.headers).toMatchObject({
      'content-encoding': 'snappy',
      'content-type': 'application/x-protobuf',
      'x-prometheus-remote-write-version': '0.1.0',
    });
    // The URL's user info travels as Basic authorization, and is printed nowhere.
    expect(good.headers.authorization).toBe(`Basic ${Buffer.from('writer:s3cret-pw').toString('base64')}`);
    expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
    expectIntactResults(r.json);
  });
});

describe('an invalid --metrics value is a usage error before anything is sent', () => {
  for (const [value, says] of [
    ['influx=http://127.0.0.1:8086/write', 'expected KIND=URL with KIND one of prometheus-rw, otlp'],
    ['http://127.0.0.1:9090/api/v1/write', 'expected KIND=URL'],
    ['prometheus-rw=not a url', 'not a URL'],
    ['otlp=ftp://127.0.0.1/v1/metrics', 'not an http:// or https:// URL'],
    ['prometheus-rw=//user:pw-secret@', 'not a URL'],
  ] as const) {
    it(`--metrics ${value}`, async () => {
      const r = await runCli(['load', '--profile', 'smoke', '--duration', '1', '--metrics', value]);
      expect(r.code).toBe(2);
      const lines = errorLines(r.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^spgate: SPGATE_ERR_USAGE: --metrics /);
      expect(lines[0]).toContain(says);
      expect(r.stderr).not.toContain('pw-secret');
      // Nothing was run: no progress line, no summary.
      expect(r.stderr).not.toMatch(/sent \d+/);
      expect(r.stdout).toBe('');
    });
  }

  it('spgate run --metrics with an unknown kind: the same one line, exit 2, nothing run', async () => {
    const r = await runCli(['run', '--metrics', 'influx=http://127.0.0.1:8086/write']);
    expect(r.code).toBe(2);
    expect(errorLines(r.stderr)).toEqual([
      'spgate: SPGATE_ERR_USAGE: --metrics "influx=http://127.0.0.1:8086/write": expected KIND=URL with KIND one of prometheus-rw, otlp',
    ]);
    expect(r.stdout).toBe('');
  });

  it('--metrics-interval out of range', async () => {
    const r = await runCli([
      'load',
      '--profile',
      'smoke',
      '--duration',
      '1',
      '--metrics',
      'otlp=http://127.0.0.1:1/v1/metrics',
      '--metrics-interval',
      '0',
    ]);
    expect(r.code).toBe(2);
    expect(errorLines(r.stderr)).toEqual(['spgate: SPGATE_ERR_USAGE: --metrics-interval must be a number of seconds from 0.1 to 3600']);
  });
});
