/** A scripted HttpClient and a minimal target for runner tests that need no server. */
import type { Exchange } from '../../../src/client/exchange.js';
import type { HttpClient, RequestSpec } from '../../../src/client/types.js';
import { defineSuite, type CheckDef, type SuiteDef } from '../../../src/conformance/suite.js';
import { targetFromInput } from '../../../src/target/resolve.js';

export const BASE = 'http://127.0.0.1:9/v1';
export const HEADERS = { 'x-request-id': 'req_1', 'ratelimit-limit': '10', 'ratelimit-remaining': '9', 'ratelimit-reset': '1' };

/** A client whose every answer comes from `answer` (n counts requests from 1); `sent` keeps the specs. */
export function fakeClient(
  answer: (spec: RequestSpec, n: number) => { status: number; headers?: Record<string, string>; json?: unknown },
): HttpClient & { sent: RequestSpec[] } {
  const sent: RequestSpec[] = [];
  let n = 0;
  const make = (spec: RequestSpec, url: string): Exchange => {
    n++;
    const a = answer(spec, n);
    const body = a.json === undefined ? '' : JSON.stringify(a.json);
    return {
      id: `x${n}`,
      request: { method: spec.method, url, headers: { authorization: 'Bearer <redacted:admin>' }, bodyBytes: 0, keyRole: 'admin' },
      response: {
        status: a.status,
        headers: { ...HEADERS, ...a.headers },
        body,
        bodyBytes: body.length,
        ...(a.json !== undefined ? { json: a.json } : {}),
      },
      timings: { start: Date.now(), total: 1 },
    };
  };
  const send = async (spec: RequestSpec): Promise<Exchange> => {
    sent.push(spec);
    const q = new URLSearchParams(
      Object.entries(spec.query ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
    ).toString();
    return make(spec, BASE + spec.path + (q ? `?${q}` : ''));
  };
  return {
    sent,
    send,
    sendAbsolute: async (url, spec) => make({ ...spec, path: '' }, url),
    // the scripted answers carry no signed URL a test could fetch
    sendForSignedUrl: async (spec) => ({ exchange: await send(spec) }),
    fetchSigned: async (url) => make({ method: 'GET', path: '' }, url.redactedForm),
    close: async () => {},
  };
}

/** A target of the fake base URL with an admin key; `extra` adds target-file fields. */
export const target = (extra: Record<string, unknown> = {}) =>
  targetFromInput({ baseUrl: BASE, keys: { admin: { key: 'pk_test_admin_key_0001' } }, ...extra } as never, 'test');

/** One suite named s holding `checks`. */
export const suite = (checks: CheckDef[]): SuiteDef[] => [defineSuite({ name: 's', description: 'test', checks })];
