/** The body-limit sweep's route table (suites/model/body-routes.ts): exact body sizes, classes, harmless writes. */
import { describe, expect, it } from 'vitest';
import { paddedJson, readRoutes, UNDEFINED_STATUS, writeRoutes } from '../../suites/model/body-routes.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';

const turn = { sessionId: 'sess_1', turnId: 'turn_1' };
const target = targetFromInput(
  {
    baseUrl: 'http://127.0.0.1:1/v1',
    keys: { admin: { key: 'pk_x' } },
    assumptions: { resolvePath: '/conversations/{conversationId}/actions/resolve' },
  } as unknown as TargetFileInput,
  'embedded',
);
const reads = readRoutes({ completedTurn: turn, sessionsConversation: 'conv_s', storedAttachment: { messageId: 'msg_1', index: 0 } });
let keys = 0;
const writes = writeRoutes(
  target,
  { completedTurn: turn, conversationId: 'conv_1', customer: 'cus_1', collection: 'col_1' },
  () => `spgate-key-${++keys}`,
);

describe('paddedJson', () => {
  it.each([60, 1000, 1025, 64_000, 65_537])('is valid JSON of exactly %i bytes that keeps the base fields', (bytes) => {
    const raw = paddedJson({ status: UNDEFINED_STATUS }, bytes);
    expect(Buffer.byteLength(raw)).toBe(bytes);
    expect(JSON.parse(raw).status).toBe(UNDEFINED_STATUS);
  });

  it('never cuts the base: a size below it gives the base with an empty pad', () => {
    expect(JSON.parse(paddedJson({ name: 'a long name' }, 3))).toEqual({ name: 'a long name', pad: '' });
  });
});

describe('route table', () => {
  it('covers the eight read routes of the spec, all in the read class', () => {
    expect(reads.map((r) => r.label)).toEqual([
      'GET /customers',
      'GET /me',
      'GET /statuses',
      'GET /priorities',
      'GET a chat turn',
      'GET the chat list',
      'GET an attachment download',
      'GET /authoring/articles',
    ]);
    expect(new Set(reads.map((r) => r.cls))).toEqual(new Set(['read']));
  });

  it('covers assign, resolve (on the assumed path), cancel, customer delete and collection update, all in the write class', () => {
    expect(writes.map((r) => `${r.request(10).method} ${r.request(10).path}`)).toEqual([
      'POST /conversations/conv_1/assign',
      'POST /conversations/conv_1/actions/resolve',
      'POST /ai/assistant/sessions/sess_1/turns/turn_1/cancel',
      'DELETE /customers/cus_1',
      'PUT /authoring/collections/col_1',
    ]);
    expect(new Set(writes.map((r) => r.cls))).toEqual(new Set(['write']));
  });

  it('builds writes that would change nothing if processed: no assignee/team, an undefined status, no expectedRevision', () => {
    const body = (i: number) => JSON.parse(writes[i]!.request(100).rawBody as string) as Record<string, unknown>;
    expect(Object.keys(body(0))).toEqual(['pad']);
    expect(body(1).status).toBe(UNDEFINED_STATUS);
    expect(body(4)).not.toHaveProperty('expectedRevision');
  });

  it('gives each collection update its own valid Idempotency-Key and the helpDelegated key', () => {
    const [a, b] = [writes[4]!.request(10), writes[4]!.request(10)];
    expect(a.role).toBe('helpDelegated');
    expect(a.headers?.['Idempotency-Key']).toMatch(/^[!-~]{8,128}$/);
    expect(a.headers?.['Idempotency-Key']).not.toBe(b.headers?.['Idempotency-Key']);
    expect(writes[0]!.request(10).headers).not.toHaveProperty('Idempotency-Key');
  });
});
