/**
 * Authentication and scopes (spec part 5): what is refused with 401, which key prefixes are accepted, that
 * legacy prefixes see the same data, that a missing scope is 403 on every operation that needs one, and that
 * a key of another workspace sees and changes nothing of this one.
 */
import fc from 'fast-check';
import { defineSuite, type SuiteContext } from '../src/conformance/suite.js';
import { runProperty } from '../src/conformance/property.js';
import type { Exchange } from '../src/client/exchange.js';
import { inconclusive } from '../src/conformance/inconclusive.js';
import { jsonObject, describeAnswer, expectStatus, runCase, statusOf, Recorder } from '../src/conformance/recorder.js';
import { storedAttachment } from '../src/conformance/data.js';
import { downloadRequest } from './model/requests.js';
import { runOtherWorkspace } from './model/other-workspace.js';
import { runScopeMissing } from './model/scope-missing.js';
import { MAX_PAGES, idsOf } from './model/customer-list.js';
import { Parts, unanswered } from './model/parts.js';
import { cannotJudge } from './model/world.js';
import { missedWithin, orderChange, stayedPut } from '../src/conformance/stayed-put.js';
import type { KeyRole } from '../src/target/schema.js';

// A cheap read every key with customers:read may make.
const PROBE = { method: 'GET', path: '/customers', query: { limit: 5 } } as const;

const keyChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'.split(''));
const keyBody = fc.string({ unit: keyChar, minLength: 0, maxLength: 48 });

/** Bogus keys: unknown pk_ keys, other prefixes, and malformed tokens (no whitespace: header-safe). */
const bogusKey = fc.oneof(
  keyBody.map((s) => `pk_${s}`),
  keyBody.map((s) => `pk_live_${s}`),
  keyBody.map((s) => `sk_${s}`),
  fc.string({ unit: fc.constantFrom(...'!#$%&*+.^|~0123456789abcXYZ'.split('')), minLength: 1, maxLength: 32 }),
);

function secretOf(ctx: SuiteContext, role: KeyRole): string {
  return ctx.target.secrets[role] ?? '';
}

interface Walk {
  ids: string[];
  xs: Exchange[];
  /** The page that did not answer 200 with a data array, if any. */
  failed?: Exchange;
  /** True when the walk stopped at MAX_PAGES before the list's end. */
  cut: boolean;
}

/** The ids of the whole unfiltered customer list as `role` reads it: 100 a page, MAX_PAGES at most. */
async function walkIds(rec: Recorder, role: KeyRole): Promise<Walk> {
  const walk: Walk = { ids: [], xs: [], cut: false };
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const x = await rec.send({ method: 'GET', path: '/customers', query: { limit: 100, cursor }, role });
    walk.xs.push(x);
    const ids = statusOf(x) === 200 ? idsOf(x) : undefined;
    if (!ids) return { ...walk, failed: x };
    walk.ids.push(...ids);
    const next = jsonObject(x)?.nextCursor;
    if (typeof next !== 'string' || next === '') return walk;
    cursor = next;
  }
  return { ...walk, cut: true };
}

export default defineSuite({
  name: 'auth',
  description: 'Authentication and scopes (spec part 5)',
  checks: [
    {
      id: 'auth.missing-header',
      clause: '5.auth.missing',
      title: 'A request without Authorization is refused with 401',
      async run(ctx) {
        const parts = new Parts(ctx);
        for (const path of ['/customers', '/me', '/statuses'])
          await parts.probe(`GET ${path} without Authorization`, { method: 'GET', path, role: null }, 401);
        return parts.outcome();
      },
    },
    {
      id: 'auth.wrong-scheme',
      clause: '5.auth.scheme',
      title: 'A valid key under another scheme (or bare) is refused with 401',
      async run(ctx) {
        const key = secretOf(ctx, 'admin');
        const parts = new Parts(ctx);
        const variants: Array<[string, string]> = [
          ['the bare key', key],
          ['scheme Token', `Token ${key}`],
          ['scheme Basic', `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
          ['scheme Bearer without a key', 'Bearer'],
        ];
        for (const [what, authorization] of variants) await parts.probe(`Authorization with ${what}`, { ...PROBE, authorization }, 401);
        return parts.outcome();
      },
    },
    {
      id: 'auth.bad-key',
      clause: '5.auth.bad-secret',
      title: 'Malformed and unknown keys are refused with 401',
      async run(ctx) {
        const known = new Set(Object.values(ctx.target.secrets));
        // Look-alikes of the real key (same prefix and length, some characters changed) are well-formed but unknown.
        const real = secretOf(ctx, 'admin');
        const lookAlike = fc
          .array(fc.tuple(fc.nat(), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''))), { minLength: 1, maxLength: 4 })
          .map((edits) => {
            const chars = [...real];
            const from = Math.min(chars.length, real.lastIndexOf('_') + 1);
            for (const [pos, ch] of edits) if (chars.length > from) chars[from + (pos % (chars.length - from))] = ch;
            return chars.join('');
          });
        let judged = 0;
        const out = await runProperty(
          ctx,
          fc.oneof(lookAlike, bogusKey),
          async (key, rec) => {
            const x = await rec.send({ ...PROBE, authorization: `Bearer ${key}` });
            // a gateway's 5xx (or no answer) says nothing of how the key was judged
            if (unanswered(x)) rec.discard(`it answered ${describeAnswer(x)}`);
            judged++;
            rec.require(x.response?.status === 401, 'HTTP 401 for an unknown or malformed key', () => describeAnswer(x));
          },
          { precondition: (k) => !known.has(k), examples: ['pk_', 'pk_0', 'x', 'pk_test_', `pk_spgateunknownkey${'0'.repeat(24)}`] },
        );
        // runProperty's own count of judged cases also counts the examples it did not run, so none judged is checked here
        if (out.status === 'passed' && judged === 0)
          inconclusive(`no key was answered by the server itself: ${out.note ?? ''}`, 'run when the target answers');
        return out;
      },
    },
    {
      id: 'auth.expired',
      clause: '5.auth.expired',
      title: 'An expired key is refused with 401',
      needs: { roles: ['expired'] },
      async run(ctx) {
        const parts = new Parts(ctx);
        await parts.probe('GET /customers with an expired key', { ...PROBE, role: 'expired' }, 401);
        return parts.outcome();
      },
    },
    {
      id: 'auth.revoked',
      clause: '5.auth.revoked',
      title: 'A revoked key is refused with 401',
      needs: { roles: ['revoked'] },
      async run(ctx) {
        const parts = new Parts(ctx);
        await parts.probe('GET /customers with a revoked key', { ...PROBE, role: 'revoked' }, 401);
        return parts.outcome();
      },
    },
    {
      id: 'auth.prefixes',
      clause: '5.auth.prefixes',
      title: 'Keys with the pk_, pk_live_ and pk_test_ prefixes are accepted',
      async run(ctx) {
        const parts = new Parts(ctx);
        const roles: Array<[KeyRole, string]> = [
          ['admin', 'pk_'],
          ['legacyLive', 'pk_live_'],
          ['legacyTest', 'pk_test_'],
        ];
        const tried = roles.filter(([role, prefix]) => ctx.target.secrets[role]?.startsWith(prefix));
        if (tried.length === 0) return { status: 'skipped', reason: 'the target names no keys with the pk_, pk_live_ or pk_test_ prefix' };
        for (const [role, prefix] of tried) await parts.probe(`GET /customers with a ${prefix} key (${role})`, { ...PROBE, role }, 200);
        const untried = roles.filter(([role]) => role !== 'admin' && !tried.some(([r]) => r === role));
        const remedy = untried.map(([role, prefix]) => `keys.${role}: a ${prefix} key`).join('; ');
        // A pk_ key is what every check sends: the clause's own point is that the older prefixes still work.
        if (untried.length === 2) {
          const out = parts.outcome();
          if (out.status === 'failed') return out;
          return {
            status: 'inconclusive',
            cases: 0,
            reason: 'the target names no pk_live_ or pk_test_ key: only the pk_ key every check uses was tried',
            remedy,
          };
        }
        for (const [role, prefix] of untried)
          parts.untry(`a ${prefix} key`, `the target names no ${role} key starting with ${prefix}`, remedy);
        return parts.outcome();
      },
    },
    {
      id: 'auth.legacy-same-data',
      clause: '5.auth.legacy-no-isolation',
      title: 'pk_live_ and pk_test_ keys see the same workspace data as the admin key (the whole customer list)',
      needs: { roles: ['legacyLive', 'legacyTest'] },
      async run(ctx) {
        const parts = new Parts(ctx);
        // The admin's list is what the others are compared with: without it nothing is judged.
        const mine = await walkIds(new Recorder(ctx), 'admin');
        if (mine.failed)
          inconclusive(`the admin key's customer list answered ${describeAnswer(mine.failed)}, so there is nothing to compare with`);
        if (mine.ids.length === 0)
          inconclusive(
            'the admin key lists no customer: an empty list shows no difference',
            'a customer in the workspace the keys belong to',
          );
        for (const role of ['legacyLive', 'legacyTest'] as const) {
          await parts.run(`the ${role} key`, async (rec) => {
            const got = await walkIds(rec, role);
            const x = got.failed;
            if (x && unanswered(x)) return cannotJudge(rec, `its customer list answered ${describeAnswer(x)}`);
            rec.expect(!x, `the ${role} key to list customers like the admin key`, () => describeAnswer(x!), x && [x]);
            if (x) return;
            // Other clients create and delete customers meanwhile: judged are the customers the admin key
            // lists before and after this walk (they existed throughout it), within what both walks read.
            const again = await walkIds(new Recorder(ctx), 'admin');
            if (again.failed)
              return cannotJudge(rec, `the admin key's customer list read after the ${role} walk answered ${describeAnswer(again.failed)}`);
            const stayed = stayedPut(mine.ids, again.ids);
            const missing = missedWithin(mine.ids, got.ids, stayed, new Set(), !got.cut);
            rec.expect(
              missing.length === 0,
              `the ${role} key to list the same customers as the admin key (those the admin key lists before and after its walk)`,
              () => `missing ${missing.slice(0, 5).join(', ')} (${missing.length} of ${stayed.size}; ${got.ids.length} ids listed)`,
              [...mine.xs.slice(-1), ...got.xs.slice(-1)],
            );
            const moved = orderChange(mine.ids, got.ids, (id) => stayed.has(id));
            rec.expect(
              moved === undefined,
              `the ${role} key to list them in the admin key's order`,
              () => `${moved!.first} where the admin key lists ${moved!.second}`,
              [...mine.xs.slice(0, 1), ...got.xs.slice(0, 1)],
            );
          });
        }
        if (mine.cut)
          parts.untry(`customers beyond the first ${MAX_PAGES} pages`, 'the walks stop there: the rest of the list was not compared');
        return parts.outcome();
      },
    },
    {
      id: 'auth.no-workspace-header',
      clause: '5.workspace-header',
      title: 'Requests succeed without X-Workspace-Id',
      async run(ctx) {
        return runCase(ctx, async (rec) => {
          const x = await rec.send({ method: 'GET', path: '/me' });
          if (unanswered(x)) return cannotJudge(rec, `GET /me answered ${describeAnswer(x)}`, 'run when the target answers GET /me');
          rec.add(expectStatus(x, 200, 'GET /me with only Authorization'));
          if (statusOf(x) === 200 && !jsonObject(x))
            rec.add({ expected: 'a JSON object from GET /me', actual: describeAnswer(x), exchanges: [x], clause: '4.10.me' });
        });
      },
    },
    {
      id: 'auth.scope-missing',
      clause: '5.scope.missing',
      title:
        "Every operation answers 403 to a key lacking a scope it needs (each role × operation the keys' scopes or role definitions give; writes with allowWrites)",
      needs: { roles: ['readOnly'] },
      run: runScopeMissing,
    },
    {
      id: 'auth.scope-attachments',
      clause: '4.6.scopes',
      title: 'A key with attachments:read but without conversations:read cannot download an attachment (403)',
      needs: { roles: ['attachmentsOnly'], data: { storedAttachment: 1 } },
      async run(ctx) {
        const att = await storedAttachment(ctx);
        if (!att) inconclusive('no stored attachment to download', 'fixtures.ids.message.storedIndex (or fixtures.command)');
        return runCase(ctx, async (rec) => {
          const ok = await rec.send(downloadRequest(att.messageId, att.index, 'admin'));
          // a control download that got no answer shows nothing of what the attachmentsOnly key's 403 means
          if (unanswered(ok)) return cannotJudge(rec, `the admin key's control download answered ${describeAnswer(ok)}`);
          rec.add(expectStatus(ok, 200, 'download with a key holding both scopes (control)', '4.6.descriptor'));
          const x = await rec.send(downloadRequest(att.messageId, att.index, 'attachmentsOnly'));
          if (unanswered(x)) return cannotJudge(rec, `the attachmentsOnly key's download answered ${describeAnswer(x)}`);
          rec.add(expectStatus(x, 403, 'download with a key holding attachments:read but not conversations:read'));
        });
      },
    },
    {
      id: 'auth.other-workspace',
      clause: '5.workspace-bound',
      title:
        "A key of another workspace neither lists nor finds (search, identity lookup) this workspace's customers or chats, nor reads its chat turns, nor changes its turns, conversations, customers or collections",
      needs: { roles: ['otherWorkspace'] },
      run: runOtherWorkspace,
    },
  ],
});
