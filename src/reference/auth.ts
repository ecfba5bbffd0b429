/**
 * Authentication of /v1 requests (spec part 5): Bearer scheme, known key, not expired, not revoked. Pure over
 * the key table, so the outcome can pick the rate-limit bucket before any reply is made.
 */
import type { Connection } from './connections.js';
import type { FaultSet } from './fault-set.js';

export type AuthOutcome = { ok: true; conn: Connection } | { ok: false; status: 401 | 403; code: string; message: string };

const KEY_SHAPE = /^pk_[A-Za-z0-9_]{8,200}$/;

/** The caller a request without Authorization becomes under the auth-missing-anonymous fault. */
const ANONYMOUS: Connection = {
  id: 'con_anonymous',
  role: 'readOnly',
  key: '',
  scopes: new Set(['customers:read', 'conversations:read', 'help:read']),
  holder: 'member',
  delegated: false,
  expiresAt: null,
  revoked: false,
  mode: null,
  note: 'anonymous read-only caller (fault)',
};

/** Checks the Authorization header against the workspace's keys. */
export function authenticate(
  header: string | undefined,
  keys: ReadonlyMap<string, Connection>,
  faults: FaultSet,
  now: number,
): AuthOutcome {
  if (!header) {
    return faults.has('auth-missing-anonymous')
      ? { ok: true, conn: ANONYMOUS }
      : refuse(401, 'auth.missing_credentials', 'Authorization: Bearer <API_KEY> is required');
  }
  let token: string;
  const space = header.indexOf(' ');
  if (space > 0 && header.slice(0, space).toLowerCase() === 'bearer') token = header.slice(space + 1).trim();
  else if (space < 0 && faults.has('auth-scheme-lenient') && header.startsWith('pk_')) token = header;
  else return refuse(401, 'auth.invalid_scheme', 'the Authorization scheme must be Bearer');
  if (!KEY_SHAPE.test(token)) return refuse(401, 'auth.invalid_key', 'the API key is malformed');
  const conn = keys.get(token);
  if (!conn) {
    return faults.has('auth-bad-key-403')
      ? refuse(403, 'auth.forbidden', 'the API key is not allowed')
      : refuse(401, 'auth.invalid_key', 'the API key is not valid');
  }
  if (conn.mode !== null && faults.has('auth-legacy-prefix-rejected')) return refuse(401, 'auth.invalid_key', 'the API key is not valid');
  if (conn.revoked && !faults.has('auth-revoked-accepted')) return refuse(401, 'auth.key_revoked', 'the API key has been revoked');
  if (conn.expiresAt !== null && conn.expiresAt <= now && !faults.has('auth-expired-accepted')) {
    return refuse(401, 'auth.key_expired', 'the API key has expired');
  }
  return { ok: true, conn };
}

function refuse(status: 401 | 403, code: string, message: string): AuthOutcome {
  return { ok: false, status, code, message };
}
