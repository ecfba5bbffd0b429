/**
 * auth.scope-missing (spec 5.8 "403: missing scope"): for every (role, operation) pair where the role lacks a
 * scope the operation needs (model/scopes.ts), the operation must answer 403. Refused writes go to ids a
 * refused write cannot harm: the shared conversation (assign, resolve) and one pooled customer (delete; a
 * faulty server deletes it, and a repeat delete is idempotent, so one serves every role). A pair that could
 * not be tried, and a needed scope no key of the target lacks, are named; when no pair judged the check is
 * inconclusive. What a key lacks comes from its listed scopes, else from its role's definition and the
 * scopes its own GET /me declares (so customers:read and help:read are withheld by an attachmentsOnly key
 * even where the target file lists no scopes).
 */
import type { RequestSpec } from '../../src/client/types.js';
import { conversationId, storedAttachment } from '../../src/conformance/data.js';
import { FixtureUnavailable } from '../../src/conformance/fixtures/provider.js';
import { describeAnswer, statusOf } from '../../src/conformance/recorder.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import { KEY_ROLES, type KeyRole, type Scope } from '../../src/target/schema.js';
import { assignRequest, downloadRequest, resolveRequest } from './requests.js';
import { declaredScopes, NEEDED_SCOPES, NOT_TRIED, OPERATION_SCOPES, scopePairs, type ScopedOp } from './scopes.js';
import { cannotJudge, dataOf } from './world.js';
import { Parts } from './parts.js';

/** Fixture ids, fetched once per run of the check and only when a pair needs them. */
class Ids {
  private memo = new Map<string, Promise<unknown>>();
  constructor(private readonly ctx: SuiteContext) {}

  private once<T>(name: string, get: () => Promise<T | undefined>, field: string): Promise<T> {
    if (!this.memo.has(name)) {
      this.memo.set(
        name,
        get().then((v) => {
          if (v === undefined) throw new FixtureUnavailable(`needs ${field}`, field);
          return v;
        }),
      );
    }
    return this.memo.get(name) as Promise<T>;
  }

  conversation(): Promise<string> {
    return this.once('conversation', () => conversationId(this.ctx), 'fixtures.ids.conversationId');
  }
  customer(): Promise<string> {
    return this.once('customer', () => dataOf(this.ctx).get('customer'), 'fixtures.ids.pools.customers');
  }
  attachment(): Promise<{ messageId: string; index: number }> {
    return this.once('attachment', () => storedAttachment(this.ctx), 'fixtures.ids.message.storedIndex');
  }
}

async function requestFor(ctx: SuiteContext, ids: Ids, op: ScopedOp, role: KeyRole): Promise<RequestSpec> {
  switch (op) {
    case 'listCustomers':
      return { method: 'GET', path: '/customers', query: { limit: 1 }, role };
    case 'articles':
      return { method: 'GET', path: '/authoring/articles', role };
    case 'deleteCustomer':
      return { method: 'DELETE', path: `/customers/${encodeURIComponent(await ids.customer())}`, role };
    // team "" (clearing, 4.7) is valid in every workspace: a server that validates the body before the
    // scopes has only the scope to refuse
    case 'assign':
      return assignRequest(await ids.conversation(), { team: '' }, undefined, role);
    case 'resolve':
      return resolveRequest(ctx.target, await ids.conversation(), {}, undefined, role);
    case 'download': {
      const a = await ids.attachment();
      return downloadRequest(a.messageId, a.index, role);
    }
  }
}

/**
 * The scopes GET /me declares for each key whose scopes the target file does not list (declaredScopes);
 * a key whose /me does not answer 200 with a readable list declares none (its role's definition counts).
 */
async function declaredByMe(ctx: SuiteContext, roles: readonly KeyRole[]): Promise<Map<KeyRole, Scope[]>> {
  const out = new Map<KeyRole, Scope[]>();
  for (const role of roles) {
    if (NOT_TRIED.has(role) || ctx.target.keys[role]?.scopes) continue;
    const x = await ctx.send({ method: 'GET', path: '/me', role });
    const scopes = statusOf(x) === 200 ? declaredScopes(x.response?.json) : undefined;
    if (scopes) out.set(role, scopes);
  }
  return out;
}

/** An example remedy: the one role whose definition grants a single scope, with its scopes listed. */
const LIST_SCOPES = 'keys.attachmentsOnly.scopes: ["attachments:read"], or another key whose listed scopes (or whose GET /me) leave it out';

/**
 * Runs every (role, operation) pair the target's keys give, each a part (model/parts.ts): a pair whose write
 * is not allowed, whose fixture is missing or whose answer is no answer of the server's own (5xx, transport
 * error) is named as not tried, and so is every needed scope that no key of the target lacks.
 */
export async function runScopeMissing(ctx: SuiteContext): Promise<CheckOutcome> {
  const roles = KEY_ROLES.filter((r) => ctx.target.secrets[r] !== undefined);
  const declared = await declaredByMe(ctx, roles);
  const pairs = scopePairs(
    roles,
    (r) => ctx.target.keys[r],
    (r) => declared.get(r),
  );
  const parts = new Parts(ctx);
  const ids = new Ids(ctx);
  for (const p of pairs) {
    const info = OPERATION_SCOPES[p.op];
    const what = `${info.label} with the ${p.role} key`;
    if (info.writes && !ctx.target.allowWrites) {
      parts.untry(what, 'needs allowWrites', 'allowWrites: true in the target file');
      continue;
    }
    await parts.run(what, async (rec) => {
      const x = await rec.send(await requestFor(ctx, ids, p.op, p.role));
      const s = statusOf(x);
      if (s === undefined || s >= 500) return cannotJudge(rec, `it answered ${describeAnswer(x)}`);
      // the download's two scopes are 4.6's own words ("Requires both scopes"): its findings name that clause
      rec.expect(
        s === 403,
        `HTTP 403 for ${what}, which lacks ${p.missing.join(' and ')}`,
        () => describeAnswer(x),
        [x],
        p.op === 'download' ? '4.6.scopes' : undefined,
      );
    });
  }
  // A scope no key lacks is a refusal never asked for: said, with the key that would ask for it.
  const asked = new Set(pairs.flatMap((p) => p.missing));
  for (const scope of NEEDED_SCOPES) {
    if (!asked.has(scope))
      parts.untry(
        `a key lacking ${scope}`,
        "no key of the target lacks it, by its listed scopes, the scopes its GET /me declares or its role's definition",
        LIST_SCOPES,
      );
  }
  return parts.outcome();
}
