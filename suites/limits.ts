/**
 * Limits (spec part 8): request body limits per route class (a property at the boundary on one route, and
 * a sweep over every route the spec shows), the RateLimit-* headers on every response
 * seen in the run, Remaining and Reset behaving over a short sequence, and a 429 carrying Retry-After and
 * rate_limit.exceeded. Runs after the other suites to see their exchanges.
 */
import fc from 'fast-check';
import type { Exchange } from '../src/client/exchange.js';
import type { RequestSpec } from '../src/client/types.js';
import { checkErrorAnswer, checkErrorEnvelope, type ClauseViolation } from '../src/checks/envelope.js';
import { checkResponseHeaders } from '../src/checks/response-headers.js';
import { checkRemainingDecreases, checkResetCountsSeconds, unreadableAnswers } from '../src/checks/ratelimit-sequence.js';
import { defineSuite, type CheckOutcome, type SuiteContext } from '../src/conformance/suite.js';
import { checkProperty } from '../src/conformance/property.js';
import { describeAnswer, fromViolation, Recorder, runCase, statusOf } from '../src/conformance/recorder.js';
import { padJson } from '../src/conformance/reproduction.js';
import { abortableSleep } from '../src/conformance/aborted.js';
import { parseIntHeader } from '../src/spec/headers.js';
import type { ClauseId } from '../src/spec/clauses.js';
// the one route-class rule (GET is a read, every other method a write), shared with the load engine
import { routeClass } from '../src/load/routes.js';
import { readRoutes, writeRoutes, type BodyRoute } from './model/body-routes.js';
import { freshKey } from './model/requests.js';
import { cannotJudge, dataOf } from './model/world.js';

const READ_LIMIT = 1000; // "1 KB": above 1024 must be refused, up to 1000 must not
const WRITE_LIMIT = 64_000; // "64 KB": above 65536 must be refused, up to 64000 must not
const READ_LIMIT_EXCEEDED = 1025;
const WRITE_LIMIT_EXCEEDED = 65_537;
// The drive to a 429 sends at most this many requests; bigger budgets are left to the load profiles.
const MAX_DRIVE = 400;

function readSpec(bytes: number): RequestSpec {
  return { method: 'GET', path: '/customers', query: { limit: 1 }, headers: { 'content-type': 'application/json' }, rawBody: padJson(bytes) };
}

/** A write to a conversation that does not exist: it has no effect whatever the body. */
function writeSpec(bytes: number): RequestSpec {
  return { method: 'POST', path: '/conversations/conv_spgate_limits_probe/assign', headers: { 'content-type': 'application/json' }, rawBody: padJson(bytes) };
}

function windowOf(ctx: SuiteContext, method: string): number | undefined {
  return ctx.target.assumptions.rateLimit[routeClass(method)]?.windowSeconds;
}

/**
 * An answer below 500: the deployment handled the request. A transport error may never have reached it and
 * a 5xx may come from in front of it (a proxy, an overloaded gateway), so neither shows how the request was
 * taken: not a body accepted ("no 413"), not a write admitted by the limiter.
 */
function handled(x: Exchange): boolean {
  const s = statusOf(x);
  return s !== undefined && s < 500;
}

/**
 * Sends one body just above and one just within its class's limit to every route of the sweep: above, 413
 * with request.body_too_large (8.body.code); within, anything but 413 (an answer that shows nothing, see
 * handled, leaves the check skipped naming it unless it failed). Over-limit bodies go first, so a
 * refused request has changed nothing when the within-limit one arrives.
 */
function sweep(ctx: SuiteContext, routes: BodyRoute[], clause: ClauseId): Promise<CheckOutcome> {
  return runCase(ctx, async (rec) => {
    const unanswered: string[] = [];
    for (const r of routes) {
      const [over, under] = r.cls === 'read' ? [READ_LIMIT_EXCEEDED, READ_LIMIT] : [WRITE_LIMIT_EXCEEDED, WRITE_LIMIT];
      const x = await rec.send(r.request(over));
      if (rec.expect(statusOf(x) === 413, `HTTP 413 for a ${over}-byte body on ${r.label}`, () => describeAnswer(x), [x], clause)) {
        const v = checkErrorAnswer(x, 413, 'request.body_too_large', '8.body.code');
        rec.add(v ? fromViolation(v, [x]) : undefined);
      }
      const y = await rec.send(r.request(under));
      if (!handled(y)) unanswered.push(`${r.label}: ${describeAnswer(y)}`);
      else rec.expect(statusOf(y) !== 413, `no 413 for a ${under}-byte body on ${r.label} (within the limit)`, () => describeAnswer(y), [y], clause);
    }
    if (unanswered.length) cannotJudge(rec, `bodies within the limit got no answer to judge: ${unanswered.slice(0, 3).join('; ')}${unanswered.length > 3 ? ` (and ${unanswered.length - 3} more)` : ''}`);
  });
}

async function bodyLimitCheck(ctx: SuiteContext, kind: 'read' | 'write'): Promise<CheckOutcome> {
  const spec = kind === 'read' ? readSpec : writeSpec;
  const clause = kind === 'read' ? '8.body.read-limit' : '8.body.write-limit';
  const [over, under] = kind === 'read' ? [[1025, 4096], [1, READ_LIMIT]] : [[65_537, 131_072], [1, WRITE_LIMIT]];
  const arb = fc.record({ over: fc.boolean(), bytes: fc.nat() }).map(({ over: o, bytes }) => {
    const [lo, hi] = o ? over! : under!;
    return { over: o, bytes: lo! + (bytes % (hi! - lo! + 1)) };
  });
  // Bodies within the limit whose answer showed nothing (handled), of all within the limit (passing cases only count).
  const within = { all: 0, unanswered: [] as Exchange[] };
  const out = await checkProperty(ctx, arb, async ({ over: o, bytes }, io) => {
    const x = await io.send(spec(bytes));
    if (o) {
      if (x.response?.status !== 413) return { clause, expected: `HTTP 413 for a ${bytes}-byte ${kind} body`, actual: describeAnswer(x) };
      const v = checkErrorAnswer(x, 413, 'request.body_too_large', '8.body.code');
      return v ? { clause: v.clause, expected: v.expected, actual: v.actual } : undefined;
    }
    if (x.response?.status === 413) return { clause, expected: `no 413 for a ${bytes}-byte ${kind} body (within the limit)`, actual: describeAnswer(x) };
    within.all++;
    if (!handled(x)) within.unanswered.push(x);
    return undefined;
  }, {
    examples: kind === 'read'
      ? [{ over: true, bytes: 2000 }, { over: false, bytes: READ_LIMIT }, { over: true, bytes: 1025 }]
      : [{ over: true, bytes: 70_000 }, { over: false, bytes: WRITE_LIMIT }, { over: true, bytes: 65_537 }],
    describe: ({ bytes }) => `${bytes}-byte ${kind} body`,
  });
  const n = within.unanswered.length;
  if (out.status !== 'passed' || n === 0) return out;
  const first = describeAnswer(within.unanswered[0]!);
  if (n === within.all) return { status: 'skipped', reason: `every body within the limit was answered with no sign of how it was taken (${n}; first: ${first})` };
  return { ...out, note: `${n} of ${within.all} bodies within the limit were answered with no sign of how they were taken (first: ${first}); judged the others` };
}

/** Groups violations by clause: one failure per clause with a few example exchanges. */
function grouped(xs: readonly Exchange[], check: (x: Exchange) => ClauseViolation[]): Recorder {
  const t = new Recorder();
  const by = new Map<string, { v: ClauseViolation; xs: Exchange[] }>();
  for (const x of xs) {
    t.cases++;
    for (const v of check(x)) {
      const e = by.get(v.clause) ?? { v, xs: [] };
      e.xs.push(x);
      by.set(v.clause, e);
    }
  }
  for (const { v, xs: bad } of by.values()) t.failures.push({ ...fromViolation(v, bad.slice(0, 3)), actual: `${bad.length} of ${xs.length} responses; first: ${v.actual}` });
  return t;
}

export default defineSuite({
  name: 'limits',
  description: 'Body limits and rate-limit headers (spec part 8)',
  observesRun: true,
  checks: [
    {
      id: 'limits.read-body',
      clause: '8.body.read-limit',
      title: 'Read bodies above 1 KB answer 413 request.body_too_large; up to 1000 bytes they do not',
      run: (ctx) => bodyLimitCheck(ctx, 'read'),
    },
    {
      id: 'limits.write-body',
      clause: '8.body.write-limit',
      title: 'Write bodies above 64 KB answer 413 request.body_too_large; up to 64000 bytes they do not',
      run: (ctx) => bodyLimitCheck(ctx, 'write'),
    },
    {
      id: 'limits.read-body-routes',
      clause: '8.body.read-limit',
      title: 'Every read route answers a 1025-byte body with 413 request.body_too_large and a 1000-byte one without',
      needs: { data: { completedTurn: 1, sessionsConversation: 1, storedAttachment: 1 } },
      async run(ctx) {
        const d = dataOf(ctx);
        const ids = { completedTurn: await d.get('completedTurn'), sessionsConversation: await d.get('sessionsConversation'), storedAttachment: await d.get('storedAttachment') };
        return sweep(ctx, readRoutes(ids), '8.body.read-limit');
      },
    },
    {
      id: 'limits.write-body-routes',
      clause: '8.body.write-limit',
      title: 'Every write route answers a 65537-byte body with 413 request.body_too_large and a 64000-byte one without',
      needs: { writes: true, roles: ['helpDelegated'], data: { conversationId: 1, completedTurn: 1, customer: 1, collection: 1 } },
      async run(ctx) {
        const d = dataOf(ctx);
        const ids = {
          completedTurn: await d.get('completedTurn'),
          conversationId: await d.get('conversationId'), customer: await d.get('customer'), collection: (await d.get('collection')).id,
        };
        return sweep(ctx, writeRoutes(ctx.target, ids, () => freshKey()), '8.body.write-limit');
      },
    },
    {
      id: 'limits.headers',
      clause: '8.ratelimit.headers',
      title: 'Every response seen in the run has integral RateLimit-* headers within bounds (and Retry-After on 429)',
      async run(ctx) {
        await ctx.send({ method: 'GET', path: '/me' });
        await ctx.send({ method: 'GET', path: '/customers', role: null });
        await ctx.send({ method: 'GET', path: '/spgate-no-such-route' });
        return grouped(ctx.observed(), (x) => checkResponseHeaders(x, { windowSeconds: windowOf(ctx, x.request.method) }).filter((v) => v.clause.startsWith('8.'))).outcome();
      },
    },
    {
      id: 'limits.remaining-decreases',
      clause: '8.ratelimit.remaining-decreases',
      title: 'RateLimit-Remaining decreases over a short sequence of requests, and Reset counts seconds',
      async run(ctx) {
        const t = new Recorder();
        const xs: Exchange[] = [];
        for (let i = 0; i < 5; i++) xs.push(await ctx.send({ method: 'GET', path: '/me' }));
        // Answers without readable headers (a gateway's 503, a transport error) are left out: fewer than two others compare nothing.
        const unread = unreadableAnswers(xs);
        if (xs.length - unread.length < 2) {
          cannotJudge(t, `RateLimit-Remaining and RateLimit-Reset were readable on ${xs.length - unread.length} of ${xs.length} answers to GET /me (first without: ${describeAnswer(unread[0]!)})`);
        }
        const v = checkRemainingDecreases(xs);
        t.add(v ? fromViolation(v, xs) : undefined);
        // Reset must not fall faster than time passes: wait a little over a second and compare.
        await abortableSleep(1_100, ctx.signal);
        xs.push(await ctx.send({ method: 'GET', path: '/me' }));
        const pair = xs.slice(-2);
        const unreadPair = unreadableAnswers(pair);
        if (unreadPair.length) {
          cannotJudge(t, `RateLimit-Reset was not readable on both answers 1.1 s apart (${describeAnswer(unreadPair[0]!)})`);
          return t.outcome();
        }
        const r = checkResetCountsSeconds(pair);
        t.add(r ? fromViolation(r, pair) : undefined);
        return t.outcome();
      },
    },
    {
      id: 'limits.429',
      clause: '8.ratelimit.retry-after',
      title: 'A class driven past its budget answers 429 with Retry-After and rate_limit.exceeded',
      needs: { roles: ['secondConnection'], writes: true },
      async run(ctx) {
        // The second connection has its own budget, so driving it leaves the other checks' budgets alone.
        if (ctx.fixtures) await ctx.fixtures.resetRateLimits();
        let first = await ctx.sendOnce({ ...writeSpec(20), role: 'secondConnection' });
        // Start the drive at the beginning of a window, so a rollover in the middle cannot hide the 429.
        const reset0 = first.response ? parseIntHeader(first.response.headers, 'RateLimit-Reset') : undefined;
        if (reset0?.ok && reset0.value <= 3 && first.response?.status !== 429) {
          await abortableSleep(reset0.value * 1000 + 100, ctx.signal);
          first = await ctx.sendOnce({ ...writeSpec(20), role: 'secondConnection' });
        }
        const started = Date.now();
        const remaining = first.response ? parseIntHeader(first.response.headers, 'RateLimit-Remaining') : undefined;
        if (first.response?.status === 429) return { status: 'skipped', reason: 'the write budget of the second connection is already spent' };
        if (!remaining?.ok) return { status: 'skipped', reason: 'no usable RateLimit-Remaining to size the drive (reported by limits.headers)' };
        const cap = Math.min(MAX_DRIVE, ctx.target.caps.maxRequests ?? MAX_DRIVE);
        if (remaining.value + 2 > cap) return { status: 'skipped', reason: `the write budget (${remaining.value} left) is above the ${cap}-request bound of this check` };
        const t = new Recorder();
        const sent: Exchange[] = [first];
        let refused: Exchange | undefined;
        // Small concurrent batches keep the drive well inside one window.
        for (let n = 0; n < remaining.value + 2 && !refused; n += 8) {
          const batch = Math.min(8, remaining.value + 2 - n);
          const xs = await Promise.all(Array.from({ length: batch }, () => ctx.sendOnce({ ...writeSpec(20), role: 'secondConnection' })));
          sent.push(...xs);
          refused = xs.find((x) => x.response?.status === 429);
        }
        try {
          const firstReset = first.response ? parseIntHeader(first.response.headers, 'RateLimit-Reset') : undefined;
          let elapsedS = (Date.now() - started) / 1000;
          const mayHaveRefilled = !firstReset?.ok || elapsedS + 1 >= firstReset.value;
          // A window that rolled over (or a bucket that refilled) during a slow drive gave budget back: that
          // is no over-admission, and the 429 this check is about is still to come, so drive on to the bound.
          for (let n = sent.length; mayHaveRefilled && !refused && n < cap; n += 8) {
            const xs = await Promise.all(Array.from({ length: Math.min(8, cap - n) }, () => ctx.sendOnce({ ...writeSpec(20), role: 'secondConnection' })));
            sent.push(...xs);
            refused = xs.find((x) => x.response?.status === 429);
          }
          elapsedS = (Date.now() - started) / 1000;
          if (!refused && mayHaveRefilled) {
            return { status: 'skipped', reason: `no 429 in ${sent.length} writes over ${elapsedS.toFixed(1)} s: the budget kept coming back during the drive (window rolled over or bucket refilled)` };
          }
          if (!refused) {
            // Only a handled answer shows the limiter let the write through.
            const admitted = sent.filter(handled);
            const unanswered = sent.length - admitted.length;
            if (admitted.length <= remaining.value + 1) {
              return { status: 'skipped', reason: `no 429 in ${sent.length} writes, but ${unanswered} of them got no answer or a 5xx, so only ${admitted.length} were shown admitted (the budget allowed ${remaining.value + 1})` };
            }
            t.add({
              clause: '8.ratelimit.over-admission',
              expected: `HTTP 429 once the ${remaining.value + 1} remaining writes were spent`,
              actual: `${admitted.length} writes admitted${unanswered ? ` (and ${unanswered} without an answer or with a 5xx)` : ''}`,
              exchanges: admitted.slice(-2),
            });
            return t.outcome();
          }
          const h = checkResponseHeaders(refused, { windowSeconds: windowOf(ctx, 'POST') }).filter((v) => v.clause.startsWith('8.'));
          const retryAfter = h.find((v) => v.clause === '8.ratelimit.retry-after');
          t.add(retryAfter ? fromViolation(retryAfter, [refused]) : undefined);
          for (const v of h.filter((v) => v !== retryAfter)) t.add(fromViolation(v, [refused]));
          t.add(((v) => (v ? fromViolation(v, [refused]) : undefined))(checkErrorEnvelope(refused)));
          const code = checkErrorAnswer(refused, 429, 'rate_limit.exceeded', '8.ratelimit.429-code');
          t.add(code ? fromViolation(code, [refused]) : undefined);
          return t.outcome();
        } finally {
          if (ctx.fixtures) await ctx.fixtures.resetRateLimits();
        }
      },
    },
  ],
});
