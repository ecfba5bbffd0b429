/**
 * attachments.expiry fetches the signed URL (4.6): within its five minutes it must serve the file the
 * descriptor describes, an expired one (from the fixtures API) must be refused; the URL never reaches the
 * outcome. Faults attachment-url-never-expires and attachment-url-wrong-file fail it; a storage host that
 * redirects, or a target without a fixtures API, passes; a URL this machine cannot reach is inconclusive.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { proxiedReference, verdict } from '../support/proxied-conformance.js';

const CHECK = 'attachments.expiry';
const ref = proxiedReference(() => startReferenceServer({ seed: 21, budgets: { read: 1e6, write: 1e6 } }));

const noFixturesApi = (t: TargetFileInput): TargetFileInput => ({ ...t, fixtures: { ids: t.fixtures?.ids ?? {} } });
const rewriteUrl =
  (to: (url: string) => string) =>
  async (req: { path: string }, forward: () => Promise<{ status: number; headers: Record<string, string>; json?: unknown }>) => {
    const a = await forward();
    const j = a.json as { url?: string } | undefined;
    if (req.path.endsWith('/download') && a.status === 200 && typeof j?.url === 'string') return { ...a, json: { ...j, url: to(j.url) } };
    return a;
  };

/** No trace of a signed URL's signature or path anywhere in the outcome. */
function expectNoSignedUrl(out: ConformanceOutcome): void {
  const text = JSON.stringify(out);
  expect(text).not.toMatch(/signature=/);
  expect(text).not.toMatch(/\/files\/file_/);
}

describe('attachments.expiry fetches the signed URL', () => {
  it('clean server with a fixtures API: served at once, the expired one refused, judged in full (no note), no URL in the outcome', async () => {
    const out = await ref.run((_, forward) => forward(), { checks: [CHECK], runs: 1 });
    expect(verdict(out)).toBe('passed');
    expectNoSignedUrl(out);
  });

  it('attachment-url-never-expires: the expired URL is served → a finding under 4.6.expiry, without the URL', async () => {
    const out = await ref.run((_, forward) => forward(), { checks: [CHECK], runs: 1, faults: ['attachment-url-never-expires'] });
    expect(out.findings.map((f) => [f.clause, f.expected])).toEqual([
      ['4.6.expiry', 'a signed URL past its expiry (expired a minute ago) to be refused (any 4xx)'],
    ]);
    // the finding shows the fetch: under the URL's redacted form, without a key
    const fetched = out.exchanges.filter((x) => x.request.url.endsWith('/<redacted>'));
    expect(fetched.map((x) => x.response?.status)).toEqual([200]);
    expect(fetched[0]!.request.url).toBe(`${new URL(ref.server.baseUrl).origin}/<redacted>`);
    expect(fetched[0]!.request.headers.authorization).toBeUndefined();
    expectNoSignedUrl(out);
  });

  it('attachment-url-wrong-file: the URL serves other bytes than sizeBytes → a finding under 4.6.url-served', async () => {
    const out = await ref.run((_, forward) => forward(), { checks: [CHECK], runs: 1, faults: ['attachment-url-wrong-file'] });
    expect(out.findings.map((f) => f.clause)).toEqual(['4.6.url-served']);
    expect(out.findings[0]!.expected).toMatch(/sizeBytes/);
    expectNoSignedUrl(out);
  });

  it('without a fixtures API: passes on what it judged and names the untried refusal', async () => {
    const out = await ref.run((_, forward) => forward(), { checks: [CHECK], runs: 1, edit: noFixturesApi });
    expect(out.checks[0]!.status).toBe('passed');
    expect(out.checks[0]!.reason).toMatch(/refusal of an expired URL was not tried/);
    // and still fails a URL that serves the wrong file
    const bad = await ref.run((_, forward) => forward(), {
      checks: [CHECK],
      runs: 1,
      edit: noFixturesApi,
      faults: ['attachment-url-wrong-file'],
    });
    expect(bad.findings.map((f) => f.clause)).toEqual(['4.6.url-served']);
  });

  it('a URL whose host this machine cannot reach is inconclusive with the remedy, not failed', async () => {
    const out = await ref.run(
      rewriteUrl((u) => u.replace(/^http:\/\/[^/]+/, 'http://127.0.0.1:1')),
      { checks: [CHECK], runs: 1 },
    );
    expect(out.findings).toEqual([]);
    expect(out.checks[0]!.status).toBe('inconclusive');
    expect(out.checks[0]!.reason).toMatch(/could not be fetched from here/);
    expect(out.checks[0]!.remedy).toMatch(/reaches the attachment storage host/);
    expectNoSignedUrl(out);
  });

  describe('storage that redirects (a CDN in front of a bucket, another origin)', () => {
    let redirector: Server;
    let origin = '';
    let hops = 0;
    beforeAll(async () => {
      redirector = createServer((req, res) => {
        hops++;
        const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '';
        res.writeHead(302, { location: to }).end();
      });
      await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
      origin = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => redirector.close(() => r())));

    it('is followed to the file and passes; the hop is recorded redacted', async () => {
      const out = await ref.run(
        rewriteUrl((u) => `${origin}/r?to=${encodeURIComponent(u)}`),
        { checks: [CHECK], runs: 1, edit: noFixturesApi },
      );
      expect(out.checks[0]!.status).toBe('passed');
      expect(hops).toBe(1);
      // and a redirect to a file of the wrong size fails, its URL kept out
      const bad = await ref.run(
        rewriteUrl((u) => `${origin}/r?to=${encodeURIComponent(u)}`),
        { checks: [CHECK], runs: 1, edit: noFixturesApi, faults: ['attachment-url-wrong-file'] },
      );
      expect(bad.findings.map((f) => f.clause)).toEqual(['4.6.url-served']);
      expect(hops).toBe(2);
      expectNoSignedUrl(bad);
      expect(JSON.stringify(bad)).not.toMatch(/to=http/);
    });
  });
});

describe('the descriptor fetch on the embedded target', () => {
  it("a run over the server's own target file (fixtures API) judges the expiry in full", async () => {
    const server = await startReferenceServer({ seed: 3 });
    try {
      const out = await runConformance({ target: targetFromInput(server.target, 'embedded'), checks: [CHECK], runs: 1, seed: 1 });
      expect(out.checks[0]!.status).toBe('passed');
      expect(out.checks[0]!.reason).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
