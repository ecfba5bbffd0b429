/**
 * The spec's routes a profile can use, by name, and its two route classes (part 8: read and write, each
 * with its own budget). Filling the templates from a target file is the target's (target/templates.ts).
 */
import { z } from 'zod';

/** The route classes of spec part 8 in their one order (read, then write): every per-class table and loop follows it. */
export const ROUTE_CLASSES = ['read', 'write'] as const;
/** GET is the read class, every other method the write class (routeClass). */
export const RouteClass = z.enum(ROUTE_CLASSES);
export type RouteClass = z.infer<typeof RouteClass>;

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
