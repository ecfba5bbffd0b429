/**
 * The target file's `tls` files: paths made absolute (relative to the target file, so a target file and its
 * certificates travel together, and a `--workers` child reading a copy elsewhere finds the same files), then
 * read and parsed once before anything is sent, so a missing or broken file is one line naming the field.
 * Messages name files and fields, never their content (the key is a secret).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { SpgateError } from '../errors.js';
import type { Tls } from './schema.js';

/** The CA files of a tls block as a list (the field takes one path or several). */
export function caFiles(tls: Pick<Tls, 'ca'>): string[] {
  return tls.ca === undefined ? [] : Array.isArray(tls.ca) ? tls.ca : [tls.ca];
}

/** The tls block with every path absolute, relative paths taken from `baseDir`. */
export function absoluteTlsPaths(tls: Tls, baseDir: string): Tls {
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(baseDir, p));
  return {
    ...tls,
    ...(tls.ca !== undefined ? { ca: Array.isArray(tls.ca) ? tls.ca.map(abs) : abs(tls.ca) } : {}),
    ...(tls.cert !== undefined ? { cert: abs(tls.cert) } : {}),
    ...(tls.key !== undefined ? { key: abs(tls.key) } : {}),
  };
}

/** Reads one tls file; a failure is SPGATE_ERR_TLS_CONFIG naming the field and the path. */
export function readTlsFile(field: string, path: string, source: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? 'error'})`;
    throw new SpgateError('SPGATE_ERR_TLS_CONFIG', `${source}: ${field}: ${path}: ${why}`, { cause: err });
  }
}

/** Reads and parses every file of the block (each CA, the certificate with its key); throws one line on the first bad one. */
export function checkTlsFiles(tls: Tls, source: string): void {
  caFiles(tls).forEach((path, i) => {
    const field = Array.isArray(tls.ca) ? `tls.ca[${i}]` : 'tls.ca';
    const pem = readTlsFile(field, path, source);
    if (!pem.includes('-----BEGIN CERTIFICATE-----'))
      throw new SpgateError('SPGATE_ERR_TLS_CONFIG', `${source}: ${field}: ${path} holds no PEM certificate`);
    try {
      createSecureContext({ ca: pem });
    } catch (err) {
      throw new SpgateError('SPGATE_ERR_TLS_CONFIG', `${source}: ${field}: ${path} is not a usable PEM certificate (${reason(err)})`, {
        cause: err,
      });
    }
  });
  if (tls.cert !== undefined && tls.key !== undefined) {
    const cert = readTlsFile('tls.cert', tls.cert, source);
    const key = readTlsFile('tls.key', tls.key, source);
    try {
      createSecureContext({ cert, key });
    } catch (err) {
      // The usual causes: a key of another certificate, an encrypted key, a file of the wrong kind.
      throw new SpgateError(
        'SPGATE_ERR_TLS_CONFIG',
        `${source}: tls.cert/tls.key: ${tls.cert} with ${tls.key} is not a usable certificate and key (${reason(err)})`,
        { cause: err },
      );
    }
  }
}

function reason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const msg = String(e.message ?? err).split('\n', 1)[0] ?? '';
  return typeof e.code === 'string' && !msg.includes(e.code) ? `${e.code}: ${msg}` : msg;
}
