/**
 * Errors (spec part 7): the envelope on every error seen in the run, X-Request-Id on every response and
 * equal to error.requestId, 404 route.not_found for unknown routes, exact code spelling, and
 * conversations.unknown_status for an undefined status key. Runs after the other suites to see their
 * exchanges too.
 */
import fc from 'fast-check';
import type { Exchange } from '../src/client/exchange.js';
import { carriesBothIds, checkErrorEnvelope, checkRequestIdMatches, errorCode, misspelledSpecCode } from '../src/checks/envelope.js';
import { checkResponseHeaders } from '../src/checks/response-headers.js';
import { checkCodeThenStatus } from '../src/checks/assumed-status.js';
import type { ClauseViolation } from '../src/checks/envelope.js';
import { defineSuite, type CheckFailure, type SuiteContext } from '../src/conformance/suite.js';
import { runProperty } from '../src/conformance/property.js';
import { describeAnswer, Recorder, runCase, statusOf } from '../src/conformance/recorder.js';
import { conversationId } from '../src/conformance/data.js';
import { inconclusive } from '../src/conformance/inconclusive.js';
import { listedKeys } from './model/status-list.js';
import { resolveRequest, statusesRequest } from './model/requests.js';
import { STATUS_KEY_PATTERN } from '../src/spec/resources.js';

// First path segments of routes the spec names (or hints at): generated "unknown" paths avoid them.
const KNOWN_ROOTS = new Set([
  'me',
  'statuses',
  'priorities',
  'customers',
  'conversations',
  'messages',
  'ai',
  'authoring',
  'webhooks',
  'keys',
  'channel-identities',
  'identities',
  'events',
  'realtime',
  'account',
  'assignments',
  'help',
]);

const segment = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_.~'.split('')), minLength: 1, maxLength: 12 })
  .filter((s) => s !== '.' && s !== '..');
const unknownPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segs) => `/${segs.join('/')}`);

/** A handful of requests that must fail, so the checks have errors to look at even when run alone. */
async function provokeErrors(ctx: SuiteContext): Promise<Exchange[]> {
  return [
    await ctx.send({ method: 'GET', path: '/customers', role: null }),
    await ctx.send({ method: 'GET', path: '/spgate-no-such-route' }),
    await ctx.send({ method: 'GET', path: '/customers', query: { cursor: 'spgate-not-a-cursor' } }),
    await ctx.send({ method: 'GET', path: '/customers', query: { limit: 0 } }),
    await ctx.send({ method: 'GET', path: '/me' }),
  ];
}

/** Runs a per-exchange check over exchanges; one failure per clause, with a few examples. */
function overAll(xs: readonly Exchange[], check: (x: Exchange) => ClauseViolation | ClauseViolation[] | undefined): Recorder {
  const t = new Recorder();
  const byClause = new Map<string, { v: ClauseViolation; xs: Exchange[] }>();
  for (const x of xs) {
    t.cases++;
    const found = check(x);
    for (const v of Array.isArray(found) ? found : found ? [found] : []) {
      const entry = byClause.get(v.clause) ?? { v, xs: [] };
      entry.xs.push(x);
      byClause.set(v.clause, entry);
    }
  }
  for (const { v, xs: bad } of byClause.values()) {
    const f: CheckFailure = {
      clause: v.clause,
      expected: v.expected,
      actual: `${bad.length} of ${xs.length} responses; first: ${v.actual}`,
      exchanges: bad.slice(0, 3),
    };
    t.failures.push(f);
  }
  return t;
}

async function everything(ctx: SuiteContext): Promise<readonly Exchange[]> {
  await provokeErrors(ctx);
  return ctx.observed();
}

export default defineSuite({
  name: 'errors',
  description: 'Error envelope, request ids and error codes (spec part 7)',
  observesRun: true,
  checks: [
    {
      id: 'errors.envelope',
      clause: '7.error.envelope',
      title: 'Every error response seen in the run has the envelope { error: { code, message, requestId } }',
      async run(ctx) {
        return overAll(
          (await everything(ctx)).filter((x) => (x.response?.status ?? 0) >= 400),
          checkErrorEnvelope,
        ).outcome();
      },
    },
    {
      id: 'errors.request-id-header',
      clause: '7.request-id.header',
      title: 'Every response seen in the run carries X-Request-Id',
      async run(ctx) {
        return overAll(await everything(ctx), (x) => checkResponseHeaders(x).filter((v) => v.clause === '7.request-id.header')).outcome();
      },
    },
    {
      id: 'errors.request-id-matches',
      clause: '7.request-id.matches',
      title: 'X-Request-Id equals error.requestId on every error response seen',
      async run(ctx) {
        const judged = (await everything(ctx)).filter(carriesBothIds);
        // Without an error that shows both ids, equality was never looked at: the other two checks name what is missing.
        if (judged.length === 0) {
          inconclusive(
            'no error response seen carried both an error envelope with error.requestId and an X-Request-Id header: nothing to compare',
            'an API whose errors carry both (errors.envelope and errors.request-id-header name what was missing)',
          );
        }
        return overAll(judged, checkRequestIdMatches).outcome();
      },
    },
    {
      id: 'errors.codes-spelled',
      clause: '7.error.envelope',
      title: 'Error codes the spec names are spelled exactly (no case or separator variants)',
      async run(ctx) {
        return overAll(await everything(ctx), (x) => {
          const code = errorCode(x);
          const meant = code === undefined ? undefined : misspelledSpecCode(code);
          return meant ? { clause: '7.error.envelope', expected: `error.code "${meant}"`, actual: `"${code}"` } : undefined;
        }).outcome();
      },
    },
    {
      id: 'errors.route-not-found',
      clause: '7.route.not-found',
      title: 'Unknown routes and resources answer route.not_found (with the assumed status, 404 by default)',
      run: (ctx) =>
        runCase(ctx, async (t) => {
          // Writes to resources that do not exist change nothing on a conforming server, but still need allowWrites.
          const missing = [
            { method: 'GET', path: '/messages/msg_spgate_missing/attachments/0/download', write: false },
            // team "" (clearing, 4.7) is valid in every workspace, so a server that validates the body first
            // still has only the missing id to answer.
            { method: 'POST', path: '/conversations/conv_spgate_missing/assign', json: { team: '' }, write: true },
            { method: 'DELETE', path: '/customers/cus_spgate_missing', write: true },
          ] as const;
          for (const { write, ...spec } of missing) {
            if (write && !ctx.target.allowWrites) continue;
            const x = await ctx.send(spec);
            // Delete is idempotent (4.5): a customer that never existed may be answered as already deleted.
            if (spec.method === 'DELETE' && (x.response?.status ?? 0) >= 200 && (x.response?.status ?? 0) < 300) {
              t.add(undefined);
              continue;
            }
            const v = checkCodeThenStatus(
              x,
              'route.not_found',
              '7.route.not-found',
              ctx.target.assumptions.statuses.notFound,
              '7.route.not-found-status',
            );
            t.add(v ? { ...v, exchanges: [x], actual: `${spec.method} ${spec.path}: ${v.actual}` } : undefined);
          }
          t.merge(
            await runProperty(
              ctx,
              unknownPath,
              async (path, rec) => {
                const x = await rec.send({ method: 'GET', path });
                const v = checkCodeThenStatus(
                  x,
                  'route.not_found',
                  '7.route.not-found',
                  ctx.target.assumptions.statuses.notFound,
                  '7.route.not-found-status',
                );
                if (v) rec.require(false, v.expected, () => v.actual, undefined, v.clause);
              },
              { precondition: (p) => !KNOWN_ROOTS.has(p.split('/')[1]!), examples: ['/nope', '/v2/customers', '/customers-x'] },
            ),
          );
        }),
    },
    {
      id: 'errors.unknown-status',
      clause: '7.unknown-status',
      title: 'Resolve with a status key the workspace does not define answers conversations.unknown_status',
      needs: { writes: true, data: { conversationId: 1 } },
      async run(ctx) {
        // The keys to avoid: GET /statuses, whose shape is not shown (4.10); shapes.statuses judges that read.
        const listed = await ctx.send(statusesRequest());
        const keys = statusOf(listed) === 200 ? listedKeys(listed.response?.json)?.map((k) => k.key) : undefined;
        if (!keys)
          inconclusive(
            `the workspace's status keys are unknown, so no key is known to be undefined: GET /statuses answered ${describeAnswer(listed)}`,
            'a GET /statuses that answers 200 with a list spgate reads (see shapes.statuses)',
          );
        const id = await conversationId(ctx);
        if (!id)
          return {
            status: 'inconclusive',
            cases: 0,
            reason: 'no conversation to address',
            remedy: 'fixtures.ids.conversationId or fixtures.command',
          };
        const want = ctx.target.assumptions.statuses.unknownStatus;
        const keyArb = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,20}$/);
        return runProperty(
          ctx,
          keyArb,
          async (key, rec) => {
            const x = await rec.send(resolveRequest(ctx.target, id, { status: key }));
            rec.require(
              errorCode(x) === 'conversations.unknown_status',
              `error.code "conversations.unknown_status" for status "${key}"`,
              () => describeAnswer(x),
            );
            rec.require(
              x.response?.status === want,
              `HTTP ${want} (assumed) for conversations.unknown_status`,
              () => describeAnswer(x),
              undefined,
              '7.error.status-codes',
            );
          },
          { precondition: (k) => STATUS_KEY_PATTERN.test(k) && !keys.includes(k), examples: ['spgate-undefined-status'] },
        );
      },
    },
  ],
});
