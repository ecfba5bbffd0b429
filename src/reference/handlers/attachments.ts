/**
 * GET /messages/{messageId}/attachments/{index}/download (4.6): a descriptor with a signed URL that lives five
 * minutes; never file bytes. External and still-fetching attachments are not downloadable (422).
 */
import type { App, Call } from '../app.js';
import { fileBytes, filesOrigin, signedFileUrl } from '../files.js';
import { fail, json, notFound, raw, type Reply } from '../reply.js';

const FIVE_MINUTES = 5 * 60_000;
const ONE_HOUR = 60 * 60_000;

/** Issues a download descriptor for a stored attachment. */
export function downloadAttachment(app: App, call: Call): Reply {
  const [messageId, rawIndex] = call.params as [string, string];
  const f = app.faults;
  // attachment-cross-workspace: the lookup searches the messages of every workspace on the server
  const message =
    app.store.messages.get(messageId) ??
    (f.has('attachment-cross-workspace')
      ? app.siblings.map((w) => w.store.messages.get(messageId)).find((m) => m !== undefined)
      : undefined);
  if (!message) return notFound('no such message');
  if (message.deletedAt !== null && !f.has('attachment-deleted-downloadable')) {
    // the dialect picks the refusal (4.6 says only "not downloadable"): 404 like an unknown message, or 410 Gone
    const st = app.dialect.statuses.deletedAttachment;
    return st === 404
      ? notFound('no such message')
      : fail(st, 'attachments.message_deleted', 'the message was deleted; its attachments are not downloadable');
  }
  if (!/^\d{1,4}$/.test(rawIndex)) return notFound('no such attachment');
  const att = message.attachments[Number(rawIndex)];
  if (!att) return notFound('no such attachment');
  if (att.kind === 'fetching' || (att.kind === 'external' && !f.has('attachment-external-200'))) {
    const why = att.kind === 'external' ? 'the attachment is an external URL' : 'the provider attachment is still being fetched';
    return fail(422, 'attachments.not_downloadable', `${why}; the message metadata stays available`);
  }
  if (f.has('download-file-bytes')) return raw(200, att.contentType, fileBytes(att));
  const expiresAt = app.clock() + (f.has('attachment-expiry-long') ? ONE_HOUR : FIVE_MINUTES);
  // the URL points back at this server (files.ts), on the origin the caller reached it by
  const url = signedFileUrl(app, filesOrigin(call.headers), att, expiresAt);
  return json(200, {
    url,
    expiresAt: new Date(expiresAt).toISOString(),
    filename: att.filename,
    contentType: att.contentType,
    sizeBytes: f.has('descriptor-size-string') ? String(att.sizeBytes) : att.sizeBytes,
    ...(app.dialect.extras ? { object: 'attachment.download' } : {}),
  });
}
