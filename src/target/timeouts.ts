/**
 * The target file's `timeouts` block as client options. Only the bounds the file states are returned, so
 * the client's own defaults apply to the rest; a stated `requestMs` also caps the shorter-lived bounds.
 */
import type { Target } from './schema.js';

export interface ClientTimeouts {
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  timeoutMs?: number;
}

/** Client timeout options from a target's `timeouts` block (empty when the block is absent). */
export function clientTimeouts(target: Pick<Target, 'timeouts'>): ClientTimeouts {
  const t = target.timeouts ?? {};
  const cap = (v: number | undefined): number | undefined => {
    if (v === undefined) return t.requestMs;
    return t.requestMs === undefined ? v : Math.min(v, t.requestMs);
  };
  const out: ClientTimeouts = {};
  const connect = cap(t.connectMs);
  const headers = cap(t.headersMs);
  const body = cap(t.bodyMs);
  if (connect !== undefined) out.connectTimeoutMs = connect;
  if (headers !== undefined) out.headersTimeoutMs = headers;
  if (body !== undefined) out.bodyTimeoutMs = body;
  if (t.requestMs !== undefined) out.timeoutMs = t.requestMs;
  return out;
}
