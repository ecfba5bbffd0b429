/**
 * Help Center collection update (spec 2, 4.9, 5.7): optimistic concurrency through expectedRevision,
 * replacement of the fields sent, parentId (omitted/null keeps the parent, "" moves to the root), the
 * 64 KiB body limit and its 413 code, delegation, and the Idempotency-Key rules of
 * this operation (printable ASCII, 8..128; identical retries replay; changed payloads conflict).
 * The spec shows no read endpoint, so revisions are followed from the update responses themselves.
 * The collection's shape is checked by the shapes suite.
 */
import { defineSuite, type CheckOutcome, type SuiteContext } from '../src/conformance/suite.js';
import type { KeyRole } from '../src/target/schema.js';
import type { Exchange } from '../src/client/exchange.js';
import { checkErrorAnswer } from '../src/checks/envelope.js';
import { describeAnswer, isSuccess, jsonObject, runCase, statusOf, type Recorder } from '../src/conformance/recorder.js';
import { canonicalJson } from './model/conversation.js';
import { replacesCheck } from './model/collection-replaces.js';
import { collectionRequest, freshKey, keyOfLength, uniqueSlug } from './model/requests.js';
import { cannotJudge, dataOf } from './model/world.js';
import { firstUpdate, revisionOf, type PoolCollection } from './model/collections.js';

const NEEDS = { writes: true, data: { collection: 1 }, roles: ['helpDelegated' as const] };
const BODY_LIMIT = 64 * 1024;
/** A valid body just within 64 KiB: a server that reads "64 KiB" as 64,000 bytes refuses it. */
const NEAR_LIMIT = BODY_LIMIT - 256;

/** An update body with `name` and a conservative slug unique to this case and run (uniqueSlug). */
function update(ctx: SuiteContext, expectedRevision: number, name: string, extra: Record<string, unknown> = {}) {
  return { name, slug: uniqueSlug(ctx.fc.seed, name), expectedRevision, ...extra };
}

/**
 * Discards the case when the server refused the update as invalid (400 or 422 other than the assumed stale-
 * revision status): the spec leaves open which slugs, names and descriptions a Help Center accepts.
 */
function discardIfInvalid(ctx: SuiteContext, rec: Recorder, x: Exchange, body: unknown): void {
  const s = statusOf(x);
  if ((s === 400 || s === 422) && s !== ctx.target.assumptions.statuses.staleRevision) {
    rec.discard(`the update ${canonicalJson(body).slice(0, 200)} was refused as invalid: ${describeAnswer(x)}`);
  }
}

/** Sends one update and requires it to succeed, returning the new revision (a refusal as invalid discards the case). */
async function mustUpdate(
  ctx: SuiteContext,
  rec: Recorder,
  id: string,
  body: unknown,
  key = freshKey(),
  what = 'the update',
): Promise<{ x: Exchange; revision: number }> {
  const x = await rec.send(collectionRequest(id, body, key));
  discardIfInvalid(ctx, rec, x, body);
  const revision = revisionOf(x);
  rec.require(statusOf(x) === 200 && revision !== undefined, `${what} to answer 200 with a revision`, () => describeAnswer(x));
  return { x, revision: revision! };
}

/**
 * The check's first update of a pool collection (firstUpdate: an item edited since the seed is passed over),
 * required to succeed like mustUpdate. `body` gets the revision the pool names.
 */
async function firstMustUpdate(
  ctx: SuiteContext,
  rec: Recorder,
  body: (revision: number) => unknown,
  what = 'the update',
): Promise<{ c: PoolCollection; x: Exchange; revision: number; key: string; sent: unknown }> {
  // A fresh key per item tried: a key scoped wider than the resource would conflict on the next item.
  let sent: unknown;
  let key = '';
  const {
    c,
    xs: [x],
  } = await firstUpdate(ctx, async (c) => {
    sent = body(c.revision);
    key = freshKey();
    return [await rec.send(collectionRequest(c.id, sent, key))];
  });
  discardIfInvalid(ctx, rec, x!, sent);
  const revision = revisionOf(x!);
  rec.require(revision !== undefined, `${what} to answer 200 with a revision`, () => describeAnswer(x!));
  return { c, x: x!, revision: revision!, key, sent };
}

async function keyCase(
  ctx: SuiteContext,
  rec: Recorder,
  c: { id: string; rev: number },
  key: string,
  label: string,
  valid: boolean,
): Promise<void> {
  const body = update(ctx, c.rev, `spgate key ${label}`);
  const x = await rec.send(collectionRequest(c.id, body, key));
  if (valid) {
    discardIfInvalid(ctx, rec, x, body);
    rec.expect(statusOf(x) === 200, `a key of ${label} to be accepted`, () => describeAnswer(x), [x]);
    c.rev = revisionOf(x) ?? c.rev;
  } else {
    const s = statusOf(x) ?? 0;
    rec.expect(s >= 400 && s < 500, `a key of ${label} to be rejected (4xx)`, () => describeAnswer(x), [x]);
    if (isSuccess(x)) c.rev = revisionOf(x) ?? c.rev;
  }
}

/** The parentId an answer shows (absent is reported as undefined). */
function parentOf(x: Exchange): unknown {
  return jsonObject(x)?.parentId;
}

/**
 * Takes a collection and a second one used only as its parent, moves the first under the second and
 * requires the answer to show it there. Returns the child's id, the parent's id and the revision to expect next.
 */
async function childOfAnother(ctx: SuiteContext, rec: Recorder): Promise<{ id: string; parentId: string; revision: number }> {
  // Only the parent's id is used, so its revision needs no confirming.
  const parent = await dataOf(ctx).get('collection');
  const {
    c: child,
    x,
    revision,
  } = await firstMustUpdate(
    ctx,
    rec,
    (rev) => update(ctx, rev, 'spgate child', { parentId: parent.id }),
    'the move under another collection',
  );
  rec.require(
    parentOf(x) === parent.id,
    `the update with parentId "${parent.id}" to show that parent (the editable field sent)`,
    () => `parentId ${JSON.stringify(parentOf(x))}`,
    [x],
    '4.9.collection.replaces',
  );
  return { id: child.id, parentId: parent.id, revision };
}

/**
 * An update by `role` must be refused with 403 and change nothing: an update by the delegated key at the
 * same revision then succeeds (a refused update that had applied would have moved the revision on). The
 * delegated key's own update first tells the revision as it stands.
 */
function refusedUpdate(ctx: SuiteContext, role: KeyRole, expected: string): Promise<CheckOutcome> {
  return runCase(ctx, async (rec) => {
    const { c, revision } = await firstMustUpdate(
      ctx,
      rec,
      (rev) => update(ctx, rev, `spgate before refused ${role}`),
      "the delegated key's first update",
    );
    const x = await rec.send(collectionRequest(c.id, update(ctx, revision, `spgate refused ${role}`), freshKey(), role));
    rec.expect(statusOf(x) === 403, expected, () => describeAnswer(x), [x]);
    const nextBody = update(ctx, revision, `spgate after refused ${role}`);
    const next = await rec.send(collectionRequest(c.id, nextBody, freshKey()));
    discardIfInvalid(ctx, rec, next, nextBody);
    rec.expect(statusOf(next) === 200, `the refused update to leave revision ${revision} current`, () => describeAnswer(next), [x, next]);
  });
}

export const helpcenterSuite = defineSuite({
  name: 'helpcenter',
  description: 'Help Center collection update: revisions, replacement, parentId, body limit, delegation, Idempotency-Key rules',
  checks: [
    {
      id: 'helpcenter.revision-advances',
      clause: '4.9.collection.revision-advances',
      title: 'each successful update advances the revision',
      needs: NEEDS,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const first = await firstMustUpdate(ctx, rec, (rev) => update(ctx, rev, 'spgate rev one'));
          rec.expect(first.revision > first.c.revision, `a revision above ${first.c.revision}`, () => `revision ${first.revision}`, [
            first.x,
          ]);
          const { x, revision } = await mustUpdate(ctx, rec, first.c.id, update(ctx, first.revision, 'spgate rev two'));
          rec.expect(revision > first.revision, `a revision above ${first.revision}`, () => `revision ${revision}`, [x]);
        }),
    },
    {
      id: 'helpcenter.expected-revision',
      clause: '4.9.collection.expected-revision',
      title: 'an update with a stale expectedRevision is rejected and changes nothing',
      needs: NEEDS,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { c, revision } = await firstMustUpdate(ctx, rec, (rev) => update(ctx, rev, 'spgate fresh'));
          const stale = await rec.send(collectionRequest(c.id, update(ctx, c.revision, 'spgate stale'), freshKey()));
          const s = statusOf(stale) ?? 0;
          rec.expect(
            s >= 400 && s < 500,
            `a stale revision to be rejected (assumed ${ctx.target.assumptions.statuses.staleRevision})`,
            () => describeAnswer(stale),
            [stale],
          );
          // Had the stale update applied, the revision would have moved on and this one would be stale too.
          const nextBody = update(ctx, revision, 'spgate current');
          const next = await rec.send(collectionRequest(c.id, nextBody, freshKey()));
          discardIfInvalid(ctx, rec, next, nextBody);
          rec.expect(statusOf(next) === 200, `an update expecting revision ${revision} to still succeed`, () => describeAnswer(next), [
            stale,
            next,
          ]);
        }),
    },
    {
      id: 'helpcenter.replaces',
      clause: '4.9.collection.replaces',
      title: 'the update replaces the editable fields with those sent (random names, slugs, descriptions, positions)',
      needs: NEEDS,
      run: (ctx) =>
        replacesCheck(ctx, (rec) => ({
          first: async (body) => {
            const { c, x, revision } = await firstMustUpdate(ctx, rec, body);
            return { id: c.id, x, revision };
          },
          next: (id, body) => mustUpdate(ctx, rec, id, body),
        })),
    },
    {
      id: 'helpcenter.body-limit',
      clause: '4.9.collection.body-limit',
      title:
        'a valid update body just within 64 KiB (65,280 bytes) is not refused as too large; one above 64 KiB answers 413 with code request.body_too_large',
      needs: NEEDS,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const put = (c: PoolCollection, raw: string) =>
            rec.send({
              method: 'PUT',
              path: `/authoring/collections/${encodeURIComponent(c.id)}`,
              rawBody: raw,
              headers: { 'Content-Type': 'application/json', 'Idempotency-Key': freshKey() },
              role: 'helpDelegated',
            });
          // Insignificant whitespace (RFC 8259) fills the body: no field value grows past a bound a server may set.
          const {
            c,
            xs: [near],
          } = await firstUpdate(ctx, async (c) => {
            const small = JSON.stringify(update(ctx, c.revision, 'spgate near limit'));
            return [await put(c, `${small.slice(0, -1)}${' '.repeat(NEAR_LIMIT - Buffer.byteLength(small))}}`)];
          });
          rec.expect(
            near!.response !== undefined && statusOf(near!) !== 413,
            `a valid ${NEAR_LIMIT}-byte body (within 64 KiB = ${BODY_LIMIT} bytes) not to be refused as too large`,
            () => describeAnswer(near!),
            [near!],
          );
          const shell = JSON.stringify(update(ctx, revisionOf(near!) ?? c.revision, 'spgate large', { description: '' }));
          const raw = shell.replace('"description":""', `"description":"${'x'.repeat(BODY_LIMIT + 1 - shell.length + 1)}"`);
          const x = await put(c, raw);
          rec.expect(statusOf(x) === 413, `HTTP 413 for a ${Buffer.byteLength(raw)}-byte body`, () => describeAnswer(x), [x]);
          // Part 7/8 give the 413 its code; 4.9 only the limit, so a wrong code is reported under 8.body.code.
          const code = statusOf(x) === 413 ? checkErrorAnswer(x, 413, 'request.body_too_large', '8.body.code') : undefined;
          rec.expect(code === undefined, code?.expected ?? '', () => code?.actual ?? '', [x], '8.body.code');
        }),
    },
    {
      id: 'helpcenter.parent-kept',
      clause: '4.9.collection.parent-kept',
      title: 'an update that omits parentId, or sends null, keeps the collection under its parent',
      needs: { ...NEEDS, data: { collection: 2 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const c = await childOfAnother(ctx, rec);
          const omitted = await mustUpdate(
            ctx,
            rec,
            c.id,
            update(ctx, c.revision, 'spgate parent omitted'),
            freshKey(),
            'the update without parentId',
          );
          rec.expect(
            parentOf(omitted.x) === c.parentId,
            `parentId omitted to keep parent "${c.parentId}"`,
            () => `parentId ${JSON.stringify(parentOf(omitted.x))}`,
            [omitted.x],
          );
          const nulled = await mustUpdate(
            ctx,
            rec,
            c.id,
            update(ctx, omitted.revision, 'spgate parent null', { parentId: null }),
            freshKey(),
            'the update with parentId null',
          );
          rec.expect(
            parentOf(nulled.x) === c.parentId,
            `parentId null to keep parent "${c.parentId}"`,
            () => `parentId ${JSON.stringify(parentOf(nulled.x))}`,
            [nulled.x],
          );
        }),
    },
    {
      id: 'helpcenter.parent-root',
      clause: '4.9.collection.parent-root',
      title: 'an update with parentId "" moves the collection out from under its parent (to the root)',
      needs: { ...NEEDS, data: { collection: 2 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const c = await childOfAnother(ctx, rec);
          const root = await mustUpdate(
            ctx,
            rec,
            c.id,
            update(ctx, c.revision, 'spgate parent root', { parentId: '' }),
            freshKey(),
            'the update with parentId ""',
          );
          // How the root shows (null, "" or no parentId) is not shown; only "no longer under the parent" is checked.
          rec.expect(
            parentOf(root.x) !== c.parentId,
            `parentId "" to move the collection from under "${c.parentId}" to the root`,
            () => `parentId ${JSON.stringify(parentOf(root.x))}`,
            [root.x],
          );
        }),
    },
    {
      id: 'helpcenter.delegation',
      clause: '4.9.collection.delegation',
      title: 'an admin key on a connection that is not delegated cannot update collections (403)',
      needs: NEEDS,
      run: (ctx) => refusedUpdate(ctx, 'admin', 'HTTP 403'),
    },
    {
      id: 'helpcenter.owner-admin',
      clause: '4.9.collection.owner-admin',
      title: 'a delegated connection whose holder is no longer owner/admin cannot update collections (403)',
      needs: { ...NEEDS, roles: ['helpDelegated' as const, 'memberDelegated' as const] },
      run: (ctx) => refusedUpdate(ctx, 'memberDelegated', 'HTTP 403 (5.8: operation not allowed for the connection)'),
    },
    {
      id: 'helpcenter.idempotency.replay',
      clause: '4.9.idempotency.replay',
      title: 'an identical retry under the same key is safe: 200 with the revision of the first update, which takes effect once',
      needs: NEEDS,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const first = await firstMustUpdate(ctx, rec, (rev) => update(ctx, rev, 'spgate replay'), 'the first update');
          const { c, key, sent: body } = first;
          const retry = await rec.send(collectionRequest(c.id, body, key));
          // Safe means no second effect: the revision the first update made. Byte-identical is the IETF draft's SHOULD.
          const same = rec.expect(
            statusOf(retry) === 200 && revisionOf(retry) === first.revision,
            `the retry to answer 200 with revision ${first.revision} (no second effect)`,
            () => `${describeAnswer(retry)}, revision ${String(revisionOf(retry))}`,
            [first.x, retry],
          );
          if (same && canonicalJson(retry.response?.json) !== canonicalJson(first.x.response?.json)) {
            rec.add({
              clause: 'idempotency.replay.same-response',
              severity: 'warning',
              exchanges: [first.x, retry],
              expected: 'the first response replayed as it was (IETF Idempotency-Key draft: SHOULD)',
              actual: `revision ${first.revision} with other bytes`,
            });
          }
          const nextBody = update(ctx, first.revision, 'spgate after replay');
          const next = await rec.send(collectionRequest(c.id, nextBody, freshKey()));
          discardIfInvalid(ctx, rec, next, nextBody);
          rec.expect(statusOf(next) === 200, `one effect only: an update expecting revision ${first.revision} succeeds`, () =>
            describeAnswer(next),
          );
        }),
    },
    {
      id: 'helpcenter.idempotency.revoked-no-replay',
      clause: '4.9.idempotency.revoked-no-replay',
      title:
        'after an update, the identical request under the same key from the revoked updater (and from a revoked and an expired key) answers 401, not the stored answer',
      needs: { ...NEEDS, roles: ['helpDelegated' as const, 'revoked' as const] },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const {
            c,
            key,
            sent: body,
          } = await firstMustUpdate(ctx, rec, (rev) => update(ctx, rev, 'spgate revoked replay'), 'the update by the delegated key');
          // A cache keyed by the Idempotency-Key alone and consulted before authentication would answer the stored 200.
          for (const role of ['revoked', 'expired'] as const) {
            if (role === 'expired' && !ctx.target.keys.expired) continue;
            const x = await rec.send(collectionRequest(c.id, body, key, role));
            rec.expect(
              statusOf(x) === 401,
              `the same request under the used key from the ${role} key to answer 401 (5.8), not replay`,
              () => describeAnswer(x),
              [x],
            );
          }
          // The grant that stored the answer, revoked: its own identical retry is what 4.9 says cannot replay.
          const restore = await ctx.fixtures?.revokeKey?.('helpDelegated');
          if (restore) {
            try {
              const own = await rec.send(collectionRequest(c.id, body, key));
              rec.expect(
                statusOf(own) === 401,
                'the delegated key, revoked after its update, to get 401 for its identical retry under the same key (4.9: revoked grants cannot replay)',
                () => describeAnswer(own),
                [own],
              );
            } finally {
              await restore();
            }
            return;
          }
          // A store scoped to the connection never held an answer for the revoked and expired keys: their 401 shows no replay refused.
          if (ctx.target.assumptions.rules.idempotencyPerConnection) {
            cannotJudge(
              rec,
              'Idempotency-Keys are scoped to the connection (assumptions.rules.idempotencyPerConnection): the revoked and expired keys never stored an answer under the key, so their 401 shows no replay refused',
              'a fixtures API that revokes the delegated key after its update (POST {fixtures.api}/keys/helpDelegated/revoke, then /restore)',
            );
          }
        }),
    },
    {
      id: 'helpcenter.idempotency.conflict',
      clause: '4.9.idempotency.conflict',
      title: 'a changed payload under a used key answers 409',
      needs: NEEDS,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const first = await firstMustUpdate(ctx, rec, (rev) => update(ctx, rev, 'spgate first'), 'the first update');
          const { c, key } = first;
          // The changed payload carries the current revision, so only the key reuse can make it fail.
          const changed = await rec.send(collectionRequest(c.id, update(ctx, first.revision, 'spgate changed'), key));
          rec.expect(statusOf(changed) === 409, 'HTTP 409 for a changed payload under the same key', () => describeAnswer(changed));
        }),
    },
    {
      id: 'helpcenter.idempotency.key-pattern',
      clause: '4.9.idempotency.key-pattern',
      title: 'keys of 8 and 128 printable characters are accepted; 7, 129, a space or a tab are rejected',
      needs: NEEDS,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          // A plain first update tells the revision as it stands: a refused key shows nothing about it.
          const first = await firstMustUpdate(ctx, rec, (rev) => update(ctx, rev, 'spgate key base'));
          const c = { id: first.c.id, rev: first.revision };
          const cases: Array<[string, string, boolean]> = [
            [keyOfLength(7), '7 characters', false],
            [keyOfLength(8), '8 characters', true],
            [keyOfLength(128), '128 characters', true],
            [keyOfLength(129), '129 characters', false],
            [`${freshKey(8)} ${freshKey(8)}`, '17 characters with a space', false],
            [`${freshKey(8)}\t${freshKey(8)}`, '17 characters with a tab', false],
          ];
          for (const [key, label, valid] of cases) await keyCase(ctx, rec, c, key, label, valid);
        }),
    },
  ],
});

export default helpcenterSuite;
