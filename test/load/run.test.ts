import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { builtinProfileNames, loadProfile, parseProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { ProfileResult } from '../../src/results/schema.js';
import { TraceRecord } from '../../src/trace/record.js';
import { SECRET, startCountingServer, type CountingServer } from './support/counting-server.js';

let ref: RunningReferenceServer;
beforeAll(async () => {
  ref = await startReferenceServer({ port: 0, seed: 7, budgets: { read: 60, write: 20, windowSeconds: 1 } });
});
afterAll(async () => {
  await ref?.close();
});

describe('built-in profiles against the reference server', () => {
  // Caps keep every run small; they also exercise the clamping path of every profile. Each run has a server
  // of its own (none spends another's budget), so they go side by side.
  const CLEAN = '%s runs, verifies every response and reports no finding on the clean server';
  it.concurrent.for(builtinProfileNames())(CLEAN, async (name, { expect }) => {
    const own = await startReferenceServer({ port: 0, seed: 7, budgets: { read: 60, write: 20, windowSeconds: 1 } });
    const { result, findings } = await runProfile({
      target: targetFromInput({ ...own.target, caps: { maxRps: 150, maxRequests: 400 } }, 'embedded'),
      profile: loadProfile(name),
      durationOverride: 1.5,
    }).finally(() => own.close());
    expect(ProfileResult.safeParse(result).success).toBe(true);
    expect(result.status === 'passed' || result.status === 'failed').toBe(true);
    expect(result.totals.sent).toBeGreaterThan(0);
    expect(result.totals.sent).toBeLessThanOrEqual(400);
    expect(result.totals.byStatus['500'] ?? 0).toBe(0);
    expect(findings).toEqual([]);
    expect(result.rateLimit.violations).toEqual([]);
    expect(result.latency.length).toBeGreaterThan(0);
    expect(result.timeline.length).toBeGreaterThan(0);
    expect(String(result.config.notes)).toContain('caps');
    if (name === 'capacity') expect(result.capacity).toBeDefined();
  });

  it.each(['read-budget', 'write-budget'])('%s drives its class past a small budget: 429s, no violation, thresholds hold', async (name) => {
    const target = targetFromInput(ref.target, 'embedded');
    const { result, findings } = await runProfile({ target, profile: loadProfile(name), durationOverride: 2.5 });
    const cls = name.startsWith('read') ? 'read' : 'write';
    const analysis = result.rateLimit.classes.find((c) => c.class === cls);
    expect(result.totals.byStatus['429']).toBeGreaterThan(0);
    expect(analysis?.observedLimit).toBe(cls === 'read' ? 60 : 20);
    expect(findings).toEqual([]);
    expect(result.thresholds.filter((t) => !t.ok)).toEqual([]);
    expect(result.status).toBe('passed');
    // The fine-grained series shows the budget draining to 0 and refilling (a new window) at least once.
    const buckets = result.rateLimitSeries![cls];
    expect(buckets.some((b) => b[1] === 0 && b[3] > 0)).toBe(true);
    const refill = buckets.findIndex((b, i) => i > 0 && buckets[i - 1]![1] === 0 && (b[2] ?? 0) > 0);
    expect(refill).toBeGreaterThan(0);
    expect(buckets.every((b) => (b[2] ?? 0) <= analysis!.observedLimit!)).toBe(true);
  });

  it('the closed engine reads the code of every 429 body: a wrong one is a finding citing requests', async () => {
    // The engine decodes only 429 bodies (autocannon-client.ts); a wrong code there must still be seen.
    const faulty = await startReferenceServer({
      port: 0,
      seed: 7,
      budgets: { read: 60, write: 20, windowSeconds: 1 },
      faults: ['ratelimit-429-code'],
    });
    try {
      const { result, findings } = await runProfile({
        target: targetFromInput(faulty.target, 'embedded'),
        profile: loadProfile('read-budget'),
        durationOverride: 1.5,
      });
      const code = findings.find((f) => f.clause === '8.ratelimit.429-code');
      expect(code, findings.map((f) => f.clause).join(', ')).toBeDefined();
      expect(code!.actual).toContain('too_many_requests');
      expect(result.totals.byStatus['429']).toBeGreaterThan(0);
    } finally {
      await faulty.close();
    }
  });

  it('writes a trace with route templates and no key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-trace-'));
    const tracePath = join(dir, 't.ndjson');
    const target = targetFromInput(ref.target, 'embedded');
    const { result } = await runProfile({ target, profile: loadProfile('smoke'), durationOverride: 1, tracePath });
    const text = readFileSync(tracePath, 'utf8');
    const lines = text.trim().split('\n');
    expect(lines.length).toBe(result.totals.completed + result.totals.errors);
    for (const secret of Object.values(target.secrets)) expect(text).not.toContain(secret!);
    const records = lines.map((l) => TraceRecord.parse(JSON.parse(l)));
    expect(records.some((r) => r.path.includes('{conversationId}'))).toBe(true);
    expect(text).not.toContain(target.fixtures.ids.conversationId!);
    expect(records.every((r) => r.key === 'admin')).toBe(true);
    expect(result.trace).toBe(tracePath);
  });

  it('stops at once when aborted and returns the partial result', async () => {
    const target = targetFromInput(ref.target, 'embedded');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 700);
    const { result } = await runProfile({ target, profile: loadProfile('soak'), signal: ac.signal });
    expect(result.status).toBe('aborted');
    expect(result.durationMs).toBeLessThan(3000);
    expect(result.totals.sent).toBeGreaterThan(0);
  });
});

describe('caps, counted at the server', () => {
  let srv: CountingServer;
  beforeAll(async () => {
    srv = await startCountingServer();
  });
  afterAll(async () => {
    await srv?.close();
  });
  const open = parseProfile(
    {
      name: 'o',
      description: 'd',
      model: 'open',
      duration: 2,
      classes: { read: { rate: 500, routes: [{ route: 'me' }] }, write: { rate: 500, routes: [{ route: 'assign' }] } },
    },
    't',
  );
  const closed = parseProfile(
    { name: 'c', description: 'd', model: 'closed', duration: 2, classes: { read: { connections: 4, routes: [{ route: 'me' }] } } },
    't',
  );

  it.each([
    ['open', open],
    ['closed', closed],
  ] as const)('%s model never sends more than caps.maxRequests', async (_n, profile) => {
    const before = srv.count();
    const { result } = await runProfile({ target: srv.target({ caps: { maxRequests: 120 } }), profile });
    expect(srv.count() - before).toBeLessThanOrEqual(120 + 1); // + the open model's one warm-up request outside /v1
    expect(result.totals.sent).toBeLessThanOrEqual(120);
  });

  it.each([
    ['open', open],
    ['closed', closed],
  ] as const)('%s model stays within caps.maxRps and caps.maxDuration', async (_n, profile) => {
    const before = srv.count();
    const { result } = await runProfile({ target: srv.target({ caps: { maxRps: 40, maxDuration: 1.5 } }), profile });
    const received = srv.count() - before;
    expect(received).toBeLessThanOrEqual(40 * 2 + 1);
    expect(result.durationMs).toBeLessThan(3000);
    for (const p of result.timeline) expect(p.sent).toBeLessThanOrEqual(40);
    expect(String(result.config.notes)).toContain('maxRps');
  });

  it("closed model: every response reaches the result, none held back in its batches (counts equal the server's)", async () => {
    // Two classes share one batch; 300 requests at full speed fill it many times, and the last partial batch is flushed at the end.
    const both = parseProfile(
      {
        name: 'c2',
        description: 'd',
        model: 'closed',
        duration: 10,
        classes: { read: { connections: 3, routes: [{ route: 'me' }] }, write: { connections: 2, routes: [{ route: 'assign' }] } },
      },
      't',
    );
    const before = srv.count();
    const { result } = await runProfile({ target: srv.target({ caps: { maxRequests: 301 } }), profile: both });
    const served = srv.count() - before;
    expect(served).toBeGreaterThan(256);
    expect(result.totals.completed).toBe(served);
    expect(result.totals.sent).toBe(served);
    expect(result.totals.byClass.read + result.totals.byClass.write).toBe(served);
    expect(result.timeline.reduce((n, p) => n + p.completed, 0)).toBe(served);
  });

  it('never lets the key reach the result', async () => {
    const { result, findings } = await runProfile({ target: srv.target(), profile: open, durationOverride: 0.5 });
    expect(JSON.stringify({ result, findings })).not.toContain(SECRET);
  });
});
