/** GET /customers (4.4) and DELETE /customers/{id} (4.5). */
import type { App, Call } from '../app.js';
import type { CustomerRecord } from '../records.js';
import { customerJson, customerObject } from '../render.js';
import { empty, invalid, json, jsonText, notFound, type Reply } from '../reply.js';
import { withValidationStatus, pageLimit } from './input.js';

const DATA_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const NO_CUSTOMERS: readonly CustomerRecord[] = [];

interface KeysetPos {
  t: number;
  i: string;
}
interface OffsetPos {
  o: number;
}

/** Lists customers with filters and keyset pagination. */
export function listCustomers(app: App, call: Call): Reply {
  // Without faults the page depends on the raw query and the data only (the dialect is fixed for the
  // server's life, and the caller's key does not matter), so a page rendered at this store version is
  // served again as is. Faults can make the caller or the clock matter, so with any fault on nothing is cached.
  const cacheable = app.faults.none;
  const version = app.store.version;
  if (cacheable) {
    const page = app.store.customerPages.get(call.rawQuery, version);
    if (page !== undefined) return jsonText(200, page);
  }
  const reply = list(app, call);
  if (cacheable && reply.kind === 'json' && reply.status === 200 && Buffer.isBuffer(reply.body)) {
    app.store.customerPages.set(call.rawQuery, version, reply.body);
  }
  return withValidationStatus(app.dialect.statuses.queryValidation, reply);
}

function list(app: App, call: Call): Reply {
  const f = app.faults;
  const p = app.dialect.params;
  const q = call.query;
  const limit = pageLimit(q.get('limit'), f.has('limit-default-20') ? 20 : 25, f.has('limit-unbounded') ? 100_000 : 100);
  if (!limit.ok) return limit.reply;
  // external-id-ignored: the server reads another name than the one it documents
  const externalId = q.get(f.has('external-id-ignored') ? (p.externalId === 'external_id' ? 'externalId' : 'external_id') : p.externalId);
  const search = q.get(p.search);
  const idType = q.get(p.identityType);
  const idValue = q.get('identityIdentifier');
  if ((idType === null) !== (idValue === null) && !(idType === null && f.has('identity-single-param'))) {
    return invalid(`${p.identityType} and identityIdentifier must be given together`);
  }
  const matches = customerFilter(app, { externalId, search, idType, idValue });
  const binding = JSON.stringify([externalId, search, idType, idValue]);
  const cursor = f.has('cursor-raw-query') ? rawParam(call.rawQuery, 'cursor') : q.get('cursor');
  const offsets = f.has('cursor-offset');
  let start = 0;
  let skip = 0;
  if (cursor) {
    const checked = app.cursors.verify<KeysetPos & OffsetPos>(cursor, 'customers', binding, !f.has('cursor-unbound-filter'));
    if (checked.ok && offsets && typeof checked.payload.o === 'number') skip = checked.payload.o;
    else if (checked.ok && !offsets && typeof checked.payload.t === 'number' && typeof checked.payload.i === 'string') {
      start = app.store.firstAfter({ createdAt: checked.payload.t, id: checked.payload.i });
    } else if (!f.has('cursor-lenient'))
      return invalid('the cursor is malformed, tampered or was issued for another query', 'request.invalid_cursor');
  }
  const baseOffset = skip;
  const identity = idValue !== null;
  const want = identity ? 1 : limit.value;
  // legacy-test-isolated: the dataset is picked by key mode, and test mode has its own (empty) one
  const order =
    f.has('legacy-test-isolated') && call.conn.mode === 'test'
      ? NO_CUSTOMERS
      : // search-no-tenant-filter: the search index (text search, identity lookup) spans every workspace's customers
        (search || idValue !== null) && f.has('search-no-tenant-filter')
        ? [app.store.customerOrder, ...app.siblings.map((w) => w.store.customerOrder)].flat()
        : app.store.customerOrder;
  const page: CustomerRecord[] = [];
  let more = false;
  for (let i = start; i < order.length; i++) {
    const c = order[i]!;
    if (!matches(c)) continue;
    if (skip > 0) {
      skip--;
      continue;
    }
    if (page.length === want) {
      more = !identity;
      break;
    }
    page.push(c);
  }
  let next: string | null = null;
  if (more) {
    // cursor-overlap: an off-by-one marks the second-to-last item, so the next page repeats the last one
    const at = f.has('cursor-overlap') && page.length > 1 ? page.length - 2 : page.length - 1;
    const last = page[at]!;
    const pos = offsets ? { o: baseOffset + at + 1 } : { t: last.createdAt, i: last.id };
    next = f.has('cursor-raw-query') ? app.cursors.signStandard('customers', binding, pos) : app.cursors.sign('customers', binding, pos);
  }
  const hasMore = more || (f.has('has-more-stale') && page.length > 0);
  // assembled from cached bytes: building and encoding one big string per page costs more than the rest
  const parts: Buffer[] = [DATA_OPEN];
  for (let i = 0; i < page.length; i++) {
    if (i) parts.push(COMMA);
    parts.push(customerJson(page[i]!, f, app.dialect.extras));
  }
  parts.push(
    Buffer.from(
      '],"hasMore":' +
        hasMore +
        ',"nextCursor":' +
        (next === null ? (f.has('last-page-empty-cursor') ? '""' : 'null') : JSON.stringify(next)) +
        '}',
    ),
  );
  return jsonText(200, Buffer.concat(parts));
}

/** A query parameter as it appears in the raw query string, not percent-decoded (the cursor-raw-query bug). */
function rawParam(raw: string, name: string): string | null {
  for (const part of raw.split('&')) if (part.startsWith(name + '=')) return part.slice(name.length + 1);
  return null;
}

interface CustomerQuery {
  externalId: string | null;
  search: string | null;
  idType: string | null;
  idValue: string | null;
}

/** Builds the predicate of a customer query; faults that break search and soft delete live here. */
function customerFilter(app: App, q: CustomerQuery): (c: CustomerRecord) => boolean {
  const f = app.faults;
  const showDeleted = f.has('soft-delete-listed');
  const caseSensitive = f.has('search-case-sensitive');
  const withCompany = !f.has('search-skips-company');
  const needle = q.search === null || q.search === '' ? null : caseSensitive ? q.search : q.search.toLowerCase();
  return (c) => {
    // identity-lookup-finds-deleted: the identity index keeps a deleted customer's identities
    if (c.deletedAt !== null && !showDeleted && !(q.idValue !== null && f.has('identity-lookup-finds-deleted'))) return false;
    if (q.externalId !== null && c.externalId !== q.externalId) return false;
    if (needle !== null) {
      const hit = caseSensitive
        ? (c.name ?? '').includes(needle) || (c.email ?? '').includes(needle) || (withCompany && (c.company ?? '').includes(needle))
        : c.search.name.includes(needle) || c.search.email.includes(needle) || (withCompany && c.search.company.includes(needle));
      if (!hit) return false;
    }
    if (q.idValue !== null && !c.identities.some((i) => (q.idType === null || i.type === q.idType) && i.identifier === q.idValue))
      return false;
    return true;
  };
}

/** Soft-deletes a customer; deleting again is a no-op that answers the same success. */
export function deleteCustomer(app: App, call: Call): Reply {
  const id = call.params[0]!;
  // delete-cross-workspace: the id is looked up in every workspace, not only the caller's
  const c =
    app.store.customers.get(id) ??
    (app.faults.has('delete-cross-workspace')
      ? app.siblings.map((w) => w.store.customers.get(id)).find((x) => x !== undefined)
      : undefined);
  // dialect deleteUnknownSucceeds: delete is idempotent (4.5), so an unknown id is already "deleted"
  if (!c) return app.dialect.strict.deleteUnknownSucceeds ? empty(204) : notFound('no such customer');
  if (c.deletedAt !== null) {
    if (app.faults.has('delete-repeat-restores')) {
      // The bug: a repeat toggles the soft delete instead of being a no-op.
      c.deletedAt = null;
      c.updatedAt = app.clock();
      c.json = undefined;
    }
    return deleted(app, c);
  }
  if (app.faults.has('delete-hard')) {
    app.store.removeCustomer(c);
    return deleted(app, c);
  }
  if (app.faults.has('delete-cascades')) {
    // ON DELETE CASCADE: the customer and its conversation history are gone
    for (const [id, conv] of app.store.conversations) if (conv.customerId === c.id) app.store.conversations.delete(id);
    app.store.removeCustomer(c);
    return deleted(app, c);
  }
  c.deletedAt = app.clock();
  c.updatedAt = c.deletedAt;
  c.json = undefined;
  return deleted(app, c);
}

/** The answer to a successful delete: the dialect's choice (204 empty, or 200 with the customer); the fault flips it. */
function deleted(app: App, c: CustomerRecord): Reply {
  const withBody = (app.dialect.customerDeleteStatus === 200) !== app.faults.has('delete-200-body');
  return withBody ? json(200, { data: customerObject(c, app.faults, app.dialect.extras) }) : empty(204);
}
