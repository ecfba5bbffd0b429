/**
 * Attachment downloads (spec 4.6; the descriptor's shape is checked by the shapes suite). The signed URL is a credential: exchanges are redacted
 * by the client, and failure texts here name fields and zod issue paths, never descriptor values.
 */
import { defineSuite, type SuiteContext } from '../src/conformance/suite.js';
import type { Exchange } from '../src/client/exchange.js';
import type { AttachmentRef } from '../src/conformance/fixtures/needs.js';
import { getHeader } from '../src/spec/headers.js';
import type { SignedUrl } from '../src/client/signed-url.js';
import { describeAnswer, jsonObject, runCase, statusOf, type Recorder } from '../src/conformance/recorder.js';
import { downloadRequest } from './model/requests.js';
import { cannotJudge, dataOf } from './model/world.js';

const STORED = { data: { storedAttachment: 1 } } as const;
const LIFETIME_MS = 5 * 60_000;
/** Clock skew tolerated between the server's Date/expiresAt and the local clock. */
const SKEW_MS = 30_000;

/** An attachment of the kind asked for, from the provider chain (fixtures.ids.message…). */
function attachment(
  ctx: SuiteContext,
  kind: 'storedAttachment' | 'externalAttachment' | 'fetchingAttachment' | 'deletedAttachment',
): Promise<AttachmentRef> {
  return dataOf(ctx).get(kind);
}

function contentType(x: Exchange): string {
  const v = x.response ? getHeader(x.response.headers, 'content-type') : undefined;
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** "HTTP 403 (x4), 3072 bytes" or the transport error of a signed-URL fetch (its URL is never shown). */
function describeFetch(x: Exchange): string {
  if (!x.response) return `no response (${x.error?.kind ?? 'error'}: ${x.error?.message ?? ''})`;
  return `HTTP ${x.response.status} (${x.id}), ${x.response.bodyBytes} bytes${contentType(x) ? `, Content-Type ${contentType(x)}` : ''}`;
}

/**
 * Fetches the URL just issued (well within its five minutes): it must be served (2xx) with as many bytes as
 * the descriptor's sizeBytes. A URL this machine cannot reach, or a 5xx, judges nothing (inconclusive).
 */
async function servedWhileValid(rec: Recorder, url: SignedUrl, sizeBytes: unknown): Promise<void> {
  const file = await rec.fetchSigned(url);
  const s = statusOf(file);
  if (s === undefined || s >= 500) {
    return cannotJudge(
      rec,
      `the signed URL (${url.redactedForm}) could not be fetched from here (${describeFetch(file)})`,
      'run spgate on a machine whose network reaches the attachment storage host of the signed URLs',
    );
  }
  rec.expect(
    s >= 200 && s < 300,
    'the signed URL, fetched at once, to serve the file (2xx)',
    () => describeFetch(file),
    [file],
    '4.6.url-served',
  );
  const encoding = file.response ? getHeader(file.response.headers, 'content-encoding') : undefined;
  const coded = encoding !== undefined && String(encoding).toLowerCase() !== 'identity';
  // a content coding changes the length on the wire: the size is then not comparable
  if (s >= 200 && s < 300 && typeof sizeBytes === 'number' && !coded) {
    rec.expect(
      file.response!.bodyBytes === sizeBytes,
      `the served file to be the descriptor's sizeBytes (${sizeBytes}) long`,
      () => describeFetch(file),
      [file],
      '4.6.url-served',
    );
  }
}

/** When the server issued the descriptor: its Date header, else when the request was sent. */
function issuedAt(x: Exchange): number {
  const d = x.response ? getHeader(x.response.headers, 'date') : undefined;
  const parsed = Date.parse((Array.isArray(d) ? d[0] : d) ?? '');
  return Number.isNaN(parsed) ? x.timings.start : parsed;
}

export const attachmentsSuite = defineSuite({
  name: 'attachments',
  description: 'Attachment download: descriptor shape and lifetime, undownloadable attachments, both scopes, other workspaces',
  checks: [
    {
      id: 'attachments.descriptor.json',
      clause: '4.6.descriptor',
      title: 'download answers a JSON descriptor, not the file bytes',
      needs: STORED,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const m = await attachment(ctx, 'storedAttachment');
          const x = await rec.send(downloadRequest(m.messageId, m.index));
          rec.require(statusOf(x) === 200, 'a stored attachment to be downloadable (200)', () => describeAnswer(x));
          const body = jsonObject(x);
          rec.expect(
            /^application\/json\b/i.test(contentType(x)) && body !== undefined && typeof body.url === 'string',
            'a JSON object carrying a url',
            () =>
              `Content-Type ${contentType(x) || 'none'}, ${body ? `keys ${Object.keys(body).join(', ')}` : 'body is not a JSON object'}`,
          );
        }),
    },
    {
      id: 'attachments.expiry',
      clause: '4.6.expiry',
      title:
        'the signed URL expires five minutes after issue (±30 s clock skew): fetched at once it serves the described file (sizeBytes), and an expired one (from a fixtures API) is refused',
      needs: STORED,
      run: async (ctx) => {
        let expiredTried = false;
        const outcome = await runCase(ctx, async (rec) => {
          const m = await attachment(ctx, 'storedAttachment');
          const { exchange: x, url } = await rec.sendForSignedUrl(downloadRequest(m.messageId, m.index), 'url');
          rec.require(statusOf(x) === 200, 'a stored attachment to be downloadable (200)', () => describeAnswer(x));
          const descriptor = jsonObject(x);
          const expires = Date.parse(String(descriptor?.expiresAt));
          const lifetime = expires - issuedAt(x);
          rec.expect(Number.isFinite(lifetime) && Math.abs(lifetime - LIFETIME_MS) <= SKEW_MS, 'expiresAt 300 s (±30 s) after issue', () =>
            Number.isFinite(lifetime) ? `expiresAt ${Math.round(lifetime / 1000)} s after issue` : 'expiresAt missing or not a date-time',
          );
          if (!url)
            return cannotJudge(
              rec,
              'the descriptor carries no absolute http(s) url, so the signed URL could not be fetched',
              'see attachments.descriptor.json and shapes.descriptor',
            );
          await servedWhileValid(rec, url, descriptor?.sizeBytes);
          const expired = ctx.fixtures ? await ctx.fixtures.expiredDownloadUrl(m.messageId, m.index) : undefined;
          if (!expired) return;
          expiredTried = true;
          const e = await rec.fetchSigned(expired);
          const s = statusOf(e);
          if (s === undefined || (s >= 300 && s < 400) || s >= 500) {
            return cannotJudge(
              rec,
              `the expired signed URL got no refusal or success to judge (${describeFetch(e)})`,
              "run spgate where the signed URLs' host is reachable",
            );
          }
          // 4.6: "The URL is valid five minutes"; which refusal an expired one gets is not shown, so any 4xx
          rec.expect(s >= 400, 'a signed URL past its expiry (expired a minute ago) to be refused (any 4xx)', () => describeFetch(e), [e]);
        });
        // the refusal needs a URL issued over five minutes ago, which only a fixtures API can hand over
        if (outcome.status === 'passed' && !expiredTried) {
          return {
            ...outcome,
            note: 'judged expiresAt and the file served at once; the refusal of an expired URL was not tried (it needs a URL issued over five minutes ago: a fixtures API whose POST /messages/{id}/expired-url issues one)',
          };
        }
        return outcome;
      },
    },
    {
      id: 'attachments.unavailable',
      clause: '4.6.unavailable-422',
      title: 'external and still-fetching attachments answer 422',
      needs: { data: { externalAttachment: 1, fetchingAttachment: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          for (const kind of ['external', 'fetching'] as const) {
            const m = await attachment(ctx, `${kind}Attachment`);
            const x = await rec.send(downloadRequest(m.messageId, m.index));
            rec.expect(statusOf(x) === 422, `HTTP 422 for the ${kind} attachment`, () => describeAnswer(x), [x]);
          }
        }),
    },
    {
      id: 'attachments.deleted',
      clause: '4.6.deleted',
      title: 'attachments of a deleted message are not downloadable',
      needs: { data: { deletedAttachment: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const m = await attachment(ctx, 'deletedAttachment');
          const x = await rec.send(downloadRequest(m.messageId, m.index));
          const s = statusOf(x) ?? 0;
          rec.expect(
            s >= 400 && s < 500,
            `a 4xx refusal (assumed ${ctx.target.assumptions.statuses.deletedAttachment})`,
            () => describeAnswer(x),
            [x],
          );
        }),
    },
    {
      id: 'attachments.scopes',
      clause: '4.6.scopes',
      title:
        'download needs attachments:read and conversations:read: 403 without attachments:read (and without conversations:read, given an attachmentsOnly key), 200 with both',
      needs: { roles: ['noAttachments'], ...STORED },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const m = await attachment(ctx, 'storedAttachment');
          const denied = await rec.send(downloadRequest(m.messageId, m.index, 'noAttachments'));
          rec.expect(statusOf(denied) === 403, 'HTTP 403 for a key without attachments:read', () => describeAnswer(denied), [denied]);
          // the other half, where the target has such a key: attachments:read without conversations:read
          if (ctx.target.secrets.attachmentsOnly !== undefined) {
            const x = await rec.send(downloadRequest(m.messageId, m.index, 'attachmentsOnly'));
            rec.expect(
              statusOf(x) === 403,
              'HTTP 403 for the attachmentsOnly key, which lacks conversations:read',
              () => describeAnswer(x),
              [x],
            );
          }
          const allowed = await rec.send(downloadRequest(m.messageId, m.index, 'admin'));
          rec.expect(statusOf(allowed) === 200, 'HTTP 200 for the admin key, which holds both scopes', () => describeAnswer(allowed), [
            allowed,
          ]);
          // The read-only key's outcome follows from the scopes the target file declares for it.
          const declared = ctx.target.keys.readOnly?.scopes;
          if (ctx.target.secrets.readOnly !== undefined && declared) {
            const both = declared.includes('attachments:read') && declared.includes('conversations:read');
            const x = await rec.send(downloadRequest(m.messageId, m.index, 'readOnly'));
            rec.expect(
              statusOf(x) === (both ? 200 : 403),
              `HTTP ${both ? 200 : 403} for the read-only key (${both ? 'holds' : 'lacks'} both read scopes)`,
              () => describeAnswer(x),
              [x],
            );
          }
        }),
    },
    {
      id: 'attachments.other-workspace',
      clause: '4.6.other-workspace',
      title: "a key of another workspace cannot download this workspace's attachment (any 4xx; 200 with both scopes for the admin key)",
      needs: { roles: ['otherWorkspace'], ...STORED },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const m = await attachment(ctx, 'storedAttachment');
          const own = await rec.send(downloadRequest(m.messageId, m.index, 'admin'));
          rec.require(
            statusOf(own) === 200,
            'the admin key to download the stored attachment (200, the control)',
            () => describeAnswer(own),
            [own],
          );
          // 4.6 says only "not downloadable": which refusal (403, 404…) is not shown
          const x = await rec.send(downloadRequest(m.messageId, m.index, 'otherWorkspace'));
          const s = statusOf(x) ?? 0;
          rec.expect(s >= 400 && s < 500, 'a 4xx refusal for the otherWorkspace key', () => describeAnswer(x), [x]);
        }),
    },
  ],
});

export default attachmentsSuite;
