/**
 * Authentication and scopes (spec part 5): what is refused with 401, which key prefixes are accepted, that
 * legacy prefixes see the same data, that a missing scope is 403 on every operation that needs one, and that
 * a key of another workspace sees and changes nothing of this one.
 */
import fc from 'fast-check';
import { defineSuite, type SuiteContext } from '../src/conformance/suite.js';
import { checkProperty } from '../src/conformance/property.js';
import { jsonObject, describeAnswer, expectStatus, Recorder } from '../src/conformance/recorder.js';
import { storedAttachment } from '../src/conformance/data.js';
import { downloadRequest } from './model/requests.js';
import { runOtherWorkspace } from './model/other-workspace.js';
import { runScopeMissing } from './model/scope-missing.js';
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

async function refusedWith401(ctx: SuiteContext, role: KeyRole, what: string) {
  const x = await ctx.send({ ...PROBE, role });
  return expectStatus(x, 401, what);
}

function ids(json: unknown): string[] | undefined {
  const data = (json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? data.map((d) => String((d as { id?: unknown }).id)) : undefined;
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
        const t = new Recorder();
        for (const path of ['/customers', '/me', '/statuses']) {
          t.add(expectStatus(await ctx.send({ method: 'GET', path, role: null }), 401, `GET ${path} without Authorization`));
        }
        return t.outcome();
      },
    },
    {
      id: 'auth.wrong-scheme',
      clause: '5.auth.scheme',
      title: 'A valid key under another scheme (or bare) is refused with 401',
      async run(ctx) {
        const key = secretOf(ctx, 'admin');
        const t = new Recorder();
        const variants: Array<[string, string]> = [
          ['the bare key', key],
          ['scheme Token', `Token ${key}`],
          ['scheme Basic', `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
          ['scheme Bearer without a key', 'Bearer'],
        ];
        for (const [what, authorization] of variants) {
          t.add(expectStatus(await ctx.send({ ...PROBE, authorization }), 401, `Authorization with ${what}`));
        }
        return t.outcome();
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
        const lookAlike = fc.array(fc.tuple(fc.nat(), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''))), { minLength: 1, maxLength: 4 })
          .map((edits) => {
            const chars = [...real];
            const from = Math.min(chars.length, real.lastIndexOf('_') + 1);
            for (const [pos, ch] of edits) if (chars.length > from) chars[from + (pos % (chars.length - from))] = ch;
            return chars.join('');
          });
        return checkProperty(
          ctx,
          fc.oneof(lookAlike, bogusKey),
          async (key, io) => {
            const x = await io.send({ ...PROBE, authorization: `Bearer ${key}` });
            return x.response?.status === 401 ? undefined : { expected: 'HTTP 401 for an unknown or malformed key', actual: describeAnswer(x) };
          },
          { precondition: (k) => !known.has(k), examples: ['pk_', 'pk_0', 'x', 'pk_test_', `pk_spgateunknownkey${'0'.repeat(24)}`] },
        );
      },
    },
    {
      id: 'auth.expired',
      clause: '5.auth.expired',
      title: 'An expired key is refused with 401',
      needs: { roles: ['expired'] },
      async run(ctx) {
        const t = new Recorder();
        t.add(await refusedWith401(ctx, 'expired', 'GET /customers with an expired key'));
        return t.outcome();
      },
    },
    {
      id: 'auth.revoked',
      clause: '5.auth.revoked',
      title: 'A revoked key is refused with 401',
      needs: { roles: ['revoked'] },
      async run(ctx) {
        const t = new Recorder();
        t.add(await refusedWith401(ctx, 'revoked', 'GET /customers with a revoked key'));
        return t.outcome();
      },
    },
    {
      id: 'auth.prefixes',
      clause: '5.auth.prefixes',
      title: 'Keys with the pk_, pk_live_ and pk_test_ prefixes are accepted',
      async run(ctx) {
        const t = new Recorder();
        const roles: Array<[KeyRole, string]> = [['admin', 'pk_'], ['legacyLive', 'pk_live_'], ['legacyTest', 'pk_test_']];
        for (const [role, prefix] of roles) {
          const key = ctx.target.secrets[role];
          if (!key || !key.startsWith(prefix)) continue; // no such key in the target: nothing to try
          t.add(expectStatus(await ctx.send({ ...PROBE, role }), 200, `GET /customers with a ${prefix} key (${role})`));
        }
        if (t.cases === 0) return { status: 'skipped', reason: 'the target names no keys with the pk_, pk_live_ or pk_test_ prefix' };
        return t.outcome();
      },
    },
    {
      id: 'auth.legacy-same-data',
      clause: '5.auth.legacy-no-isolation',
      title: 'pk_live_ and pk_test_ keys see the same workspace data as the admin key',
      needs: { roles: ['legacyLive', 'legacyTest'] },
      async run(ctx) {
        const t = new Recorder();
        const spec = { method: 'GET', path: '/customers', query: { limit: 20 } } as const;
        const a = await ctx.send({ ...spec, role: 'admin' });
        const want = ids(a.response?.json);
        if (a.response?.status !== 200 || !want) return { status: 'skipped', reason: `the admin key cannot list customers (${describeAnswer(a)})` };
        for (const role of ['legacyLive', 'legacyTest'] as const) {
          const x = await ctx.send({ ...spec, role });
          const got = ids(x.response?.json);
          const same = got !== undefined && got.join(',') === want.join(',');
          t.add(same ? undefined : {
            expected: `the ${role} key to list the same customers as the admin key (${want.length} ids)`,
            actual: got ? `different ids: ${got.slice(0, 5).join(', ')}…` : describeAnswer(x),
            exchanges: [a, x],
          });
        }
        return t.outcome();
      },
    },
    {
      id: 'auth.no-workspace-header',
      clause: '5.workspace-header',
      title: 'Requests succeed without X-Workspace-Id',
      async run(ctx) {
        const t = new Recorder();
        const x = await ctx.send({ method: 'GET', path: '/me' });
        t.add(expectStatus(x, 200, 'GET /me with only Authorization'));
        if (x.response?.status === 200 && !jsonObject(x)) t.add({ expected: 'a JSON object from GET /me', actual: describeAnswer(x), exchanges: [x], clause: '4.10.me' });
        return t.outcome();
      },
    },
    {
      id: 'auth.scope-missing',
      clause: '5.scope.missing',
      title: 'Every operation answers 403 to a key lacking a scope it needs (each role × operation the keys\' scopes or role definitions give; writes with allowWrites)',
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
        if (!att) return { status: 'skipped', reason: 'no stored attachment: needs fixtures.ids.message.storedIndex or fixtures.command' };
        const t = new Recorder();
        const ok = await ctx.send(downloadRequest(att.messageId, att.index, 'admin'));
        t.add(expectStatus(ok, 200, 'download with a key holding both scopes (control)', '4.6.descriptor'));
        const x = await ctx.send(downloadRequest(att.messageId, att.index, 'attachmentsOnly'));
        t.add(expectStatus(x, 403, 'download with a key holding attachments:read but not conversations:read'));
        return t.outcome();
      },
    },
    {
      id: 'auth.other-workspace',
      clause: '5.workspace-bound',
      title: 'A key of another workspace neither lists nor finds (search, identity lookup) this workspace\'s customers or chats, nor reads its chat turns, nor changes its turns, conversations, customers or collections',
      needs: { roles: ['otherWorkspace'] },
      run: runOtherWorkspace,
    },
  ],
});
