/**
 * Every route the spec shows, one request builder each, for the body-limit sweep (spec 8: "1 KB for reads,
 * 64 KB for writes; above it 413 request.body_too_large | all requests"). The class of a route comes from its
 * method through the one route-class rule (src/spec/routes.ts routeClass). Each write is built so that, had
 * its body been processed, it would change nothing a legitimate server keeps: assign has neither assignee
 * nor team (4.7 requires one), resolve names a status key no workspace defines (7: unknown_status), cancel
 * targets a completed turn (409), the collection update carries no expectedRevision. Only the customer
 * delete acts, on a disposable pool customer. Pure.
 */
import type { RequestSpec } from '../../src/client/types.js';
import type { AttachmentRef, TurnRef } from '../../src/conformance/fixtures/needs.js';
import { routeClass } from '../../src/spec/routes.js';
import type { RouteClass } from '../../src/results/schema.js';
import type { Target } from '../../src/target/schema.js';
import { fillPath } from './requests.js';

/** The fixture ids the read sweep fills its paths with (all only read). */
export interface ReadRouteIds {
  completedTurn: TurnRef;
  sessionsConversation: string;
  storedAttachment: AttachmentRef;
}

/** The fixture ids the write sweep fills its paths with; only `customer` (a pool item) may be acted on. */
export interface WriteRouteIds {
  completedTurn: TurnRef;
  conversationId: string;
  customer: string;
  collection: string;
}

/** One route of the sweep: a label for messages and the request with a body of `bytes` bytes. */
export interface BodyRoute {
  label: string;
  cls: RouteClass;
  request(bytes: number): RequestSpec;
}

/** A status key that matches the key pattern but that no workspace is expected to define. */
export const UNDEFINED_STATUS = 'spgate-undefined-status';

/** A JSON object of exactly `bytes` bytes (or base's own size when larger): `base` plus a `pad` string. */
export function paddedJson(base: Record<string, unknown>, bytes: number): string {
  const shell = JSON.stringify({ ...base, pad: '' });
  const fill = Math.max(0, bytes - Buffer.byteLength(shell));
  return `${shell.slice(0, -2)}${'x'.repeat(fill)}"}`;
}

const e = encodeURIComponent;

function route(
  label: string,
  method: RequestSpec['method'],
  path: string,
  base: Record<string, unknown>,
  extra: Partial<RequestSpec> = {},
  newKey?: () => string,
): BodyRoute {
  return {
    label: `${method} ${label}`,
    cls: routeClass(method),
    request: (bytes) => ({
      method,
      path,
      ...extra,
      // a valid key where the route takes one, so only the body's size can make it refuse
      headers: { 'Content-Type': 'application/json', ...(newKey ? { 'Idempotency-Key': newKey() } : {}) },
      rawBody: paddedJson(base, bytes),
    }),
  };
}

/** The read routes of the spec (4.1, 4.3, 4.4, 4.6, 4.10). */
export function readRoutes(ids: ReadRouteIds): BodyRoute[] {
  const t = ids.completedTurn;
  const a = ids.storedAttachment;
  return [
    route('/customers', 'GET', '/customers', {}, { query: { limit: 1 } }),
    route('/me', 'GET', '/me', {}),
    route('/statuses', 'GET', '/statuses', {}),
    route('/priorities', 'GET', '/priorities', {}),
    route('a chat turn', 'GET', `/ai/assistant/sessions/${e(t.sessionId)}/turns/${e(t.turnId)}`, {}),
    route('the chat list', 'GET', `/ai/conversations/${e(ids.sessionsConversation)}/assistant/sessions`, {}),
    route('an attachment download', 'GET', `/messages/${e(a.messageId)}/attachments/${a.index}/download`, {}),
    route('/authoring/articles', 'GET', '/authoring/articles', {}, { query: { limit: 1 } }),
  ];
}

/** The write routes of the spec (4.2, 4.5, 4.7, 4.8, 4.9); `newKey` gives each collection update its Idempotency-Key. */
export function writeRoutes(target: Target, ids: WriteRouteIds, newKey: () => string): BodyRoute[] {
  const t = ids.completedTurn;
  const conv = ids.conversationId;
  return [
    route('assign', 'POST', `/conversations/${e(conv)}/assign`, {}),
    route('resolve', 'POST', fillPath(target.assumptions.resolvePath, { conversationId: conv, id: conv }), { status: UNDEFINED_STATUS }),
    route('cancel (a completed turn)', 'POST', `/ai/assistant/sessions/${e(t.sessionId)}/turns/${e(t.turnId)}/cancel`, {}),
    route('/customers/{id} (a pool customer)', 'DELETE', `/customers/${e(ids.customer)}`, {}),
    route(
      '/authoring/collections/{id}',
      'PUT',
      `/authoring/collections/${e(ids.collection)}`,
      { name: 'spgate body limit', slug: 'spgate-body-limit' },
      { role: 'helpDelegated' },
      newKey,
    ),
  ];
}
