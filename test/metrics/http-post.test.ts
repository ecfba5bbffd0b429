/**
 * One metrics POST, retried within its deadline (src/metrics/http-post.ts): the reason it fails with is what
 * the endpoint answered, also when the deadline cuts a retry short, and a timeout only when nothing answered.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsPoster, PushError } from '../../src/metrics/http-post.js';

/** An endpoint that answers the first `answered` requests with 503 and holds every later one unanswered. */
async function endpoint(answered: number): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    req.resume();
    if (hits <= answered) req.on('end', () => res.writeHead(503, { 'content-type': 'text/plain' }).end('busy, come back later\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/write`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((c) => c()));
});

async function failureOf(answered: number, deadlineMs: number): Promise<{ error: PushError; hits: number }> {
  const ep = await endpoint(answered);
  const poster = new MetricsPoster(ep.url, {});
  closing.push(ep.close, () => poster.close());
  const error = await poster.post(new Uint8Array([1, 2, 3]), {}, Date.now() + deadlineMs).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(PushError);
  return { error: error as PushError, hits: ep.hits() };
}

describe('a metrics POST that fails', () => {
  it('names the 503 the endpoint gave when the deadline cuts its last retry short', async () => {
    // 503, 503, then no answer: the third attempt (at about 750 ms of 1 s) times out, and adds nothing.
    const { error, hits } = await failureOf(2, 1_000);
    expect(error.reason).toBe('HTTP 503: busy, come back later');
    expect(hits).toBeGreaterThanOrEqual(2);
  });

  it('names the 503 after every attempt answered it', async () => {
    const { error, hits } = await failureOf(Infinity, 10_000);
    expect(error.reason).toBe('HTTP 503: busy, come back later');
    expect(hits).toBe(3);
  });

  it('says no answer in time when nothing answered', async () => {
    const { error, hits } = await failureOf(0, 500);
    expect(error.reason).toBe('no answer in time');
    expect(hits).toBe(1);
  });
});
