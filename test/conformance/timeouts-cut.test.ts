/**
 * A request spgate gave up on (the client's 'timeout', here the target's timeouts.requestMs) cuts the case:
 * the server may have answered correctly a moment later, so a loaded machine or a slow staging is never a
 * finding. Through a proxy that holds some answers past the target's request timeout: a cut single case makes
 * its check inconclusive with the reason and the target-file field, a property is judged on its uncut runs
 * (and still fails under its fault), a property whose every run is cut is inconclusive, and a reset (the
 * server's doing) is still a finding. The one rule (recorder.ts cutBy) is also checked without a network.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Dispatcher } from 'undici';
import type { Exchange } from '../../src/client/exchange.js';
import type { RequestSpec } from '../../src/client/types.js';
import { Inconclusive } from '../../src/conformance/inconclusive.js';
import { describeAnswer, runCase, type Recorder } from '../../src/conformance/recorder.js';
import { defineSuite, type SuiteDef } from '../../src/conformance/suite.js';
import { Parts } from '../../suites/model/parts.js';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { startReferenceServer, type FaultName, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { runConformance } from '../support/conformance.js';
import { verdict } from '../support/proxied-conformance.js';
import { listening, readBody } from '../checks/rewriting-proxy.js';

/** The target's request timeout: short so held requests cost little, long enough for a loopback answer. */
const REQUEST_MS = 500;
/** Longest a held answer is kept back after the client has given up (the proxy then drops it). */
const HOLD_CAP_MS = 3 * REQUEST_MS;

type Treatment = 'pass' | 'hold' | 'reset';
type Rule = (method: string, path: string, body: string) => Treatment;

/** A loopback proxy to `upstream` that forwards every request and holds or resets the answers `rule` picks. */
async function startHoldingProxy(upstream: string, rule: Rule): Promise<{ url: string; close(): Promise<void> }> {
  const base = upstream.replace(/\/+$/, '');
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? '/').replace(/^\/v1/, '');
      const treatment = rule(req.method ?? 'GET', path, body.toString('utf8'));
      if (treatment === 'reset') {
        req.socket.destroy();
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const r = await request(base + path, {
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers,
        ...(body.length ? { body } : {}),
      });
      const text = await r.body.text();
      if (treatment === 'hold') {
        // The server has answered (its effect happened); the answer reaches the client only after it gave up.
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, HOLD_CAP_MS);
          res.once('close', () => {
            clearTimeout(t);
            resolve();
          });
        });
        if (!res.destroyed) req.socket.destroy();
        return;
      }
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers))
        if (v !== undefined && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k))
          out[k] = Array.isArray(v) ? v.join(', ') : v;
      res.writeHead(r.statusCode, { ...out, 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    })().catch(() => req.socket.destroy());
  });
  return listening(server);
}

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ seed: 30, budgets: { read: 1e6, write: 1e6 } });
});
afterAll(async () => {
  await server?.close();
});

/** Runs `checks` through a holding proxy with the target's request timeout at REQUEST_MS. */
async function heldRun(
  rule: Rule,
  checks: string[],
  runs: number,
  faults: FaultName[] = [],
  catalogue?: SuiteDef[],
): Promise<ConformanceOutcome> {
  const proxy = await startHoldingProxy(server.target.baseUrl, rule);
  const input: TargetFileInput = { ...(server.target as TargetFileInput), baseUrl: proxy.url, timeouts: { requestMs: REQUEST_MS } };
  server.setFaults(faults);
  try {
    return await runConformance({ target: targetFromInput(input, 'embedded'), checks, runs, seed: 1, ...(catalogue ? { catalogue } : {}) });
  } finally {
    server.setFaults([]);
    await proxy.close();
  }
}

const DOWNLOAD = /^\/messages\/msg_spgate_missing\/attachments\/0\/download/;
const RESOLVE = /^\/conversations\/[^/]+\/resolve/;
/** The status key of a resolve body. */
const statusKey = (body: string): string => {
  try {
    return String((JSON.parse(body) as { status?: unknown }).status ?? '');
  } catch {
    return '';
  }
};
/** Holds the resolves whose status key has an even length: the same inputs are cut on every run and re-run. */
const holdEvenKeys: Rule = (method, path, body) =>
  method === 'POST' && RESOLVE.test(path) && statusKey(body).length % 2 === 0 ? 'hold' : 'pass';

const findings = (out: ConformanceOutcome): string[] => out.findings.map((f) => `${f.checkId} ${f.clause}: ${f.expected}; ${f.actual}`);

describe('a case cut by a request spgate gave up on', () => {
  it('(a) a single case whose request is held: inconclusive with the reason and the target-file field, no finding', async () => {
    const out = await heldRun((m, p) => (DOWNLOAD.test(p) ? 'hold' : 'pass'), ['errors.route-not-found'], 3);
    expect(findings(out)).toEqual([]);
    expect(verdict(out)).toMatch(
      /^inconclusive: \d+ of \d+ cases cut by requests spgate gave up on after \d+ ms \(first: expected .*; got GET \/messages\/msg_spgate_missing\/attachments\/0\/download: no response \(timeout/,
    );
    expect(out.checks[0]?.remedy).toMatch(/timeouts\.requestMs/);
  });

  it('(a) a cut never hides a finding: under its fault the same held case still fails on the answered requests', async () => {
    const out = await heldRun((m, p) => (DOWNLOAD.test(p) ? 'hold' : 'pass'), ['errors.route-not-found'], 3, ['not-found-code']);
    expect(out.checks[0]?.status).toBe('failed');
    expect(findings(out).length).toBeGreaterThan(0);
    expect(findings(out).filter((f) => /timeout/.test(f))).toEqual([]);
  });

  it('(b) a property with some runs held is judged on the others: passes on the clean server, naming the cuts', async () => {
    const out = await heldRun(holdEvenKeys, ['errors.unknown-status'], 8);
    expect(findings(out)).toEqual([]);
    expect(verdict(out)).toMatch(/^passed: [1-7] of 8 cases cut by requests spgate gave up on after \d+ ms .*; [1-7] judged$/);
  });

  it('(b) … and still fails under its fault, the finding on an answered run', async () => {
    const out = await heldRun(holdEvenKeys, ['errors.unknown-status'], 8, ['unknown-status-code']);
    expect(out.checks[0]?.status).toBe('failed');
    const f = out.findings[0]!;
    expect(f.actual).not.toMatch(/timeout/);
    expect(f.clause).toBe('7.unknown-status');
  });

  it('(c) a property whose every run is held is inconclusive, never passed', async () => {
    const out = await heldRun((m, p) => (m === 'POST' && RESOLVE.test(p) ? 'hold' : 'pass'), ['errors.unknown-status'], 4);
    expect(findings(out)).toEqual([]);
    expect(verdict(out)).toMatch(
      /^inconclusive: 4 of 4 cases cut by requests spgate gave up on after \d+ ms .*; 0 judged, fewer than the 1/,
    );
    expect(out.checks[0]?.remedy).toMatch(/timeouts\.requestMs/);
  });

  it('(a) a check that builds its failed outcome itself, on a held request: inconclusive too (the runner applies the rule)', async () => {
    const own = defineSuite({
      name: 'own',
      description: 'a check that builds its outcome without a Recorder',
      checks: [
        {
          id: 'own.statuses',
          clause: '4.10.statuses',
          title: 'GET /statuses answers 200',
          async run(ctx) {
            const x = await ctx.send({ method: 'GET', path: '/statuses' });
            if (x.response?.status === 200) return { status: 'passed', cases: 1 };
            return {
              status: 'failed',
              cases: 1,
              failures: [{ expected: 'GET /statuses: HTTP 200', actual: describeAnswer(x), exchanges: [x] }],
            };
          },
        },
      ],
    });
    const held = await heldRun((m, p) => (p.startsWith('/statuses') ? 'hold' : 'pass'), ['own.statuses'], 1, [], [own]);
    expect(findings(held)).toEqual([]);
    expect(verdict(held)).toMatch(
      /^inconclusive: 1 of 1 cases cut by requests spgate gave up on after \d+ ms \(first: expected GET \/statuses/,
    );
    const reset = await heldRun((m, p) => (p.startsWith('/statuses') ? 'reset' : 'pass'), ['own.statuses'], 1, [], [own]);
    expect(reset.checks[0]?.status).toBe('failed');
  });

  it('(d) a reset (the proxy destroys the socket) is still a finding where the check expects an answer', async () => {
    const out = await heldRun((m, p) => (DOWNLOAD.test(p) ? 'reset' : 'pass'), ['errors.route-not-found'], 3);
    expect(out.checks[0]?.status).toBe('failed');
    expect(findings(out).some((f) => /no response \(reset/.test(f))).toBe(true);
  });
});

/** An exchange without a response, as the client records a transport error. */
function unanswered(id: string, kind: 'timeout' | 'reset', spec: RequestSpec): Exchange {
  const message = kind === 'timeout' ? 'no complete response within 250 ms' : 'ECONNRESET: socket hang up';
  return {
    id,
    request: { method: spec.method, url: spec.path, headers: {}, bodyBytes: 0 },
    error: { kind, message },
    timings: { start: 0, total: 250 },
  };
}

/** A sender answering every request with `kind`, except the paths in `answered` (a 500). */
function sender(kind: 'timeout' | 'reset', answered: string[] = []) {
  let n = 0;
  return {
    send: async (spec: RequestSpec): Promise<Exchange> => {
      const id = `x${++n}`;
      if (!answered.includes(spec.path)) return unanswered(id, kind, spec);
      return {
        id,
        request: { method: spec.method, url: spec.path, headers: {}, bodyBytes: 0 },
        response: { status: 500, headers: {}, body: '', bodyBytes: 0 },
        timings: { start: 0, total: 1 },
      };
    },
  };
}

describe('cutBy, the one rule (runCase without a network)', () => {
  it('a timed-out expectation alone: inconclusive naming the bound, whether the case went on or stopped', async () => {
    const body = async (rec: Recorder): Promise<void> => {
      const x = await rec.send({ method: 'GET', path: '/a' });
      rec.expect(x.response?.status === 200, 'GET /a: HTTP 200', () => 'no answer', [x]);
      const y = await rec.send({ method: 'GET', path: '/b' });
      rec.require(y.response?.status === 200, 'GET /b: HTTP 200', () => 'no answer', [y]);
    };
    const err = await runCase(sender('timeout'), body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Inconclusive);
    expect((err as Inconclusive).message).toMatch(/^2 of 2 cases cut by requests spgate gave up on after 250 ms \(first: expected GET \/a/);
    expect((err as Inconclusive).remedy).toMatch(/timeouts\.requestMs/);
    // A case inside a check of parts is a part not tried, never one judged.
    const parts = new Parts(sender('timeout'));
    await parts.run('the part', body);
    const out = parts.outcome();
    expect(out.status).toBe('inconclusive');
    expect(out.status === 'inconclusive' && out.reason).toMatch(/^no part could be judged: the part \(2 of 2 cases cut/);
  });

  it('a failure on an answered exchange beside a cut one still fails, with only that failure', async () => {
    const out = await runCase(sender('timeout', ['/b']), async (rec) => {
      const x = await rec.send({ method: 'GET', path: '/a' });
      rec.expect(x.response?.status === 200, 'GET /a: HTTP 200', () => 'no answer', [x]);
      const y = await rec.send({ method: 'GET', path: '/b' });
      rec.expect(y.response?.status === 200, 'GET /b: HTTP 200', () => 'HTTP 500', [y]);
    });
    expect(out.status).toBe('failed');
    expect(out.status === 'failed' && out.failures.map((f) => f.expected)).toEqual(['GET /b: HTTP 200']);
  });

  it('a reset is the server’s doing: the expectation fails', async () => {
    const out = await runCase(sender('reset'), async (rec) => {
      const x = await rec.send({ method: 'GET', path: '/a' });
      rec.require(x.response?.status === 200, 'GET /a: HTTP 200', () => 'no answer', [x]);
    });
    expect(out.status).toBe('failed');
  });
});
