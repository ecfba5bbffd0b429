import { shapeIssues } from '../../src/checks/shape.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ActionProposal,
  ActionReceipt,
  Answer,
  AttachmentDescriptor,
  ArticlesPage,
  ChatSession,
  ChatTurn,
  Collection,
  Conversation,
  Customer,
  CustomerPage,
  DateTime,
  ErrorEnvelope,
  SessionList,
  TurnEnvelope,
} from '../../src/spec/resources.js';
import * as arb from './arbitraries.js';

const RUNS = { numRuns: 60 };

interface Model {
  name: string;
  schema: z.ZodType;
  valid: fc.Arbitrary<Record<string, unknown>>;
  required: string[];
  /** Optional fields, type-checked when present. */
  typed?: string[];
  /**
   * Extra keys are rejected only when strict; part 2 closes no shape (it says "additional keys allowed" for
   * some objects and forbids extra fields nowhere), so no model is strict.
   */
  strict: boolean;
  dateFields: string[];
}

const MODELS: Model[] = [
  {
    name: 'Customer',
    schema: Customer,
    valid: arb.customer,
    required: ['id'],
    strict: false,
    dateFields: ['firstContactAt', 'lastSeenAt', 'createdAt', 'updatedAt'],
  },
  {
    name: 'Conversation',
    schema: Conversation,
    valid: arb.conversation,
    strict: false,
    dateFields: ['createdAt', 'updatedAt'],
    required: [
      'id',
      'externalId',
      'subject',
      'status',
      'priority',
      'channel',
      'customerId',
      'assignee',
      'team',
      'tags',
      'externalObject',
      'metadata',
      'channelIdentityId',
      'createdAt',
      'updatedAt',
    ],
  },
  {
    name: 'ChatTurn',
    schema: ChatTurn,
    valid: arb.chatTurn,
    strict: false,
    dateFields: ['createdAt', 'updatedAt', 'expiresAt'],
    required: ['id', 'sessionId', 'conversationId', 'runId', 'status', 'question', 'createdAt', 'updatedAt', 'expiresAt'],
  },
  {
    name: 'Answer',
    schema: Answer,
    valid: arb.answer,
    strict: false,
    dateFields: [],
    required: [],
    typed: ['answer', 'warnings', 'citations', 'proposals', 'actionProposals'],
  },
  {
    name: 'ActionProposal',
    schema: ActionProposal,
    valid: arb.actionProposal,
    strict: false,
    dateFields: [],
    required: [],
    typed: ['id', 'type', 'target', 'before', 'after', 'confirmationRequired'],
  },
  {
    name: 'ActionReceipt',
    schema: ActionReceipt,
    valid: arb.actionReceipt,
    strict: false,
    dateFields: ['confirmedAt'],
    required: ['id', 'proposalId', 'runId', 'effectId', 'type', 'target', 'before', 'after', 'confirmedAt'],
  },
  {
    name: 'ChatSession',
    schema: ChatSession,
    valid: arb.chatSession,
    strict: false,
    dateFields: ['createdAt', 'updatedAt', 'lastActivityAt', 'retentionExpiresAt'],
    required: ['id'],
    typed: ['conversationId', 'title', 'status', 'createdAt', 'updatedAt', 'lastActivityAt', 'retentionExpiresAt'],
  },
  {
    name: 'AttachmentDescriptor',
    schema: AttachmentDescriptor,
    valid: arb.descriptor,
    strict: false,
    dateFields: ['expiresAt'],
    required: ['url', 'expiresAt', 'filename', 'contentType', 'sizeBytes'],
  },
  {
    name: 'Collection',
    schema: Collection,
    valid: arb.collection,
    strict: false,
    dateFields: ['createdAt', 'updatedAt'],
    required: ['id'],
    typed: ['slug', 'name', 'description', 'position', 'articleCount', 'revision', 'createdAt', 'updatedAt', 'translations'],
  },
  { name: 'ErrorEnvelope', schema: ErrorEnvelope, valid: arb.errorEnvelope, strict: false, dateFields: [], required: ['error'] },
];

/** A value of a different JSON type than the one given (no field of part 2 accepts both). */
const wrongType = (v: unknown): unknown => (typeof v === 'number' ? String(v) : typeof v === 'boolean' ? 'true' : 42);

const BAD_DATES = ['2024-13-01T00:00:00Z', '2024-01-01', '2024-01-01T00:00:00', 'yesterday', '1700000000', '2024-02-30T25:00:00Z', ''];

describe.each(MODELS)('$name', (m) => {
  it('accepts every valid object', () => {
    fc.assert(
      fc.property(m.valid, (o) => {
        const r = m.schema.safeParse(o);
        expect(r.error?.issues ?? []).toEqual([]);
      }),
      RUNS,
    );
  });

  // Part 2 states required-ness only for turns, receipts, the conversation and the error envelope: the fields
  // of the answer, action proposals, sessions and collections (ids aside) may be omitted, and are typed when present.
  if (m.required.length > 0)
    it('rejects an object missing a required key', () => {
      fc.assert(
        fc.property(m.valid, fc.constantFrom(...m.required), (o, key) => {
          const { [key]: _dropped, ...rest } = o;
          expect(m.schema.safeParse(rest).success).toBe(false);
        }),
        RUNS,
      );
    });

  it('rejects a present key of the wrong type', () => {
    fc.assert(
      fc.property(m.valid, fc.constantFrom(...m.required, ...(m.typed ?? [])), (o, key) => {
        expect(m.schema.safeParse({ ...o, [key]: wrongType(o[key]) }).success).toBe(false);
      }),
      RUNS,
    );
  });

  it(m.strict ? 'rejects an unknown key' : 'accepts additional keys (spec: additional keys allowed)', () => {
    fc.assert(
      fc.property(m.valid, fc.stringMatching(/^x[A-Za-z]{1,10}$/), fc.jsonValue({ maxDepth: 1 }), (o, key, value) => {
        expect(m.schema.safeParse({ ...o, [key]: value }).success).toBe(!m.strict);
      }),
      RUNS,
    );
  });

  if (m.dateFields.length > 0) {
    it('rejects a malformed date-time in any timestamp field', () => {
      fc.assert(
        fc.property(m.valid, fc.constantFrom(...m.dateFields), fc.constantFrom(...BAD_DATES), (o, field, bad) => {
          expect(m.schema.safeParse({ ...o, [field]: bad }).success).toBe(false);
        }),
        RUNS,
      );
    });
  }
});

describe('specific rules of part 2', () => {
  it('status and priority keys follow ^[a-z0-9][a-z0-9_-]{0,62}$', () => {
    fc.assert(
      fc.property(arb.conversation, fc.constantFrom('Open', '-open', '', 'a'.repeat(64), 'open now', 'ouvert!'), (c, bad) => {
        expect(Conversation.safeParse({ ...c, status: bad }).success).toBe(false);
        expect(Conversation.safeParse({ ...c, priority: bad }).success).toBe(false);
      }),
      RUNS,
    );
  });

  it('routingNotes may be absent; the other optional values must be present as null', () => {
    fc.assert(
      fc.property(arb.conversation, (c) => {
        const { routingNotes: _r, ...without } = c;
        expect(Conversation.safeParse(without).success).toBe(true);
        expect(Conversation.safeParse({ ...c, team: null, assignee: null, externalObject: null }).success).toBe(true);
      }),
      RUNS,
    );
  });

  it('undo.status is one of available, changed, unavailable, undone', () => {
    fc.assert(
      fc.property(arb.actionReceipt, fc.constantFrom('pending', 'AVAILABLE', ''), (r, bad) => {
        expect(ActionReceipt.safeParse({ ...r, undo: { status: bad } }).success).toBe(false);
      }),
      RUNS,
    );
  });

  it('integers are integers: sizeBytes, position, revision', () => {
    fc.assert(
      fc.property(arb.descriptor, arb.collection, (d, c) => {
        expect(AttachmentDescriptor.safeParse({ ...d, sizeBytes: 1.5 }).success).toBe(false);
        expect(Collection.safeParse({ ...c, revision: 0.5 }).success).toBe(false);
      }),
      RUNS,
    );
  });

  // Regression: a root collection shown without parentId failed, though how the root shows is not shown (4.9).
  it('a root collection may show parentId as null, "" or not at all; a translation revision must be an integer', () => {
    fc.assert(
      fc.property(arb.collection, (c) => {
        const { parentId: _p, ...root } = c;
        for (const form of [{ ...root, parentId: null }, { ...root, parentId: '' }, root])
          expect(Collection.safeParse(form).success).toBe(true);
        const t = { locale: 'de', slug: 's', name: 'n', description: 'd', revision: 1 };
        expect(Collection.safeParse({ ...c, translations: [t] }).success).toBe(true);
        expect(Collection.safeParse({ ...c, translations: [{ ...t, revision: '1' }] }).success).toBe(false);
      }),
      RUNS,
    );
  });

  it('a broken action proposal inside an answer breaks the turn', () => {
    fc.assert(
      fc.property(arb.chatTurn, arb.actionProposal, (t, p) => {
        const answer = {
          answer: 'a',
          warnings: [],
          citations: [],
          proposals: [],
          actionProposals: [{ ...p, confirmationRequired: 'yes' }],
        };
        expect(ChatTurn.safeParse({ ...t, answer }).success).toBe(false);
      }),
      RUNS,
    );
  });

  it('envelopes: customer page, turn envelope, session list, articles page', () => {
    fc.assert(
      fc.property(
        fc.array(arb.customer, { maxLength: 3 }),
        fc.option(fc.string()),
        arb.chatTurn,
        fc.array(arb.chatSession, { maxLength: 2 }),
        (cs, next, turn, sessions) => {
          expect(CustomerPage.safeParse({ data: cs, hasMore: next !== null, nextCursor: next }).success).toBe(true);
          expect(CustomerPage.safeParse({ data: cs, nextCursor: next }).success).toBe(false);
          expect(TurnEnvelope.safeParse({ data: turn }).success).toBe(true);
          expect(SessionList.safeParse({ data: sessions }).success).toBe(true);
          expect(ArticlesPage.safeParse({ data: [], nextCursor: next }).success).toBe(true);
          expect(ArticlesPage.safeParse({ data: [], nextCursor: next, hasMore: false }).success).toBe(false);
        },
      ),
      RUNS,
    );
  });

  // Regression: schemas were closed (strictObject), so a deployment adding one field to a resource or
  // error.details to the error envelope failed every response of the run.
  it('extra keys are accepted everywhere, nested too (error.details, a new resource field, undo, translations)', () => {
    fc.assert(
      fc.property(arb.errorEnvelope, arb.conversation, arb.actionReceipt, arb.collection, arb.chatTurn, (e, c, r, col, turn) => {
        expect(ErrorEnvelope.safeParse({ error: { ...e.error, details: [{ field: 'status', issue: 'unknown' }] } }).success).toBe(true);
        expect(ErrorEnvelope.safeParse({ ...e, meta: { docs: 'https://example.com' } }).success).toBe(true);
        expect(Conversation.safeParse({ ...c, slaDueAt: '2024-01-01T00:00:00Z' }).success).toBe(true);
        expect(ActionReceipt.safeParse({ ...r, undo: { status: 'available', reason: 'x' } }).success).toBe(true);
        expect(Collection.safeParse({ ...col, translations: col.translations.map((t) => ({ ...t, url: '/x' })) }).success).toBe(true);
        expect(TurnEnvelope.safeParse({ data: turn, meta: {} }).success).toBe(true);
      }),
      RUNS,
    );
  });

  it('extra keys never loosen required fields or their types', () => {
    fc.assert(
      fc.property(arb.errorEnvelope, (e) => {
        expect(ErrorEnvelope.safeParse({ error: { code: e.error.code, message: e.error.message, details: {} } }).success).toBe(false);
        expect(ErrorEnvelope.safeParse({ error: { ...e.error, requestId: 7, details: {} } }).success).toBe(false);
      }),
      RUNS,
    );
  });

  // Regression: 2.datetime rejected valid RFC 3339 forms (lowercase t/z; also leap seconds).
  it('DateTime accepts every RFC 3339 form: Z or any offset, either case of T/Z, any fraction length, leap seconds', () => {
    for (const ok of [
      '2024-01-01T00:00:00+00:00',
      '2024-01-01T00:00:00-00:00',
      '2024-01-01t00:00:00z',
      '2024-01-01T00:00:00z',
      '2024-01-01t00:00:00Z',
      '2024-01-01T00:00:00.1Z',
      '2024-01-01T00:00:00.123456789Z',
      '2024-01-01T00:00:00.123456789012+14:00',
      '2016-12-31T23:59:60Z',
      '2024-02-29T12:00:00Z',
    ]) {
      expect(DateTime.safeParse(ok).success, ok).toBe(true);
    }
    for (const bad of [
      '2024-01-01T00:00:00+0000',
      '2024-01-01T00:00:00+24:00',
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-01T00:60:00Z',
      '2024-01-01T00:00:61Z',
      '2024-01-01T00:00:00.Z',
      '2024-01-01 00:00:00Z',
      ' 2024-01-01T00:00:00Z',
    ]) {
      expect(DateTime.safeParse(bad).success, bad).toBe(false);
    }
  });

  // ISO 8601 is the spec's word: its basic format and a time without an offset are conforming, and fall
  // short only of RFC 3339 (a warning); a space for the T or an impossible date break both.
  it('date-times that are ISO 8601 but not RFC 3339 raise only the RFC 3339 issue', () => {
    for (const iso of [
      '20261125T100000Z',
      '20261125T100000+0100',
      '2026-11-25T10:00',
      '2026-11-25T10:00:00',
      '2026-11-25T10:00:00,5+01:00',
      '2024-01-01T00:00:00+0000',
    ]) {
      const { errors, rfc3339 } = shapeIssues(DateTime, iso);
      expect([errors.length, rfc3339.length], iso).toEqual([0, 1]);
    }
    for (const bad of ['2026-11-25', '2026-11-25 10:00:00Z', '2023-02-29T00:00:00Z', '11/25/2026 10:00']) {
      expect(shapeIssues(DateTime, bad).errors.length, bad).toBe(1);
    }
  });

  it('DateTime accepts Z and offsets, fractional seconds, and nothing looser', () => {
    for (const ok of ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.123Z', '2024-06-30T23:59:59+02:00', '2024-06-30T23:59:59.5-05:30']) {
      expect(DateTime.safeParse(ok).success).toBe(true);
    }
    for (const bad of BAD_DATES) expect(DateTime.safeParse(bad).success).toBe(false);
  });
});
