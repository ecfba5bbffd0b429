/**
 * Both load engines against the hostile framing server (test/support/hostile-server.ts startFramingServer):
 * every framing a server may send, good and bad, each engine's accounting checked against the server's own
 * counts. A good framing completes every answer the server wrote, with no error; a bad one (mixed with good
 * answers: every third answer is bad) is an error naming its reason on exactly the request whose answer was
 * bad, and the good answers around it complete. Then the silent keep-alive close: a server that closes after
 * every 5th answer without saying so, with undici (the conformance client) run against the same server as
 * the bar the engines must meet.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { parseProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { FRAMINGS, startFramingServer, type Framing, type FramingServer } from '../support/hostile-server.js';

const REASONS: Partial<Record<Framing, RegExp>> = {
  'space-before-colon': /^whitespace before the colon of header "Content-Length"$/,
  'content-length-and-chunked': /^both content-length and transfer-encoding/,
  'status-4-digits': /^malformed status line: "HTTP\/1.1 2000 OK"$/,
  'chunk-size-0x': /^invalid chunk size: "0xb"$/,
  'chunk-size-junk': /^invalid chunk size: "bzz"$/,
  'content-length-23-digits': /^invalid content-length: "12345678901234567890123"$/,
  'content-length-junk': /^invalid content-length: "11x"$/,
  'head-70k-complete': /^response head longer than 65536 bytes$/,
  'junk-after-body': /^bytes after the end of the response$/,
  'two-answers-one-write': /^bytes after the end of the response$/,
  'no-content-with-body': /^bytes after the end of the response$/,
  'late-duplicate': /^bytes after the end of the response$/,
};

/** Framings where the server closes the connection itself. */
const CLOSING = new Set<Framing>(['connection-close', 'close-delimited', 'http10', 'silent-close-every-5th']);

let server: FramingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const target = (url: string) => targetFromInput({ baseUrl: url, keys: { admin: { key: 'pk_test_engine_0123456789' } } }, 't');
const profile = (model: 'open' | 'closed', requests: number, rate = 150) =>
  parseProfile(
    model === 'open'
      ? {
          name: 'f',
          description: 'd',
          model,
          duration: Math.ceil(requests / rate) + 1,
          maxRequests: requests,
          timeoutMs: 5000,
          maxConnections: 4,
          classes: { read: { rate, routes: [{ route: 'me' }] } },
        }
      : {
          name: 'f',
          description: 'd',
          model,
          duration: 30,
          maxRequests: requests,
          timeoutMs: 5000,
          classes: { read: { connections: 4, routes: [{ route: 'me' }] } },
        },
    't',
  );

/** The trace's error lines, in order. */
function traceErrors(path: string): string[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .flatMap((l) => {
      const e = (JSON.parse(l) as { error?: string }).error;
      return e === undefined ? [] : [e];
    });
}

describe.each(['closed', 'open'] as const)('the %s engine on every framing, counted against the server', (model) => {
  it.each(Object.keys(FRAMINGS) as Framing[])('%s', async (framing) => {
    server = await startFramingServer(framing);
    const tracePath = join(mkdtempSync(join(tmpdir(), 'spgate-framing-')), 't.ndjson');
    const { result } = await runProfile({ target: target(server.url), profile: profile(model, 60), tracePath });
    const t = result.totals;
    const c = server.counts;
    expect(t.sent).toBe(60);
    expect(t.completed + t.errors + t.dropped).toBe(t.sent);
    expect(t.dropped).toBe(0);
    // Every answer the server wrote is accounted for once: good ones completed, bad ones errors.
    expect(t.completed).toBe(c.good);
    expect(t.errors).toBe(c.bad);
    expect(c.requests).toBe(t.sent);
    // Connections: the engine's count is the server's; one that keeps the connection is never reconnected
    // per answer (4 connections, and the open engine's warm-up), and a bad answer closes only its own.
    expect(result.connections?.opened).toBe(c.connections);
    if (!CLOSING.has(framing)) expect(c.connections).toBeLessThanOrEqual(5 + c.bad);
    const errors = traceErrors(tracePath);
    expect(errors).toHaveLength(c.bad);
    for (const e of errors) expect(e).toMatch(REASONS[framing]!);
  });
});

describe('a server that closes silently after every 5th answer', () => {
  /** undici's error rate against the same server: `n` GETs over 4 keep-alive connections. */
  async function undiciErrorRate(url: string, n: number): Promise<number> {
    const agent = new Agent({ connections: 4 });
    let errors = 0;
    let left = n;
    const worker = async (): Promise<void> => {
      while (left-- > 0) {
        try {
          const res = await request(`${url}/me`, { dispatcher: agent });
          await res.body.dump();
        } catch {
          errors++;
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    await agent.close();
    return errors / n;
  }

  it.each([
    ['closed', 1200],
    ['open', 600],
  ] as const)(
    'the %s engine (%i requests) loses no more than undici on the same server, and counts the connections it opened',
    async (model, n) => {
      server = await startFramingServer('silent-close-every-5th');
      const bar = await undiciErrorRate(server.url, n);
      await server.close();
      server = await startFramingServer('silent-close-every-5th');
      const { result } = await runProfile({ target: target(server.url), profile: profile(model, n, 300) });
      const t = result.totals;
      expect(t.sent).toBe(n);
      expect(t.completed + t.errors).toBe(n);
      expect(t.errors / n).toBeLessThanOrEqual(bar);
      // The server closed each connection after 5 answers: the engine opened one per 5 answers (and no more than one extra per class connection).
      expect(result.connections?.opened).toBe(server.counts.connections);
      expect(server.counts.connections).toBeGreaterThanOrEqual(Math.floor(n / 5));
    },
  );
});
