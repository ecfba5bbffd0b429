/**
 * Id prefixes (spec part 2, basis assumed: the spec lists the prefixes "seen"): customers cus_,
 * conversations conv_, channel identities cid_, request ids req_. Pure functions over one exchange.
 */
import type { Exchange } from '../client/exchange.js';
import { parseTextHeader } from '../spec/headers.js';
import type { ClauseViolation } from './envelope.js';

export const ID_PREFIXES = { customer: 'cus_', conversation: 'conv_', channelIdentity: 'cid_', request: 'req_' } as const;
export type IdKind = keyof typeof ID_PREFIXES;

/** One id found in an exchange: where it sits, what it identifies, its value. */
export interface FoundId {
  where: string;
  kind: IdKind;
  value: unknown;
}

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The request ids of an exchange: the X-Request-Id header and, in an error body, error.requestId. */
export function requestIdsOf(x: Exchange): FoundId[] {
  const r = x.response;
  if (!r) return [];
  const out: FoundId[] = [];
  const header = parseTextHeader(r.headers, 'X-Request-Id');
  if (header.ok) out.push({ where: 'X-Request-Id', kind: 'request', value: header.value });
  const err = obj(obj(r.json)?.error);
  if (r.status >= 400 && err && 'requestId' in err) out.push({ where: 'error.requestId', kind: 'request', value: err.requestId });
  return out;
}

/** The ids of a conversation body: id, customerId and (when not null) channelIdentityId. */
export function conversationIdsOf(body: unknown, at = ''): FoundId[] {
  const c = obj(body);
  if (!c) return [];
  const out: FoundId[] = [
    { where: `${at}id`, kind: 'conversation', value: c.id },
    { where: `${at}customerId`, kind: 'customer', value: c.customerId },
  ];
  if (c.channelIdentityId !== null && c.channelIdentityId !== undefined)
    out.push({ where: `${at}channelIdentityId`, kind: 'channelIdentity', value: c.channelIdentityId });
  return out;
}

/** The customer ids of a customer list page (data[i].id). */
export function customerPageIdsOf(body: unknown): FoundId[] {
  const data = obj(body)?.data;
  return Array.isArray(data) ? data.map((c, i) => ({ where: `data.${i}.id`, kind: 'customer' as const, value: obj(c)?.id })) : [];
}

/**
 * A violation (clause 2.id-prefixes) naming every string id without its kind's prefix; values that are
 * absent or not strings are left to the shape checks.
 */
export function checkIdPrefixes(ids: readonly FoundId[], max = 5): ClauseViolation | undefined {
  const bad = ids.filter((i) => typeof i.value === 'string' && !i.value.startsWith(ID_PREFIXES[i.kind]));
  if (bad.length === 0) return undefined;
  const kinds = [...new Set(bad.map((b) => b.kind))];
  const listed = bad.slice(0, max).map((b) => `${b.where} ${JSON.stringify(b.value)}`);
  if (bad.length > max) listed.push(`… ${bad.length - max} more`);
  return {
    clause: '2.id-prefixes',
    expected: kinds.map((k) => `${k} ids starting ${ID_PREFIXES[k]}`).join('; '),
    actual: listed.join('; '),
  };
}
