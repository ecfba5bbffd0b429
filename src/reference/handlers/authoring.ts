/**
 * Help Center authoring: GET/PUT /authoring/collections/{id} (4.9) and GET /authoring/articles (4.10).
 * Updates need a delegated owner/admin connection, JSON, a valid Idempotency-Key and the current revision.
 */
import type { App, Call } from '../app.js';
import { isOwnerOrAdmin } from '../connections.js';
import { canonicalJson } from '../idempotency.js';
import type { CollectionRecord } from '../records.js';
import { articleObject, collectionObject } from '../render.js';
import { fail, invalid, json, jsonText, notFound, type Reply } from '../reply.js';
import { header, idempotencyKey, jsonObject, pageLimit, withValidationStatus } from './input.js';

const KEY_PATTERN = /^[!-~]{8,128}$/;
const LENIENT_KEY_PATTERN = /^[^]{8,}$/;
const STRICT_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function render(app: App, c: CollectionRecord): Record<string, unknown> {
  let count = 0;
  for (const a of app.store.articles) if (a.collectionId === c.id) count++;
  const out = collectionObject(c, count, app.dialect.extras, app.dialect.strict.omitEmpty);
  if (app.faults.has('collection-translations-object') && Array.isArray(out.translations)) {
    out.translations = Object.fromEntries((out.translations as Array<Record<string, unknown>>).map((t) => [String(t.locale), t]));
  }
  if (app.faults.has('collection-translation-revision-string') && Array.isArray(out.translations)) {
    out.translations = (out.translations as Array<Record<string, unknown>>).map((t) => ({ ...t, revision: String(t.revision) }));
  }
  return out;
}

/** GET /authoring/collections/{id}: lets a client read the revision before updating (reference addition). */
export function getCollection(app: App, call: Call): Reply {
  const c = app.store.collections.get(call.params[0]!);
  return c ? json(200, render(app, c)) : notFound('no such collection');
}

/** PUT /authoring/collections/{id}: replaces the editable fields of the collection or of one translation. */
export function updateCollection(app: App, call: Call): Promise<Reply> | Reply {
  const f = app.faults;
  // collection-membership-unchecked: delegation is checked, the holder's current owner/admin membership is not
  if (
    (!isOwnerOrAdmin(call.conn) && !f.has('collection-membership-unchecked')) ||
    (!call.conn.delegated && !f.has('collection-undelegated'))
  ) {
    return fail(403, 'help.delegation_required', 'Help Center authoring needs an explicitly delegated owner/admin connection');
  }
  const type = header(call.headers, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    return fail(415, 'request.unsupported_media_type', 'Content-Type must be application/json');
  const key = idempotencyKey(
    call.headers,
    f.has('collection-key-pattern-lenient') ? LENIENT_KEY_PATTERN : KEY_PATTERN,
    true,
    '8 to 128 printable ASCII characters (^[!-~]{8,128}$)',
  );
  if (!key.ok) return key.reply;
  const bodyStatus = app.dialect.statuses.bodyValidation;
  const body = jsonObject(call.body);
  if (!body.ok) return withValidationStatus(bodyStatus, body.reply);
  const id = call.params[0]!;
  return app.idem.run(
    { connectionId: call.conn.id, resource: `collection:${id}`, key: key.value!, fingerprint: canonicalJson(body.value) },
    () => withValidationStatus(bodyStatus, applyUpdate(app, id, body.value)),
    app.dialect.strict.replayCurrent ? () => getCollection(app, call) : undefined,
  );
}

function applyUpdate(app: App, id: string, b: Record<string, unknown>): Reply {
  const c = app.store.collections.get(id);
  if (!c) return notFound('no such collection');
  const problem = validate(app, c, b);
  if (problem) return invalid(problem);
  const f = app.faults;
  if (b.expectedRevision !== c.revision && !f.has('collection-stale-accepted')) {
    return fail(
      app.dialect.statuses.staleRevision,
      'help.stale_revision',
      `expectedRevision ${String(b.expectedRevision)} is stale; the collection is at revision ${c.revision}`,
    );
  }
  // strict-inputs' trimNames: names and descriptions are stored without surrounding whitespace
  const trim = (v: string): string => (app.dialect.strict.trimNames ? v.trim() : v);
  const name = trim(b.name as string);
  const slug = b.slug as string;
  const description =
    typeof b.description === 'string' ? trim(app.dialect.strict.sanitiseDescriptions ? sanitise(b.description) : b.description) : undefined;
  const locale = (b.locale as string | undefined) ?? c.defaultLocale;
  // strict.uniqueSlugs: a default-locale slug another collection of the workspace holds is taken (409)
  const taken = app.dialect.strict.uniqueSlugs && locale === c.defaultLocale;
  const holder = taken ? [...app.store.collections.values()].find((o) => o !== c && o.slug === slug) : undefined;
  if (holder) return fail(409, 'help.slug_taken', `slug ${slug} is taken by collection ${holder.id}`);
  if (locale === c.defaultLocale) {
    c.name = name;
    c.slug = slug;
    if (description !== undefined && !f.has('collection-description-ignored')) c.description = description;
  } else {
    const t = c.translations.find((x) => x.locale === locale);
    if (t) {
      t.name = name;
      t.slug = slug;
      if (description !== undefined) t.description = description;
      t.revision++;
    } else c.translations.push({ locale, name, slug, description: description ?? '', revision: 1 });
  }
  // 4.9: omitted or null keeps the parent, "" moves to the root; two faults get one half each wrong
  if (b.parentId === null && f.has('collection-parent-null-clears')) c.parentId = null;
  else if (typeof b.parentId === 'string' && !(b.parentId === '' && f.has('collection-parent-empty-ignored')))
    c.parentId = b.parentId === '' ? null : b.parentId;
  if (b.position !== undefined) c.position = b.position as number;
  if (b.position !== undefined && app.dialect.strict.renumberPositions) renumber(app, c);
  if (!f.has('collection-revision-static')) c.revision++;
  c.updatedAt = app.clock();
  return json(200, render(app, c));
}

/** strict-inputs' sanitiseDescriptions: tags stripped, whitespace runs collapsed to one space, trimmed. */
function sanitise(v: string): string {
  return v
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * strict-inputs' renumberPositions: the collection's siblings (same parent) numbered 0..n-1 in their order,
 * the updated one placed before every sibling whose position is not below the one it was sent.
 */
function renumber(app: App, c: CollectionRecord): void {
  const others = [...app.store.collections.values()]
    .filter((o) => o !== c && o.parentId === c.parentId)
    .sort((a, b) => a.position - b.position);
  const at = others.filter((o) => o.position < c.position).length;
  others.splice(at, 0, c);
  others.forEach((o, i) => {
    o.position = i;
  });
}

/** Returns the first problem with an update body, or undefined. name, slug and expectedRevision are required. */
function validate(app: App, c: CollectionRecord, b: Record<string, unknown>): string | undefined {
  if (!Number.isSafeInteger(b.expectedRevision)) return 'expectedRevision is required and must be an integer';
  if (typeof b.name !== 'string' || b.name.trim() === '' || b.name.length > 255)
    return 'name is required: a non-empty string of at most 255 characters';
  if (typeof b.slug !== 'string' || !/^[a-z0-9][a-z0-9-]{0,99}$/.test(b.slug))
    return 'slug is required: lowercase letters, digits and dashes, at most 100';
  // strict-inputs: dashes only between letters and digits, one at a time ("0-" and "a--b" are refused)
  if (app.dialect.strict.slugs && !STRICT_SLUG.test(b.slug))
    return 'slug must be lowercase letters and digits in runs joined by single dashes';
  if (b.locale !== undefined && (typeof b.locale !== 'string' || !/^[a-z]{2}(-[A-Za-z0-9]{2,8})?$/.test(b.locale)))
    return 'locale must be a language tag such as "de" or "pt-BR"';
  if (b.description !== undefined && (typeof b.description !== 'string' || b.description.length > 10_000))
    return 'description must be a string of at most 10000 characters';
  if (b.position !== undefined && (!Number.isSafeInteger(b.position) || (b.position as number) < 0))
    return 'position must be a non-negative integer';
  if (b.parentId !== undefined && b.parentId !== null) {
    if (typeof b.parentId !== 'string') return 'parentId must be a string or null';
    if (b.parentId !== '' && (b.parentId === c.id || !app.store.collections.has(b.parentId)))
      return 'parentId must name another collection ("" moves to the root)';
  }
  return undefined;
}

/** GET /authoring/articles?after=&limit=: data and nextCursor (the dialect's null or "" at the end), no hasMore. */
export function listArticles(app: App, call: Call): Reply {
  const f = app.faults;
  const limit = pageLimit(call.query.get('limit'), 25, 100);
  if (!limit.ok) return withValidationStatus(app.dialect.statuses.queryValidation, limit.reply);
  const after = f.has('articles-has-more') ? null : call.query.get('after');
  let start = 0;
  if (after) {
    const checked = app.cursors.verify<{ n?: unknown }>(after, 'articles', '');
    if (!checked.ok || !Number.isSafeInteger(checked.payload.n))
      return invalid('the cursor is malformed or tampered', 'request.invalid_cursor');
    start = checked.payload.n as number;
  }
  const all = app.store.articles;
  const page = all.slice(start, start + limit.value);
  const end = start + page.length;
  const next = end < all.length ? app.cursors.sign('articles', '', { n: end }) : null;
  if (f.has('articles-has-more')) return json(200, { data: page.map(articleObject), hasMore: next !== null, nextCursor: next });
  return jsonText(200, JSON.stringify({ data: page.map(articleObject), nextCursor: next ?? app.dialect.articlesEndCursor }));
}
