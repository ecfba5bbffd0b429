/**
 * The signed attachment URLs of download descriptors (4.6), served by the reference server itself under
 * /files (outside /v1: no key, no rate limit — the signature is the credential). A URL names the file, its
 * expiry (unix seconds) and an HMAC over both; it serves the file's bytes until the expiry and is refused
 * (403) once expired or when any part was changed. "Deleted messages ... are not downloadable": a URL of a
 * message deleted since it was issued is refused too.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { App } from './app.js';
import type { AttachmentRecord, MessageRecord } from './records.js';
import { fail, notFound, raw, type Reply } from './reply.js';

/** Path prefix of signed file URLs. */
export const FILES_PREFIX = '/files/';

/** Where a signed URL of this call points: the origin the client reached this server on. */
export function filesOrigin(headers: IncomingHttpHeaders): string {
  const host = typeof headers.host === 'string' && /^[A-Za-z0-9.:[\]-]+$/.test(headers.host) ? headers.host : '127.0.0.1';
  return `http://${host}`;
}

/** The signed URL of `att`, valid until `expiresAtMs`. */
export function signedFileUrl(app: App, origin: string, att: AttachmentRecord, expiresAtMs: number): string {
  const expires = Math.ceil(expiresAtMs / 1000);
  const path = `${FILES_PREFIX}${att.fileId}`;
  return `${origin}${path}?expires=${expires}&signature=${app.signUrl(path, expires)}`;
}

/** Answers GET /files/<fileId>?expires&signature. */
export function serveFile(app: App, method: string, pathname: string, rawQuery: string): Reply {
  if (method !== 'GET' && method !== 'HEAD') return fail(405, 'files.method_not_allowed', 'signed file URLs answer GET only');
  const q = new URLSearchParams(rawQuery);
  const expires = Number(q.get('expires') ?? NaN);
  const signature = q.get('signature') ?? '';
  if (!Number.isSafeInteger(expires) || signature !== app.signUrl(pathname, expires)) {
    return fail(403, 'files.signature_invalid', 'the URL signature does not match');
  }
  // attachment-url-never-expires: the expiry is signed but never compared with the clock
  if (expires * 1000 < app.clock() && !app.faults.has('attachment-url-never-expires')) {
    return fail(403, 'files.url_expired', 'the signed URL has expired; ask for a new download URL');
  }
  const found = findFile(app, pathname.slice(FILES_PREFIX.length));
  if (!found || found.message.deletedAt !== null) return notFound('no such file');
  // attachment-url-wrong-file: the URL serves other bytes than the descriptor described (one byte short)
  const bytes = fileBytes(found.att);
  return raw(200, found.att.contentType, app.faults.has('attachment-url-wrong-file') ? bytes.subarray(1) : bytes);
}

/** Stand-in contents of a stored file (the reference server keeps no files): a PDF header and padding. */
export function fileBytes(att: AttachmentRecord): Buffer {
  const out = Buffer.alloc(att.sizeBytes, 0x20);
  out.write('%PDF-1.4\n');
  return out;
}

function findFile(app: App, fileId: string): { message: MessageRecord; att: AttachmentRecord } | undefined {
  for (const message of app.store.messages.values()) {
    const att = message.attachments.find((a) => a.fileId === fileId && a.kind === 'stored');
    if (att) return { message, att };
  }
  return undefined;
}
