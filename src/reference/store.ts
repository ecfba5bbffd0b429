/**
 * The workspace's data: one in-memory store per server. Customers are also kept in (createdAt, id) order so
 * keyset pages are a binary search plus a short scan.
 */
import type { Prng } from './prng.js';
import { PageCache } from './page-cache.js';
import type {
  ArticleRecord,
  AttachmentKind,
  CollectionRecord,
  ConversationRecord,
  CustomerRecord,
  MessageRecord,
  PriorityDef,
  SessionRecord,
  StatusDef,
  TurnRecord,
} from './records.js';

export const STATUSES: readonly StatusDef[] = [
  { key: 'open', name: 'Open', type: 'active' },
  { key: 'pending', name: 'Pending', type: 'active' },
  { key: 'waiting_on_customer', name: 'Waiting on customer', type: 'active' },
  { key: 'resolved', name: 'Resolved', type: 'completed' },
  { key: 'closed', name: 'Closed', type: 'completed' },
  { key: 'spam', name: 'Spam', type: 'completed' },
];
export const DEFAULT_COMPLETED_STATUS = 'resolved';

/** Locales a new collection is translated into (besides its default locale, en). */
export const DEFAULT_TRANSLATION_LOCALES: readonly string[] = ['de', 'fr'];

export const PRIORITIES: readonly PriorityDef[] = [
  { key: 'low', name: 'Low' },
  { key: 'normal', name: 'Normal' },
  { key: 'high', name: 'High' },
  { key: 'urgent', name: 'Urgent' },
];

export interface CustomerInput {
  /** null: none (a phone-only customer); absent: a made-up one. */
  name?: string | null;
  /** null: none (a phone-only customer); absent: one made from the id. */
  email?: string | null;
  company?: string;
  externalId?: string;
  phone?: string;
  identities?: Array<{ type: string; identifier: string }>;
  createdAt?: number;
}

/** Compares two customers in list order: createdAt, then id. */
export function customerOrder(a: { createdAt: number; id: string }, b: { createdAt: number; id: string }): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export class Store {
  readonly customers = new Map<string, CustomerRecord>();
  /** Every customer, deleted ones included, in list order. */
  readonly customerOrder: CustomerRecord[] = [];
  readonly conversations = new Map<string, ConversationRecord>();
  readonly messages = new Map<string, MessageRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly turns = new Map<string, TurnRecord>();
  readonly collections = new Map<string, CollectionRecord>();
  readonly articles: ArticleRecord[] = [];
  readonly statuses = new Map(STATUSES.map((s) => [s.key, s]));
  readonly priorities = new Map(PRIORITIES.map((p) => [p.key, p]));
  private lastCreated = 0;
  private changes = 0;
  /** Rendered customer list pages (handlers/customers.ts), valid for one `version`. */
  readonly customerPages = new PageCache();

  constructor(
    private readonly rng: Prng,
    private readonly clock: () => number,
  ) {}

  /**
   * Counts changes to the data: bumped by every mutator here and, through `touch`, after every write request
   * and fixtures call, so a cached rendering made at another version is never served.
   */
  get version(): number {
    return this.changes;
  }

  /** Records that the data may have changed (records are also mutated in place by handlers). */
  touch(): void {
    this.changes++;
  }

  /** A fresh id with the given prefix. */
  newId(prefix: string): string {
    return this.rng.id(prefix);
  }

  /** A creation time that strictly increases, so list order (createdAt, id) is also creation order. */
  private createdNow(): number {
    this.lastCreated = Math.max(this.clock(), this.lastCreated + 1);
    return this.lastCreated;
  }

  /** Adds a customer and keeps the list order. */
  addCustomer(input: CustomerInput): CustomerRecord {
    const rec = this.newCustomer(input);
    this.customers.set(rec.id, rec);
    const at = this.insertionIndex(rec);
    this.customerOrder.splice(at, 0, rec);
    this.touch();
    return rec;
  }

  /**
   * Adds many customers with one sort instead of one splice each: a big workspace's customers are spread
   * over years, so inserting them one by one would move the whole list for each.
   */
  addCustomers(inputs: readonly CustomerInput[]): void {
    for (const input of inputs) {
      const rec = this.newCustomer(input);
      this.customers.set(rec.id, rec);
      this.customerOrder.push(rec);
    }
    this.customerOrder.sort(customerOrder);
    this.touch();
  }

  private newCustomer(input: CustomerInput): CustomerRecord {
    const id = this.newId('cus_');
    const createdAt = input.createdAt ?? this.createdNow();
    const name = input.name === null ? null : (input.name ?? `Customer ${id.slice(4, 10)}`);
    const email = input.email === null ? null : (input.email ?? `${id.slice(4, 14).toLowerCase()}@example.com`);
    const company = input.company ?? null;
    const identities = (input.identities ?? (email === null ? [] : [{ type: 'email', identifier: email }])).map((i) => ({
      id: this.newId('cid_'),
      type: i.type,
      identifier: i.identifier,
    }));
    return {
      id,
      externalId: input.externalId ?? null,
      name,
      email,
      phone: input.phone ?? null,
      company,
      language: 'en',
      timezone: 'Europe/Berlin',
      avatarUrl: null,
      claimedEmail: null,
      emailStatus: email === null ? null : 'verified',
      lastActiveChannel: email === null ? 'phone' : 'email',
      firstContactAt: createdAt,
      lastSeenAt: createdAt,
      tags: [],
      metadata: {},
      createdAt,
      updatedAt: createdAt,
      identities,
      search: { name: (name ?? '').toLowerCase(), email: (email ?? '').toLowerCase(), company: (company ?? '').toLowerCase() },
      deletedAt: null,
      conversationCount: 0,
    };
  }

  /** Index of the first customer strictly after the given position in list order. */
  firstAfter(pos: { createdAt: number; id: string }): number {
    return this.insertionIndex(pos);
  }

  private insertionIndex(pos: { createdAt: number; id: string }): number {
    let lo = 0;
    let hi = this.customerOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (customerOrder(this.customerOrder[mid]!, pos) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Removes a customer entirely (only the delete-hard fault does this). */
  removeCustomer(c: CustomerRecord): void {
    this.customers.delete(c.id);
    const i = this.customerOrder.indexOf(c);
    if (i >= 0) this.customerOrder.splice(i, 1);
    this.touch();
  }

  /** Adds a conversation; the customer is created when none is given. */
  addConversation(input: {
    customerId?: string;
    status?: string;
    priority?: string;
    team?: string | null;
    assignee?: Record<string, unknown> | null;
    subject?: string;
    channel?: string;
  }): ConversationRecord {
    const customer = input.customerId ? this.customers.get(input.customerId) : this.addCustomer({});
    if (!customer) throw new RangeError(`unknown customer ${input.customerId}`);
    const now = this.createdNow();
    const rec: ConversationRecord = {
      id: this.newId('conv_'),
      externalId: null,
      subject: input.subject ?? 'Question about my order',
      status: input.status ?? 'open',
      priority: input.priority ?? 'normal',
      channel: input.channel ?? 'email',
      customerId: customer.id,
      assignee: input.assignee ?? null,
      team: input.team ?? null,
      tags: [],
      externalObject: null,
      metadata: {},
      channelIdentityId: customer.identities[0]?.id ?? null,
      createdAt: now,
      updatedAt: now,
      routingNotes: null,
      mutations: 0,
    };
    this.conversations.set(rec.id, rec);
    customer.conversationCount++;
    customer.json = undefined;
    this.touch();
    return rec;
  }

  /** Adds a message with attachments of the given kinds. */
  addMessage(conversationId: string, kinds: AttachmentKind[]): MessageRecord {
    const rec: MessageRecord = {
      id: this.newId('msg_'),
      conversationId,
      deletedAt: null,
      attachments: kinds.map((kind, i) => ({
        kind,
        fileId: this.newId('file_'),
        filename: `attachment-${i + 1}.${kind === 'stored' ? 'pdf' : 'png'}`,
        contentType: kind === 'stored' ? 'application/pdf' : 'image/png',
        sizeBytes: 1024 * (i + 3) + 17,
      })),
    };
    this.messages.set(rec.id, rec);
    return rec;
  }

  /** Adds a chat session owned by a connection. */
  addSession(input: {
    conversationId: string;
    ownerId: string;
    archived?: boolean;
    expired?: boolean;
    lastActivityAt?: number;
  }): SessionRecord {
    const now = this.clock();
    const last = input.lastActivityAt ?? this.createdNow();
    const rec: SessionRecord = {
      id: this.newId('sess_'),
      conversationId: input.conversationId,
      ownerId: input.ownerId,
      title: 'Help with this conversation',
      status: 'active',
      createdAt: Math.min(now, last),
      updatedAt: last,
      lastActivityAt: last,
      retentionExpiresAt: input.expired ? now - 86_400_000 : now + 30 * 86_400_000,
      archivedAt: input.archived ? last : null,
    };
    this.sessions.set(rec.id, rec);
    return rec;
  }

  /** Adds a turn to a session, pending or already completed. */
  addTurn(session: SessionRecord, state: 'pending' | 'completed'): TurnRecord {
    const now = this.createdNow();
    const rec: TurnRecord = {
      id: this.newId('turn_'),
      sessionId: session.id,
      conversationId: session.conversationId,
      runId: this.newId('run_'),
      status: 'pending',
      question: 'What should I reply to this customer?',
      approvalMode: 'manual',
      createdAt: now,
      updatedAt: now,
      expiresAt: now + 7 * 86_400_000,
    };
    this.turns.set(rec.id, rec);
    if (state === 'completed') this.completeTurn(rec);
    session.lastActivityAt = Math.max(session.lastActivityAt, now);
    return rec;
  }

  /** Completes a pending turn: fills its answer, one action proposal and its confirmation receipt. */
  completeTurn(turn: TurnRecord): void {
    const now = this.clock();
    const proposalId = this.newId('prop_');
    const target = { type: 'conversation', id: turn.conversationId };
    turn.status = 'completed';
    turn.updatedAt = now;
    turn.answer = {
      answer: 'The order shipped yesterday; share the tracking link with the customer.',
      warnings: [],
      citations: [{ type: 'article', id: 'art_citation', title: 'Shipping times' }],
      proposals: [{ type: 'reply_draft', text: 'Hi! Your order shipped yesterday.' }],
      actionProposals: [
        {
          id: proposalId,
          type: 'conversation.update_priority',
          target,
          before: { priority: 'normal' },
          after: { priority: 'high' },
          confirmationRequired: true,
        },
      ],
    };
    turn.actionConfirmations = [
      {
        id: this.newId('rcpt_'),
        proposalId,
        runId: turn.runId,
        effectId: this.newId('eff_'),
        type: 'conversation.update_priority',
        target,
        before: { priority: 'normal' },
        after: { priority: 'high' },
        confirmedAt: new Date(now).toISOString(),
        undo: { status: 'available' },
      },
    ];
  }

  /**
   * Adds a Help Center collection at the root. Unless told otherwise it carries German and French
   * translations, so every collection answer shows translation items (spec 2) for the shape checks to see.
   */
  addCollection(input: { name?: string; slug?: string; description?: string; translationLocales?: readonly string[] }): CollectionRecord {
    const now = this.createdNow();
    const id = this.newId('col_');
    const name = input.name ?? 'Getting started';
    const slug = input.slug ?? `getting-started-${id.slice(4, 10).toLowerCase()}`;
    const description = input.description ?? 'First steps with the product';
    const translations = (input.translationLocales ?? DEFAULT_TRANSLATION_LOCALES).map((locale) => ({
      locale,
      slug: `${slug}-${locale}`.slice(0, 100),
      name: `${name} (${locale})`,
      description,
      revision: 1,
    }));
    const rec: CollectionRecord = {
      id,
      parentId: null,
      name,
      slug,
      description,
      position: this.collections.size,
      revision: 1,
      defaultLocale: 'en',
      createdAt: now,
      updatedAt: now,
      translations,
    };
    this.collections.set(id, rec);
    return rec;
  }

  /** Adds published articles, spread over the existing collections. */
  addArticles(count: number): ArticleRecord[] {
    const cols = [...this.collections.keys()];
    const out: ArticleRecord[] = [];
    for (let i = 0; i < count; i++) {
      const now = this.createdNow();
      const id = this.newId('art_');
      const n = this.articles.length + 1;
      const rec: ArticleRecord = {
        id,
        collectionId: cols.length ? cols[n % cols.length]! : null,
        title: `Article ${n}`,
        slug: `article-${n}`,
        locale: 'en',
        state: n % 5 === 0 ? 'draft' : 'published',
        createdAt: now,
        updatedAt: now,
      };
      this.articles.push(rec);
      out.push(rec);
    }
    return out;
  }
}
