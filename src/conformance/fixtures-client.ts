/**
 * The FixturesApi over HTTP: the reference server's /_fixtures routes (docs/reference-server.md), or any
 * target that names a compatible fixtures URL. Fixture calls are test setup, so a failure throws (the
 * runner reports the check as 'error'); they are not API exchanges and are not checked.
 */
import type { Exchange } from '../client/exchange.js';
import type { HttpClient } from '../client/types.js';
import type { FixturesApi } from './fixtures.js';

/** A fixtures call that did not succeed. */
export class FixtureError extends Error {
  constructor(what: string, x: Exchange) {
    const answer = x.response
      ? `HTTP ${x.response.status}: ${x.response.body.slice(0, 200)}`
      : `${x.error?.kind ?? 'error'}: ${x.error?.message ?? ''}`;
    super(`fixtures API ${what} failed (${answer})`);
    this.name = 'FixtureError';
  }
}

/** Creates a FixturesApi that sends through the run's client to `baseUrl` (e.g. http://127.0.0.1:PORT/_fixtures). */
export function createFixturesClient(client: HttpClient, baseUrl: string): FixturesApi {
  const root = baseUrl.replace(/\/+$/, '');
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const x = await client.sendAbsolute(root + path, { method, role: null, ...(body !== undefined ? { json: body } : {}) });
    const status = x.response?.status ?? 0;
    if (status < 200 || status > 299) throw new FixtureError(`${method} ${path}`, x);
    if (status === 204) return undefined as T;
    return (x.response?.json as { data: T }).data;
  };
  return {
    createCustomers: (customers) => call('POST', '/customers', { customers }),
    createConversation: (input) => call('POST', '/conversations', input),
    async getConversation(id) {
      const x = await client.sendAbsolute(`${root}/conversations/${encodeURIComponent(id)}`, { method: 'GET', role: null });
      if (x.response?.status === 404) return undefined;
      if (x.response?.status !== 200) throw new FixtureError(`GET /conversations/${id}`, x);
      return x.response.json as Awaited<ReturnType<FixturesApi['getConversation']>>;
    },
    createMessage: (input) => call('POST', '/messages', input),
    deleteMessage: async (id) => {
      await call('POST', `/messages/${encodeURIComponent(id)}/delete`);
    },
    async expiredDownloadUrl(messageId, index) {
      const path = `/messages/${encodeURIComponent(messageId)}/expired-url`;
      const { exchange: x, url } = await client.sendForSignedUrl(
        { method: 'POST', path: '', role: null, json: { index } },
        'data.url',
        root + path,
      );
      // a fixtures API without the route offers none; any other failure is a failed fixture call
      if (x.response?.status === 404) return undefined;
      if (x.response?.status !== 200 || !url) throw new FixtureError(`POST ${path}`, x);
      return url;
    },
    createSession: (input) => call('POST', '/sessions', input),
    createTurn: (input) => call('POST', '/turns', input),
    completeTurn: async (_sessionId, turnId) => {
      await call('POST', `/turns/${encodeURIComponent(turnId)}/complete`);
    },
    createCollection: (input) => call('POST', '/collections', input ?? {}),
    createArticles: async (count) => {
      await call('POST', '/articles', { count });
    },
    resetRateLimits: async () => {
      await call('POST', '/ratelimit/reset');
    },
    async revokeKey(role) {
      const path = `/keys/${encodeURIComponent(role)}`;
      const x = await client.sendAbsolute(`${root}${path}/revoke`, { method: 'POST', role: null });
      // a fixtures API without the route offers none; any other failure is a failed fixture call
      if (x.response?.status === 404) return undefined;
      if ((x.response?.status ?? 0) < 200 || (x.response?.status ?? 0) > 299) throw new FixtureError(`POST ${path}/revoke`, x);
      return async () => {
        await call('POST', `${path}/restore`);
      };
    },
  };
}
