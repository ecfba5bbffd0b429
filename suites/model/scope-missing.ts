/**
 * auth.scope-missing (spec 5.8 "403: missing scope"): for every (role, operation) pair where the role lacks a
 * scope the operation needs (model/scopes.ts), the operation must answer 403. Refused writes go to ids a
 * refused write cannot harm: the shared conversation (assign, resolve) and one pooled customer (delete; a
 * faulty server deletes it, and a repeat delete is idempotent, so one serves every role).
 */
import type { RequestSpec } from '../../src/client/types.js';
import { conversationId, storedAttachment } from '../../src/conformance/data.js';
import { FixtureUnavailable } from '../../src/conformance/fixtures/provider.js';
import { Recorder, describeAnswer, statusOf } from '../../src/conformance/recorder.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import { KEY_ROLES, type KeyRole } from '../../src/target/schema.js';
import { assignRequest, downloadRequest, resolveRequest } from './requests.js';
import { OPERATION_SCOPES, scopePairs, type ScopedOp } from './scopes.js';
import { dataOf } from './world.js';

/** Fixture ids, fetched once per run of the check and only when a pair needs them. */
class Ids {
  private memo = new Map<string, Promise<unknown>>();
  constructor(private readonly ctx: SuiteContext) {}

  private once<T>(name: string, get: () => Promise<T | undefined>, field: string): Promise<T> {
    if (!this.memo.has(name)) {
      this.memo.set(name, get().then((v) => {
        if (v === undefined) throw new FixtureUnavailable(`needs ${field}`);
        return v;
      }));
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
    case 'listCustomers': return { method: 'GET', path: '/customers', query: { limit: 1 }, role };
    case 'articles': return { method: 'GET', path: '/authoring/articles', role };
    case 'deleteCustomer': return { method: 'DELETE', path: `/customers/${encodeURIComponent(await ids.customer())}`, role };
    case 'assign': return assignRequest(await ids.conversation(), { team: 'spgate-scope-check' }, undefined, role);
    case 'resolve': return resolveRequest(ctx.target, await ids.conversation(), {}, undefined, role);
    case 'download': {
      const a = await ids.attachment();
      return downloadRequest(a.messageId, a.index, role);
    }
  }
}

/** Runs every (role, operation) pair the target's keys give; pairs it cannot try are named in the note. */
export async function runScopeMissing(ctx: SuiteContext): Promise<CheckOutcome> {
  const roles = KEY_ROLES.filter((r) => ctx.target.secrets[r] !== undefined);
  const pairs = scopePairs(roles, (r) => ctx.target.keys[r]);
  const rec = new Recorder(ctx);
  const ids = new Ids(ctx);
  const untried: string[] = [];
  for (const p of pairs) {
    const info = OPERATION_SCOPES[p.op];
    const what = `${info.label} with the ${p.role} key`;
    if (info.writes && !ctx.target.allowWrites) {
      untried.push(`${what} (needs allowWrites)`);
      continue;
    }
    let spec: RequestSpec;
    try {
      spec = await requestFor(ctx, ids, p.op, p.role);
    } catch (err) {
      if (!(err instanceof FixtureUnavailable)) throw err;
      untried.push(`${what} (${err.message})`);
      continue;
    }
    const x = await rec.send(spec);
    // the download's two scopes are 4.6's own words ("Requires both scopes"): its findings name that clause
    rec.expect(statusOf(x) === 403, `HTTP 403 for ${what}, which lacks ${p.missing.join(' and ')}`, () => describeAnswer(x), [x],
      p.op === 'download' ? '4.6.scopes' : undefined);
  }
  if (rec.cases === 0) {
    return { status: 'skipped', reason: untried.length ? `no pair could be tried: ${untried.join('; ')}` : 'no key of the target lacks a scope an operation needs (list keys.ROLE.scopes)' };
  }
  const out = rec.outcome();
  return out.status === 'passed' && untried.length ? { ...out, note: `not tried: ${untried.join('; ')}` } : out;
}
