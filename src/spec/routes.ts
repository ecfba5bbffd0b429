/**
 * Named routes a profile can use, and the filling of path and body templates from a target file. A
 * template placeholder `{name}` is filled from `fixtures.ids`; a route whose placeholders cannot be filled
 * is left out of the run (and the run's config says why), so profiles run against any server.
 */
import type { FixtureIds, Target } from '../target/schema.js';
import type { RouteClass } from '../results/schema.js';

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path template relative to baseUrl; `{resolvePath}` stands for assumptions.resolvePath. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Sends a fresh Idempotency-Key with every request. */
  idempotencyKey: boolean;
}

/** The routes the spec shows (part 4), by name. Bodies avoid fields whose validation is "not shown". */
export const NAMED_ROUTES = {
  me: { method: 'GET', path: '/me', idempotencyKey: false },
  statuses: { method: 'GET', path: '/statuses', idempotencyKey: false },
  priorities: { method: 'GET', path: '/priorities', idempotencyKey: false },
  listCustomers: { method: 'GET', path: '/customers', query: { limit: '25' }, idempotencyKey: false },
  listArticles: { method: 'GET', path: '/authoring/articles', idempotencyKey: false },
  listSessions: { method: 'GET', path: '/ai/conversations/{sessionsConversationId}/assistant/sessions', idempotencyKey: false },
  getTurn: { method: 'GET', path: '/ai/assistant/sessions/{completedSessionId}/turns/{completedTurnId}', idempotencyKey: false },
  downloadAttachment: { method: 'GET', path: '/messages/{messageId}/attachments/{storedIndex}/download', idempotencyKey: false },
  assign: { method: 'POST', path: '/conversations/{conversationId}/assign', body: { team: 'spgate-load-{seq}' }, idempotencyKey: true },
  resolve: { method: 'POST', path: '{resolvePath}', body: {}, idempotencyKey: true },
  deleteCustomer: { method: 'DELETE', path: '/customers/{customerId}', idempotencyKey: false },
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof NAMED_ROUTES;
export const ROUTE_NAMES = Object.keys(NAMED_ROUTES) as [RouteName, ...RouteName[]];

/** GET is the read class; every other method is the write class (spec part 8, route classes). */
export function routeClass(method: string): RouteClass {
  return method.toUpperCase() === 'GET' ? 'read' : 'write';
}

/** Flattens the target's fixture ids into the placeholder names templates may use. */
export function templateValues(ids: FixtureIds): Record<string, string> {
  const v: Record<string, string> = {};
  const put = (k: string, x: string | number | undefined): void => {
    if (x !== undefined) v[k] = String(x);
  };
  put('conversationId', ids.conversationId);
  put('customerId', ids.customerId);
  put('collectionId', ids.collectionId);
  put('sessionsConversationId', ids.sessionsConversationId ?? ids.conversationId);
  put('messageId', ids.message?.messageId);
  put('storedIndex', ids.message ? (ids.message.storedIndex ?? 0) : undefined);
  put('deletedMessageId', ids.deletedMessageId);
  put('completedSessionId', ids.completedTurn?.sessionId);
  put('completedTurnId', ids.completedTurn?.turnId);
  put('pendingSessionId', ids.pendingTurn?.sessionId);
  put('pendingTurnId', ids.pendingTurn?.turnId);
  return v;
}

export type FillResult = { ok: true; path: string } | { ok: false; missing: string[] };

/** Fills a path template (URL-encoding each value); `{resolvePath}` expands first. */
export function fillPath(template: string, target: Target): FillResult {
  const expanded = template.replaceAll('{resolvePath}', target.assumptions.resolvePath);
  const values = templateValues(target.fixtures.ids);
  const missing: string[] = [];
  const path = expanded.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const val = values[name];
    if (val === undefined) {
      missing.push(name);
      return '';
    }
    return encodeURIComponent(val);
  });
  return missing.length ? { ok: false, missing } : { ok: true, path };
}

/** The path template as recorded in traces: `{resolvePath}` expanded, placeholders kept. */
export function tracePath(template: string, target: Target): string {
  return template.replaceAll('{resolvePath}', target.assumptions.resolvePath);
}

/**
 * Compiles a body template into a function of the request sequence number. String leaves may hold
 * `{seq}` (the request's number in the run) and fixture placeholders; everything else is copied.
 */
export function compileBody(template: unknown, target: Target): ((seq: number) => string) | undefined {
  if (template === undefined) return undefined;
  const values = templateValues(target.fixtures.ids);
  const text = JSON.stringify(template, (_k, val: unknown) =>
    typeof val === 'string' ? val.replace(/\{([A-Za-z0-9_]+)\}/g, (m, n: string) => (n === 'seq' ? m : (values[n] ?? m))) : val,
  );
  if (!text.includes('{seq}')) return () => text;
  const parts = text.split('{seq}');
  return (seq) => parts.join(String(seq));
}
