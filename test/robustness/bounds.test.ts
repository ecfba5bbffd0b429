/**
 * The pure and in-process pieces behind the CLI guarantees: the sliding-window rate gate, the open
 * engine's request deadline and body reader (against the hostile server), the target's timeouts block,
 * the pk_live_ write warning, and the dry-run plans.
 */
import fc from 'fast-check';
import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/load/profile.js';
import { planProfile } from '../../src/load/plan.js';
import { RateGate } from '../../src/load/rate-gate.js';
import { deadlineSignal, describeBodyError, readLoadBody } from '../../src/load/request-bounds.js';
import { conformancePlanLines } from '../../src/dry-run/conformance.js';
import { planConformance } from '../support/conformance.js';
import { expectedRequests, loadPlanLines } from '../../src/dry-run/load.js';
import { legacyWriteWarning, WRITING_ROLES } from '../../src/target/legacy-keys.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { clientTimeouts } from '../../src/target/timeouts.js';
import { startHostileServer, type HostileMode, type HostileServer } from '../support/hostile-server.js';

describe('RateGate', () => {
  it('never admits more than maxRps sends in any window of 1 s (property, integer and fractional caps)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 50, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 40, noNaN: true }), { minLength: 1, maxLength: 400 }),
        (maxRps, gaps) => {
          const gate = new RateGate(maxRps);
          const admitted: number[] = [];
          let t = 0;
          for (const g of gaps) {
            t += g;
            if (gate.tryTake(t)) admitted.push(t);
          }
          const k = Math.max(1, Math.floor(maxRps));
          const windowMs = (1000 * k) / maxRps;
          // Any k+1 consecutive admissions span at least the window.
          for (let i = k; i < admitted.length; i++) expect(admitted[i]! - admitted[i - k]!).toBeGreaterThanOrEqual(windowMs - 1e-9);
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });

  it('admits a steady stream at the cap', () => {
    const gate = new RateGate(10);
    let admitted = 0;
    for (let t = 0; t < 10_000; t += 100) if (gate.tryTake(t)) admitted++;
    expect(admitted).toBe(100);
  });
});

describe('load request bounds against the hostile server', () => {
  let server: HostileServer | undefined;
  let pool: Pool | undefined;
  afterEach(async () => {
    await pool?.destroy();
    await server?.close();
    pool = undefined;
    server = undefined;
  });

  async function fetchOnce(mode: HostileMode, deadlineMs: number): Promise<{ error?: string; text?: string }> {
    server = await startHostileServer(mode);
    const url = new URL(server.url);
    pool = new Pool(url.origin, { connections: 1 });
    const parent = new AbortController();
    const d = deadlineSignal(parent.signal, deadlineMs);
    try {
      const res = await pool.request({ path: '/v1/customers', method: 'GET', signal: d.signal });
      return await readLoadBody(res.body, true, res.headers['content-length']);
    } catch (err) {
      return { error: describeBodyError(err) };
    } finally {
      d.clear();
    }
  }

  it('slow-body: the whole-request deadline ends a body trickling one byte a second', async () => {
    const r = await fetchOnce('slow-body', 300);
    expect(r.error).toBe('timeout: no complete response within 300 ms');
    expect(server!.hits.bodyBytesSent).toBeLessThan(10);
  });

  it('slow-headers: the deadline also ends a response whose headers never finish', async () => {
    expect((await fetchOnce('slow-headers', 300)).error).toBe('timeout: no complete response within 300 ms');
  });

  it('reset-mid-body: a body cut short is an error, not a completed response', async () => {
    const r = await fetchOnce('reset-mid-body', 5_000);
    expect(r.error).toBeDefined();
    expect(r.text).toBeUndefined();
  });

  it('huge-body: a declared 50 MB body is not read at all', async () => {
    const r = await fetchOnce('huge-body', 5_000);
    expect(r.error).toBeUndefined();
    expect(r.text).toBeUndefined();
  });

  it('a parent abort reaches the request at once', async () => {
    server = await startHostileServer('slow-headers');
    pool = new Pool(new URL(server.url).origin, { connections: 1 });
    const parent = new AbortController();
    const d = deadlineSignal(parent.signal, 60_000);
    const pending = pool.request({ path: '/v1/me', method: 'GET', signal: d.signal });
    setTimeout(() => parent.abort(new Error('stop')), 50);
    await expect(pending).rejects.toThrow('stop');
    d.clear();
  });
});

describe('target timeouts block', () => {
  const base = { baseUrl: 'http://127.0.0.1:1/v1', keys: { admin: { key: 'pk_robust_admin_0123456789' } } };

  it('absent: the client keeps its own defaults', () => {
    expect(clientTimeouts(targetFromInput(base, 't'))).toEqual({});
  });

  it('requestMs caps the other bounds and is the overall timeout', () => {
    const t = targetFromInput({ ...base, timeouts: { headersMs: 5_000, requestMs: 2_000 } }, 't');
    expect(clientTimeouts(t)).toEqual({ connectTimeoutMs: 2_000, headersTimeoutMs: 2_000, bodyTimeoutMs: 2_000, timeoutMs: 2_000 });
  });

  it('lowers a load profile request timeout and says so', () => {
    const t = targetFromInput({ ...base, timeouts: { requestMs: 1_500 } }, 't');
    const plan = planProfile(loadProfile('smoke'), t, 1);
    expect(plan.timeoutMs).toBe(1_500);
    expect(plan.config.notes.join('\n')).toContain("target's timeouts.requestMs 1500 ms");
  });

  it('rejects a non-positive bound naming the field', () => {
    expect(() => targetFromInput({ ...base, timeouts: { bodyMs: 0 } }, 'x.json')).toThrow(/x\.json: timeouts\.bodyMs/);
  });
});

describe('pk_live_ write warning (spec part 5)', () => {
  it('only for writes, only for pk_live_ keys of writing roles', () => {
    const secrets = { admin: 'pk_live_abc123456', legacyLive: 'pk_live_zzz999999', readOnly: 'pk_live_ro1234567' };
    expect(legacyWriteWarning(secrets, WRITING_ROLES, false)).toBeUndefined();
    expect(legacyWriteWarning(secrets, WRITING_ROLES, true)).toMatch(/\(admin\).*does not isolate data \(spec part 5\)/);
    expect(legacyWriteWarning({ admin: 'pk_abc123456' }, WRITING_ROLES, true)).toBeUndefined();
    expect(legacyWriteWarning(secrets, ['legacyLive'], true)).toContain('(legacyLive)');
  });

  it('a target with a pk_live_ admin key and allowWrites carries the warning; the key is not in it', () => {
    const t = targetFromInput(
      { baseUrl: 'http://127.0.0.1:1/v1', allowWrites: true, keys: { admin: { key: 'pk_live_secret_0123456789' } } },
      't',
    );
    expect(t.warnings.filter((w) => w.includes('pk_live_'))).toHaveLength(1);
    expect(t.warnings.join('\n')).not.toContain('pk_live_secret_0123456789');
  });

  it('a load write route on the legacyLive key gets a plan note', () => {
    const t = targetFromInput(
      {
        baseUrl: 'http://127.0.0.1:1/v1',
        allowWrites: true,
        fixtures: { ids: { conversationId: 'conv_1' } },
        keys: { admin: { key: 'pk_admin_0123456789' }, legacyLive: { key: 'pk_live_0123456789' } },
      },
      't',
    );
    const profile = {
      ...loadProfile('write-budget'),
      classes: { write: { routes: [{ route: 'assign' as const, weight: 1, key: 'legacyLive' as const }], rate: 5 } },
    };
    expect(planProfile(profile, t, 1).config.notes.join('\n')).toMatch(/pk_live_ key\(s\) \(legacyLive\)/);
  });
});

describe('dry-run plans', () => {
  const target = targetFromInput(
    { baseUrl: 'http://127.0.0.1:1/v1', keys: { admin: { key: 'pk_admin_0123456789' } }, caps: { maxRps: 6, maxDuration: 3 } },
    't',
  );

  it('conformance: skips without allowWrites and fixtures are listed with their reasons', () => {
    const plan = planConformance(target, ['status'], 5, 9);
    const s = plan.suites[0]!;
    expect(s.destructive).toEqual([]);
    expect(s.skipped.length).toBeGreaterThan(0);
    const lines = conformancePlanLines(plan).join('\n');
    expect(lines).toMatch(/skip status\.resolve\.default: .*allowWrites|skip status\.resolve\.default: .*(key|fixtures)/);
    expect(lines).toContain('destructive checks that would run: none');
  });

  it('load: requests per class follow the capped rate and duration', () => {
    const plan = planProfile(loadProfile('smoke'), target);
    expect(plan.durationMs).toBe(3_000);
    const read = plan.classes.find((c) => c.class === 'read')!;
    expect(expectedRequests(plan, read)).toBeLessThanOrEqual(6 * 3);
    const lines = loadPlanLines(plan, target).join('\n');
    expect(lines).toContain('caps: maxRps 6 · maxRequests none · maxDuration 3s');
    expect(lines).toContain('note: write routes left out');
  });
});
