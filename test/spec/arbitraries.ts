/**
 * fast-check arbitraries of valid API resources (spec part 2), shared by the model tests. Each produces
 * objects the spec allows, including the optional and nullable corners.
 */
import fc from 'fast-check';

/**
 * RFC 3339 date-times in every form the standard allows: Z or z, numeric offsets (+00:00, -00:00, ...),
 * T or t, and fractional seconds of any length.
 */
export const dateTime: fc.Arbitrary<string> = fc
  .tuple(
    fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
    fc.constantFrom('Z', 'z', '+00:00', '-00:00', '+02:00', '-05:30', '+14:00'),
    fc.constantFrom('T', 't'),
    fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
  )
  .map(([d, zone, sep, fraction]) => {
    const iso = d.toISOString();
    return `${iso.slice(0, 10)}${sep}${iso.slice(11, 19)}${fraction !== undefined ? `.${fraction}` : ''}${zone}`;
  });

export const statusKey = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,62}$/);
const str = fc.string({ maxLength: 20 });
const id = (prefix: string): fc.Arbitrary<string> => fc.stringMatching(/^[a-z0-9]{4,12}$/).map((s) => prefix + s);
const freeObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });

export const customer = fc.record(
  {
    id: id('cus_'),
    externalId: fc.option(str),
    name: str,
    email: str,
    phone: str,
    company: str,
    language: str,
    timezone: fc.constantFrom('Europe/Paris', 'UTC', 'America/New_York'),
    avatarUrl: fc.webUrl(),
    claimedEmail: str,
    emailStatus: str,
    lastActiveChannel: str,
    firstContactAt: dateTime,
    lastSeenAt: dateTime,
    tags: fc.array(str, { maxLength: 3 }),
    metadata: freeObject,
    createdAt: dateTime,
    updatedAt: dateTime,
    conversationCount: fc.nat(),
  },
  { requiredKeys: ['id'] },
);

export const conversation = fc.record(
  {
    id: id('conv_'),
    externalId: fc.option(str),
    subject: str,
    status: statusKey,
    priority: statusKey,
    channel: str,
    customerId: id('cus_'),
    assignee: fc.option(freeObject),
    team: fc.option(str),
    tags: fc.array(str, { maxLength: 3 }),
    externalObject: fc.option(freeObject),
    metadata: freeObject,
    channelIdentityId: fc.option(id('cid_')),
    createdAt: dateTime,
    updatedAt: dateTime,
    routingNotes: fc.option(freeObject),
  },
  {
    requiredKeys: [
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
);

export const actionProposal = fc.record({
  id: str,
  type: str,
  target: freeObject,
  before: freeObject,
  after: freeObject,
  confirmationRequired: fc.boolean(),
});

export const answer = fc.record({
  answer: str,
  warnings: fc.array(str, { maxLength: 2 }),
  citations: fc.array(freeObject, { maxLength: 2 }),
  proposals: fc.array(freeObject, { maxLength: 2 }),
  actionProposals: fc.array(actionProposal, { maxLength: 2 }),
});

export const actionReceipt = fc.record(
  {
    id: str,
    proposalId: str,
    runId: str,
    effectId: str,
    type: str,
    target: freeObject,
    before: freeObject,
    after: freeObject,
    confirmedAt: dateTime,
    undo: fc.record(
      { status: fc.constantFrom('available', 'changed', 'unavailable', 'undone'), undoneAt: dateTime },
      { requiredKeys: ['status'] },
    ),
  },
  { requiredKeys: ['id', 'proposalId', 'runId', 'effectId', 'type', 'target', 'before', 'after', 'confirmedAt'] },
);

export const chatTurn = fc.record(
  {
    id: str,
    sessionId: str,
    conversationId: str,
    runId: str,
    status: fc.constantFrom('pending', 'completed', 'cancelled'),
    question: str,
    approvalMode: str,
    retryOfTurnId: str,
    answer,
    actionConfirmations: fc.array(actionReceipt, { maxLength: 2 }),
    createdAt: dateTime,
    updatedAt: dateTime,
    expiresAt: dateTime,
  },
  { requiredKeys: ['id', 'sessionId', 'conversationId', 'runId', 'status', 'question', 'createdAt', 'updatedAt', 'expiresAt'] },
);

export const chatSession = fc.record(
  {
    id: str,
    conversationId: str,
    title: str,
    status: fc.constantFrom('active', 'archived'),
    createdAt: dateTime,
    updatedAt: dateTime,
    lastActivityAt: dateTime,
    retentionExpiresAt: dateTime,
    archivedAt: fc.option(dateTime),
  },
  { requiredKeys: ['id', 'conversationId', 'title', 'status', 'createdAt', 'updatedAt', 'lastActivityAt', 'retentionExpiresAt'] },
);

export const descriptor = fc.record({
  url: fc.webUrl({ withQueryParameters: true }),
  expiresAt: dateTime,
  filename: str,
  contentType: fc.constantFrom('image/png', 'application/pdf'),
  sizeBytes: fc.nat(),
});

export const collection = fc.record({
  id: str,
  parentId: fc.option(str),
  slug: str,
  name: str,
  description: str,
  position: fc.integer(),
  articleCount: fc.nat(),
  revision: fc.nat(),
  createdAt: dateTime,
  updatedAt: dateTime,
  translations: fc.array(fc.record({ locale: str, slug: str, name: str, description: str, revision: fc.nat() }), { maxLength: 2 }),
});

export const errorEnvelope = fc.record({
  error: fc.record({ code: fc.constantFrom('route.not_found', 'rate_limit.exceeded'), message: str, requestId: id('req_') }),
});
