/**
 * The API behind every limiter server: the routes the built-in load profiles use (src/spec/routes.ts),
 * answering spec-shaped JSON (parts 2, 4 and 7). Framework-free on purpose, so that express, fastify and
 * node:http servers differ only in how their limiter is wired, which is what these tests are about.
 * Written from the spec, not from src/reference: a second, independent implementation.
 */

/** The API key these servers accept, the workspace's first. */
export const API_KEY = 'pk_test_limiters_0123456789abcdef';

/**
 * More keys of the same workspace (a target file's `pool`): each limits on its own budget, since limiterKey
 * keys the limiter by the Authorization header, as an API keyed by workspace key does.
 */
export const POOL_KEYS = ['pk_test_limiters_pool0_0123456789', 'pk_test_limiters_pool1_0123456789', 'pk_test_limiters_pool2_0123456789'];

const ACCEPTED = new Set([API_KEY, ...POOL_KEYS].map((k) => `Bearer ${k}`));

/** Fixture ids every server knows, as a target file names them (fixtures.ids). */
export const FIXTURE_IDS = {
  conversationId: 'conv_lim1',
  customerId: 'cus_lim1',
  sessionsConversationId: 'conv_lim1',
  message: { messageId: 'msg_lim1', storedIndex: 0 },
  completedTurn: { sessionId: 'ses_lim1', turnId: 'turn_lim1' },
} as const;

export interface ApiRequest {
  method: string;
  /** Path without the query string, starting with /v1. */
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: unknown;
  requestId: string;
}

export interface ApiResponse {
  status: number;
  /** undefined for 204. */
  body?: unknown;
}

const STAMP = '2026-01-05T10:00:00Z';

/** The spec's error envelope (part 2), with the response's request id (part 7). */
export function errorBody(code: string, message: string, requestId: string): unknown {
  return { error: { code, message, requestId } };
}

function customer(i: number): Record<string, unknown> {
  return {
    id: `cus_lim${i}`,
    externalId: `ext-${i}`,
    name: `Customer ${i}`,
    email: `c${i}@example.test`,
    phone: '+15550100',
    company: 'Example',
    language: 'en',
    timezone: 'Europe/Paris',
    avatarUrl: 'https://example.test/a.png',
    claimedEmail: `c${i}@example.test`,
    emailStatus: 'verified',
    lastActiveChannel: 'email',
    firstContactAt: STAMP,
    lastSeenAt: STAMP,
    tags: [],
    metadata: {},
    createdAt: STAMP,
    updatedAt: STAMP,
    conversationCount: 1,
  };
}

function conversation(id: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    externalId: null,
    subject: 'Help',
    status: 'open',
    priority: 'normal',
    channel: 'email',
    customerId: 'cus_lim1',
    assignee: null,
    team: null,
    tags: [],
    externalObject: null,
    metadata: {},
    channelIdentityId: null,
    createdAt: STAMP,
    updatedAt: new Date().toISOString(),
    ...patch,
  };
}

function turn(sessionId: string, turnId: string): Record<string, unknown> {
  return {
    id: turnId,
    sessionId,
    conversationId: FIXTURE_IDS.conversationId,
    runId: 'run_lim1',
    status: 'completed',
    question: 'Why?',
    answer: { answer: 'Because.', warnings: [], citations: [], proposals: [], actionProposals: [] },
    createdAt: STAMP,
    updatedAt: STAMP,
    expiresAt: '2099-01-01T00:00:00Z',
  };
}

type Handler = (m: RegExpMatchArray, req: ApiRequest) => ApiResponse;

const CUSTOMERS = Array.from({ length: 30 }, (_, i) => customer(i + 1));

const ROUTES: Array<[string, RegExp, Handler]> = [
  [
    'GET',
    /^\/v1\/me$/,
    () => ({ status: 200, body: { data: { workspaceId: 'ws_lim', scopes: ['customers:read', 'conversations:read'] } } }),
  ],
  [
    'GET',
    /^\/v1\/statuses$/,
    () => ({
      status: 200,
      body: {
        data: [
          { key: 'open', type: 'active' },
          { key: 'pending', type: 'active' },
          { key: 'resolved', type: 'completed' },
          { key: 'closed', type: 'completed' },
        ],
      },
    }),
  ],
  ['GET', /^\/v1\/priorities$/, () => ({ status: 200, body: { data: ['low', 'normal', 'high', 'urgent'].map((key) => ({ key })) } })],
  [
    'GET',
    /^\/v1\/customers$/,
    (_m, req) => {
      const limit = Math.min(100, Math.max(1, Number(req.query.get('limit') ?? 25) || 25));
      return {
        status: 200,
        body: {
          data: CUSTOMERS.slice(0, limit),
          hasMore: limit < CUSTOMERS.length,
          nextCursor: limit < CUSTOMERS.length ? `c${limit}` : null,
        },
      };
    },
  ],
  ['GET', /^\/v1\/authoring\/articles$/, () => ({ status: 200, body: { data: [{ id: 'art_1', title: 'Welcome' }], nextCursor: null } })],
  [
    'GET',
    /^\/v1\/ai\/conversations\/([^/]+)\/assistant\/sessions$/,
    (m) => ({
      status: 200,
      body: {
        data: [
          {
            id: 'ses_lim1',
            conversationId: m[1],
            title: 'Chat',
            status: 'active',
            createdAt: STAMP,
            updatedAt: STAMP,
            lastActivityAt: STAMP,
            retentionExpiresAt: '2099-01-01T00:00:00Z',
            archivedAt: null,
          },
        ],
      },
    }),
  ],
  ['GET', /^\/v1\/ai\/assistant\/sessions\/([^/]+)\/turns\/([^/]+)$/, (m) => ({ status: 200, body: { data: turn(m[1]!, m[2]!) } })],
  [
    'GET',
    /^\/v1\/messages\/([^/]+)\/attachments\/(\d+)\/download$/,
    () => ({
      status: 200,
      body: {
        url: 'https://files.example.test/a?sig=x',
        expiresAt: new Date(Date.now() + 300_000).toISOString(),
        filename: 'a.txt',
        contentType: 'text/plain',
        sizeBytes: 12,
      },
    }),
  ],
  [
    'POST',
    /^\/v1\/conversations\/([^/]+)\/assign$/,
    (m, req) => {
      const b = (req.body ?? {}) as { team?: unknown; assignee?: unknown };
      if (b.team === undefined && b.assignee === undefined)
        return { status: 400, body: errorBody('request.invalid', 'assignee or team is required', req.requestId) };
      return { status: 200, body: conversation(m[1]!, { team: typeof b.team === 'string' && b.team !== '' ? b.team : null }) };
    },
  ],
  ['POST', /^\/v1\/conversations\/([^/]+)\/resolve$/, (m) => ({ status: 200, body: conversation(m[1]!, { status: 'resolved' }) })],
  ['DELETE', /^\/v1\/customers\/([^/]+)$/, () => ({ status: 204 })],
];

/** Answers one /v1 request: 401 without the key, the route's answer, or 404 route.not_found. */
export function handleApi(req: ApiRequest): ApiResponse {
  if (!ACCEPTED.has(req.authorization ?? ''))
    return { status: 401, body: errorBody('auth.invalid_key', 'bad or missing API key', req.requestId) };
  for (const [method, re, h] of ROUTES) {
    if (method !== req.method) continue;
    const m = req.path.match(re);
    if (m) return h(m, req);
  }
  return { status: 404, body: errorBody('route.not_found', `no route ${req.method} ${req.path}`, req.requestId) };
}

/** Request ids with the spec's `req_` prefix, one sequence per server. */
export function requestIds(prefix: string): () => string {
  let n = 0;
  return () => `req_${prefix}${(++n).toString(36)}`;
}

/** The limiter key of a request: its API key, as an API keyed by workspace key would limit. */
export function limiterKey(authorization: string | undefined): string {
  return authorization ?? 'anonymous';
}
