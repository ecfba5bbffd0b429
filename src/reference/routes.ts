/** Every /v1 route of the reference server, with the scopes it needs (spec parts 4 and 5). */
import type { RouteDef } from './app.js';
import type { Dialect } from './dialect.js';
import { me, priorities, statuses } from './handlers/account.js';
import { cancelTurn, getTurn, listSessions } from './handlers/assistant.js';
import { downloadAttachment } from './handlers/attachments.js';
import { getCollection, listArticles, updateCollection } from './handlers/authoring.js';
import { assignConversation, getConversation, resolveConversation } from './handlers/conversations.js';
import { deleteCustomer, listCustomers } from './handlers/customers.js';

/** 64 KiB: the write-class body limit, which is also the collection update limit (4.9). */
export const WRITE_BODY_LIMIT = 65_536;
/** 1 KB: the read-class body limit. */
export const READ_BODY_LIMIT = 1_024;

/** The routes of the default dialect. */
export const ROUTES: readonly RouteDef[] = [
  { method: 'GET', path: '/me', scopes: [], handler: me },
  { method: 'GET', path: '/statuses', scopes: [], handler: statuses },
  { method: 'GET', path: '/priorities', scopes: [], handler: priorities },
  { method: 'GET', path: '/customers', scopes: ['customers:read'], handler: listCustomers },
  { method: 'DELETE', path: '/customers/:id', scopes: ['customers:write'], handler: deleteCustomer },
  { method: 'GET', path: '/conversations/:id', scopes: ['conversations:read'], handler: getConversation },
  { method: 'POST', path: '/conversations/:id/assign', scopes: ['conversations:write'], handler: assignConversation },
  { method: 'POST', path: '/conversations/:id/resolve', scopes: ['conversations:write'], handler: resolveConversation },
  {
    method: 'GET',
    path: '/messages/:messageId/attachments/:index/download',
    scopes: ['attachments:read', 'conversations:read'],
    handler: downloadAttachment,
  },
  { method: 'GET', path: '/ai/assistant/sessions/:sessionId/turns/:turnId', scopes: [], handler: getTurn },
  { method: 'POST', path: '/ai/assistant/sessions/:sessionId/turns/:turnId/cancel', scopes: [], handler: cancelTurn },
  { method: 'GET', path: '/ai/conversations/:conversationId/assistant/sessions', scopes: [], handler: listSessions },
  { method: 'GET', path: '/authoring/collections/:id', scopes: ['help:read'], handler: getCollection },
  { method: 'PUT', path: '/authoring/collections/:id', scopes: ['help:drafts:write'], handler: updateCollection },
  { method: 'GET', path: '/authoring/articles', scopes: ['help:read'], handler: listArticles },
];

/** The routes of a dialect: the resolve operation sits at the dialect's path (4.8: "the exact path: not shown"). */
export function routesFor(dialect: Dialect): RouteDef[] {
  const resolve = dialect.resolvePath.replace('{conversationId}', ':id');
  return ROUTES.map((r) => (r.handler === resolveConversation ? { ...r, path: resolve } : r));
}
