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
import { checkRemainingDecreases, checkResetCountsSeconds, refillWithin, unreadableAnswers } from '../src/checks/ratelimit-sequence.js';
import { defineSuite, type CheckOutcome, type SuiteContext } from '../src/conformance/suite.js';
import { runProperty } from '../src/conformance/property.js';
import { describeAnswer, fromViolation, Recorder, runCase, statusOf } from '../src/conformance/recorder.js';
import { padJson } from '../src/conformance/reproduction.js';
import { abortableSleep } from '../src/conformance/aborted.js';
import { parseIntHeader } from '../src/spec/headers.js';
import type { ClauseId } from '../src/spec/clauses.js';
// the one route-class rule (GET is a read, every other method a write), shared with the load engine
import { routeClass } from '../src/spec/routes.js';
import { readRoutes, writeRoutes, type BodyRoute } from './model/body-routes.js';
import { acceptedRequest, driveToRefusal, type DrivenClass } from './model/rate-drive.js';
import { classesIsolated, limitConstant } from './model/rate-budgets.js';
import { MAX_RESTORE_WAIT_S, restoredAtReset } from './model/rate-restore.js';
import { freshKey } from './model/requests.js';
import { cannotJudge, dataOf } from './model/world.js';

const READ_LIMIT = 1000; // "1 KB": above 1024 must be refused, up to 1000 must not
const WRITE_LIMIT = 64_000; // "64 KB": above 65536 must be refused, up to 64000 must not
const READ_LIMIT_EXCEEDED = 1025;
const WRITE_LIMIT_EXCEEDED = 65_537;

function readSpec(bytes: number): RequestSpec {
  return {
    method: 'GET',
    path: '/customers',
    query: { limit: 1 },
    headers: { 'content-type': 'application/json' },
    rawBody: padJson(bytes),
  };
}

/** A write to a conversation that does not exist: it has no effect whatever the body. */
function writeSpec(bytes: number): RequestSpec {
  return {
    method: 'POST',
    path: '/conversations/conv_spgate_limits_probe/assign',
    headers: { 'content-type': 'application/json' },
    rawBody: padJson(bytes),
  };
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
      else
        rec.expect(
          statusOf(y) !== 413,
          `no 413 for a ${under}-byte body on ${r.label} (within the limit)`,
          () => describeAnswer(y),
          [y],
          clause,
        );
    }
    if (unanswered.length)
      cannotJudge(
        rec,
        `bodies within the limit got no answer to judge: ${unanswered.slice(0, 3).join('; ')}${unanswered.length > 3 ? ` (and ${unanswered.length - 3} more)` : ''}`,
      );
  });
}

async function bodyLimitCheck(ctx: SuiteContext, kind: 'read' | 'write'): Promise<CheckOutcome> {
  const spec = kind === 'read' ? readSpec : writeSpec;
  const clause = kind === 'read' ? '8.body.read-limit' : '8.body.write-limit';
  const [over, under] =
    kind === 'read'
      ? [
          [1025, 4096],
          [1, READ_LIMIT],
        ]
      : [
          [65_537, 131_072],
          [1, WRITE_LIMIT],
        ];
  const arb = fc.record({ over: fc.boolean(), bytes: fc.nat() }).map(({ over: o, bytes }) => {
    const [lo, hi] = o ? over! : under!;
    return { over: o, bytes: lo! + (bytes % (hi! - lo! + 1)) };
  });
  // Bodies within the limit whose answer showed nothing (handled), of all within the limit (passing cases only count).
  const within = { all: 0, unanswered: [] as Exchange[] };
  const out = await runProperty(
    ctx,
    arb,
    async ({ over: o, bytes }, rec) => {
      const x = await rec.send(spec(bytes));
      if (o) {
        rec.require(x.response?.status === 413, `HTTP 413 for a ${bytes}-byte ${kind} body`, () => describeAnswer(x), undefined, clause);
        const v = checkErrorAnswer(x, 413, 'request.body_too_large', '8.body.code');
        if (v) rec.require(false, v.expected, () => v.actual, undefined, v.clause);
        return;
      }
      rec.require(
        x.response?.status !== 413,
        `no 413 for a ${bytes}-byte ${kind} body (within the limit)`,
        () => describeAnswer(x),
        undefined,
        clause,
      );
      within.all++;
      if (!handled(x)) within.unanswered.push(x);
    },
    {
      examples:
        kind === 'read'
          ? [
              { over: true, bytes: 2000 },
              { over: false, bytes: READ_LIMIT },
              { over: true, bytes: 1025 },
            ]
          : [
              { over: true, bytes: 70_000 },
              { over: false, bytes: WRITE_LIMIT },
              { over: true, bytes: 65_537 },
            ],
      describe: ({ bytes }) => `${bytes}-byte ${kind} body`,
    },
  );
  const n = within.unanswered.length;
  if (out.status !== 'passed' || n === 0) return out;
  const first = describeAnswer(within.unanswered[0]!);
  if (n === within.all)
    return {
      status: 'inconclusive',
      cases: within.all,
      reason: `every body within the limit was answered with no sign of how it was taken (${n}; first: ${first})`,
    };
  return {
    ...out,
    note: `${n} of ${within.all} bodies within the limit were answered with no sign of how they were taken (first: ${first}); judged the others`,
  };
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
  for (const { v, xs: bad } of by.values())
    t.failures.push({ ...fromViolation(v, bad.slice(0, 3)), actual: `${bad.length} of ${xs.length} responses; first: ${v.actual}` });
  return t;
}

/** True when the second answer's RateLimit-Reset is above the first's: a window ended between them. */
function resetRose(pair: readonly Exchange[]): boolean {
  const [a, b] = pair.map((x) => (x.response ? parseIntHeader(x.response.headers, 'RateLimit-Reset') : undefined));
  return !!a?.ok && !!b?.ok && b.value > a.value;
}

/**
 * True when RateLimit-Remaining fell from one readable answer of the sequence to the next (each request is
 * sent after the last one was answered). Not only its last against its first: a sequence that met the end
 * of a 1 s window rose past its first value there (CI, a loaded machine: both sequences of 5 spanned a
 * window's end and the check said inconclusive where every other step fell).
 */
function remainingFell(xs: readonly Exchange[]): boolean {
  const rs: number[] = [];
  for (const x of xs) {
    const r = x.response ? parseIntHeader(x.response.headers, 'RateLimit-Remaining') : undefined;
    if (r?.ok) rs.push(r.value);
  }
  return rs.some((r, i) => i > 0 && r < rs[i - 1]!);
}

/**
 * Drives a class of the second connection (its own budget, so the other checks' budgets are left alone) to
 * a 429 and judges it (Retry-After, the envelope, rate_limit.exceeded), or reports the over-admission.
 */
async function driven(ctx: SuiteContext, cls: DrivenClass, request: RequestSpec): Promise<CheckOutcome> {
  if (ctx.fixtures) await ctx.fixtures.resetRateLimits();
  try {
    const d = await driveToRefusal(ctx, cls, request);
    return await runCase(ctx, async (t) => {
      if (d.kind === 'over-admitted') {
        t.add({
          clause: '8.ratelimit.over-admission',
          expected: `HTTP 429 before the first answer's Reset, after at most ${d.most} ${cls}s admitted (${d.basis})`,
          actual: `${d.admitted.length} ${cls}s admitted${d.others ? ` (and ${d.others} not accepted)` : ''}`,
          exchanges: d.admitted.slice(-2),
        });
        return;
      }
      const refused = d.refused;
      const h = checkResponseHeaders(refused, { windowSeconds: windowOf(ctx, refused.request.method) }).filter((v) =>
        v.clause.startsWith('8.'),
      );
      for (const v of h) t.add(fromViolation(v, [refused]));
      t.add(((v) => (v ? fromViolation(v, [refused]) : undefined))(checkErrorEnvelope(refused)));
      const code = checkErrorAnswer(refused, 429, 'rate_limit.exceeded', '8.ratelimit.429-code');
      t.add(code ? fromViolation(code, [refused]) : undefined);
    });
  } finally {
    if (ctx.fixtures) await ctx.fixtures.resetRateLimits();
  }
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
        const ids = {
          completedTurn: await d.get('completedTurn'),
          sessionsConversation: await d.get('sessionsConversation'),
          storedAttachment: await d.get('storedAttachment'),
        };
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
          conversationId: await d.get('conversationId'),
          customer: await d.get('customer'),
          collection: (await d.get('collection')).id,
        };
        return sweep(
          ctx,
          writeRoutes(ctx.target, ids, () => freshKey()),
          '8.body.write-limit',
        );
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
        return grouped(ctx.observed(), (x) =>
          checkResponseHeaders(x, { windowSeconds: windowOf(ctx, x.request.method) }).filter((v) => v.clause.startsWith('8.')),
        ).outcome();
      },
    },
    {
      id: 'limits.remaining-decreases',
      clause: '8.ratelimit.remaining-decreases',
      title: 'RateLimit-Remaining decreases over a short sequence of requests, and Reset counts seconds until the budget is full again',
      async run(ctx) {
        return runCase(ctx, async (t) => {
          let xs: Exchange[] = [];
          // A sequence that may have met a refill (its first Reset within the slack of its length: the end
          // of a short window) judges nothing of Remaining: wait that Reset out and send it again, once.
          for (let attempt = 0; attempt < 2; attempt++) {
            xs = [];
            for (let i = 0; i < 5; i++) xs.push(await t.send({ method: 'GET', path: '/me' }));
            const refill = refillWithin(xs);
            if (refill === undefined || attempt === 1) break;
            await abortableSleep(Math.min(refill, MAX_RESTORE_WAIT_S) * 1000 + 200, ctx.signal);
          }
          // Answers without readable headers (a gateway's 503, a transport error) are left out: fewer than two others compare nothing.
          const unread = unreadableAnswers(xs);
          if (xs.length - unread.length < 2) {
            cannotJudge(
              t,
              `RateLimit-Remaining and RateLimit-Reset were readable on ${xs.length - unread.length} of ${xs.length} answers to GET /me (first without: ${describeAnswer(unread[0]!)})`,
            );
          }
          const v = checkRemainingDecreases(xs);
          t.add(v ? fromViolation(v, xs) : undefined);
          // A refill may have hidden a fall only when Remaining did not fall: a fall seen is judged either way.
          const refill = refillWithin(xs);
          const unjudged =
            refill !== undefined && !remainingFell(xs)
              ? `RateLimit-Remaining did not fall over either sequence of 5, and each may have met a refill (RateLimit-Reset ${refill} s within the sequence's length and rounding)`
              : undefined;
          // Reset must not fall faster than time passes: wait a little over a second and compare. A pair whose
          // Reset rose met the end of a window (a new one began): it shows nothing, so the next pair is taken.
          for (let attempt = 0; attempt < 3; attempt++) {
            await abortableSleep(1_100, ctx.signal);
            xs.push(await t.send({ method: 'GET', path: '/me' }));
            const pair = xs.slice(-2);
            const unreadPair = unreadableAnswers(pair);
            if (unreadPair.length) {
              cannotJudge(t, `RateLimit-Reset was not readable on both answers 1.1 s apart (${describeAnswer(unreadPair[0]!)})`);
              return;
            }
            if (resetRose(pair) && attempt < 2) continue;
            const r = checkResetCountsSeconds(pair);
            t.add(r ? fromViolation(r, pair) : undefined);
            break;
          }
          await restoredAtReset(ctx, t, xs);
          if (unjudged) cannotJudge(t, unjudged, 'a rate-limit window of the admin key longer than 2 s');
        });
      },
    },
    {
      id: 'limits.limit-constant',
      clause: '8.ratelimit.limit-constant',
      title: 'RateLimit-Limit is one integer, the budget of the route class, on every response of a class and key',
      async run(ctx) {
        for (let i = 0; i < 3; i++) {
          await ctx.send({ method: 'GET', path: '/me' });
          await ctx.send(writeSpec(20));
        }
        return limitConstant(ctx.observed());
      },
    },
    {
      id: 'limits.classes-isolated',
      clause: '8.ratelimit.classes-isolated',
      title: "Spending write requests leaves the read budget's Remaining alone, and spending reads the write budget's",
      needs: { roles: ['secondConnection'], writes: true, data: { conversationId: 1 } },
      async run(ctx) {
        const conversationId = await dataOf(ctx).get('conversationId');
        return runCase(ctx, async (rec) => {
          await classesIsolated(rec, 'write', acceptedRequest('read', conversationId), acceptedRequest('write', conversationId));
          await classesIsolated(rec, 'read', acceptedRequest('write', conversationId), acceptedRequest('read', conversationId));
        });
      },
    },
    {
      id: 'limits.429',
      clause: '8.ratelimit.retry-after',
      title: 'The write class driven past its budget answers 429 with Retry-After and rate_limit.exceeded',
      needs: { roles: ['secondConnection'], writes: true, data: { conversationId: 1 } },
      run: async (ctx) => driven(ctx, 'write', acceptedRequest('write', await dataOf(ctx).get('conversationId'))),
    },
    {
      id: 'limits.429-read',
      clause: '8.ratelimit.retry-after',
      title: 'The read class driven past its budget answers 429 with Retry-After and rate_limit.exceeded',
      needs: { roles: ['secondConnection'] },
      run: (ctx) => driven(ctx, 'read', acceptedRequest('read', '')),
    },
  ],
});
