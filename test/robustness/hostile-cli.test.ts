/**
 * Every misbehaving-target mode of the hostile server, against the real CLI, for both `spgate conformance`
 * and `spgate load`: each finishes within a bound, writes its results file, and reports a finding or a
 * one-line error — never a stack trace, never a hang, never the key anywhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Results } from '../../src/results/schema.js';
import { errorLines, runCli, stackFrames, type CliRun } from '../support/cli.js';
import { HOSTILE_MODES, startHostileServer, type HostileMode, type HostileServer } from '../support/hostile-server.js';
import { tempDir, writeTarget } from '../support/target-file.js';

const KEY = 'pk_robust_admin_0123456789';
// Short client bounds: a stalled target costs two seconds per request, not the defaults' minutes.
const TIMEOUTS = { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_500, requestMs: 2_000 };
// Generous "finished at all" bound of one CLI run (startup included); the hard kill is later.
const BOUND_MS = 30_000;

// Modes where a request never completes normally: the engines' own time and size bounds are what end it.
const STALLING: readonly HostileMode[] = ['refused', 'reset-mid-body', 'slow-headers', 'slow-body', 'huge-body'];

const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

interface Outcome {
  run: CliRun;
  results: Results;
}

async function runAgainst(server: HostileServer, command: 'conformance' | 'load', profile = 'smoke'): Promise<Outcome> {
  const dir = tempDir();
  const target = writeTarget(dir, server.url, { timeouts: TIMEOUTS });
  const json = join(dir, 'out.json');
  const args =
    command === 'conformance'
      ? ['conformance', '--target', target, '--suite', 'auth', '--runs', '2', '--seed', '7', '--json', json]
      : ['load', '--target', target, '--profile', profile, '--duration', '2', '--json', json];
  const run = await runCli(args, { timeoutMs: BOUND_MS + 15_000 });
  expect(run.timedOut, `${command} hung:\n${run.stderr}`).toBe(false);
  expect(existsSync(json), `${command} wrote no results file:\n${run.stderr}`).toBe(true);
  return { run, results: Results.parse(JSON.parse(readFileSync(json, 'utf8'))) };
}

/** The shared guarantees of one run against a hostile server. */
function expectHandled(command: string, { run, results }: Outcome): void {
  const all = run.stdout + run.stderr;
  expect(run.ms, `${command} took ${run.ms} ms`).toBeLessThan(BOUND_MS);
  expect(stackFrames(all), `${command} printed a stack trace:\n${all}`).toEqual([]);
  expect(all).not.toContain(KEY);
  expect(JSON.stringify(results)).not.toContain(KEY);
  expect([1, 3], `${command} exit code ${run.code}:\n${run.stderr}`).toContain(run.code);
  const lines = errorLines(run.stderr);
  expect(lines.length, `at most one error line:\n${run.stderr}`).toBeLessThanOrEqual(1);
  const findings = results.findings.length;
  const breached = results.load.some((p) => p.thresholds.some((t) => !t.ok));
  const errored = results.errors.length > 0 || results.load.some((p) => p.status === 'error');
  if (run.code === 1) expect(findings > 0 || breached, `${command} exit 1 without a finding`).toBe(true);
  if (run.code === 3) {
    expect(errored, `${command} exit 3 without a recorded error`).toBe(true);
    // The reason is on the terminal in one line: spgate's error line, or the profile's status line.
    expect(lines.length === 1 || /— error: /.test(run.stdout), `${command} exit 3 without a one-line reason`).toBe(true);
  }
}

// One mode at a time: the CLI runs are held to BOUND_MS, and five modes side by side (fifteen children) on a
// loaded 2-core machine took conformance past it (39-44 s at load 18).
describe('spgate against misbehaving targets (real CLI)', () => {
  it.each(HOSTILE_MODES.map((m) => [m]))(
    '%s: conformance and load finish, write results and report',
    async (mode: HostileMode) => {
      const server = await startHostileServer(mode);
      servers.push(server);
      // The runs are independent (their assertions read the server's counters only after all have ended), and
      // against a stalling target most of their time is spent waiting out the client bounds: side by side.
      const stalling = STALLING.includes(mode);
      const [conformance, load, closedModel] = await Promise.all([
        runAgainst(server, 'conformance'),
        runAgainst(server, 'load'),
        stalling ? runAgainst(server, 'load', 'read-budget') : undefined,
      ]);
      expectHandled('conformance', conformance);
      expectHandled('load', load);

      switch (mode) {
        case 'refused':
        case 'slow-headers':
        case 'slow-body':
        case 'reset-mid-body':
          // Nothing usable came back: conformance stops at its preflight, load counts transport errors.
          expect(conformance.run.code).toBe(3);
          expect(errorLines(conformance.run.stderr)[0]).toMatch(/SPGATE_ERR_TARGET_UNREACHABLE/);
          expect(load.run.code).toBe(3);
          expect(load.results.load[0]!.totals.errors).toBeGreaterThan(0);
          expect(load.results.load[0]!.totals.completed).toBe(0);
          break;
        case 'redirect-cross-origin':
          // The 302 is recorded, never followed: the other origin never sees a request, let alone the key.
          expect(server.hits.redirectTarget).toEqual({ requests: 0, withAuthorization: 0 });
          expect(JSON.stringify(conformance.results) + conformance.run.stdout).not.toContain('signature=deadbeef');
          break;
        case 'huge-body':
          // The transfer was cut short: nowhere near 50 MB per request crossed the wire.
          expect(server.hits.bodyBytesSent).toBeLessThan(server.hits.requests * 8 * 1024 * 1024);
          break;
        case 'error-storm':
          expect(load.results.load[0]!.totals.byStatus['500']).toBeGreaterThan(0);
          expect(load.results.load[0]!.totals.byStatus['503']).toBeGreaterThan(0);
          break;
        default:
          break;
      }
      if (stalling) {
        // The closed model sends again the moment a request ends: the same bounds and guarantees hold there.
        const closed = closedModel!;
        expectHandled('load (closed model)', closed);
        const totals = closed.results.load[0]!.totals;
        // A huge body counts as a response, unread (as in the open model); every other stall is a transport error.
        if (mode === 'huge-body') expect(totals.completed).toBeGreaterThan(0);
        else expect(totals.errors).toBeGreaterThan(0);
        expect(totals.completed + totals.errors).toBe(totals.sent);
        expect(server.hits.bodyBytesSent).toBeLessThan(server.hits.requests * 8 * 1024 * 1024 + 1);
      }
      if (mode !== 'refused') {
        // Every request the load run sent reached the server: none was silently lost.
        expect(server.hits.requests).toBeGreaterThan(0);
      }
    },
    3 * (BOUND_MS + 15_000),
  );
});
