/** GET /me, GET /statuses, GET /priorities (4.10; response shapes are the reference server's choice). */
import type { App, Call } from '../app.js';
import { json, raw, type Reply } from '../reply.js';

/** The workspace and scopes behind the calling key, and its mode (live/test for legacy prefixes). */
export function me(app: App, call: Call): Reply {
  const c = call.conn;
  if (app.faults.has('me-text-plain'))
    return raw(200, 'text/plain; charset=utf-8', `workspace=${app.workspace.id} scopes=${[...c.scopes].join(',')}\n`);
  return json(200, { data: { workspace: app.workspace, scopes: [...c.scopes], mode: c.mode } });
}

/** The workspace's status keys with their types. */
export function statuses(app: App): Reply {
  const display = app.faults.has('statuses-display-keys');
  const all = [...app.store.statuses.values()];
  // dialect namedKeyLists: a list named after its resource, items keyed by slug with a category
  if (app.dialect.strict.namedKeyLists)
    return json(200, { statuses: all.map((s) => ({ slug: display ? s.name : s.key, category: s.type })) });
  return json(200, { data: all.map((s) => ({ key: display ? s.name : s.key, name: s.name, type: s.type })) });
}

/** The workspace's priority keys. */
export function priorities(app: App): Reply {
  const all = [...app.store.priorities.values()];
  // priorities-drop-last: an off-by-one slice loses the last priority
  const listed = app.faults.has('priorities-drop-last') ? all.slice(0, -1) : all;
  if (app.dialect.strict.namedKeyLists) return json(200, { priorities: listed.map((p) => ({ slug: p.key })) });
  return json(200, { data: listed.map((p) => ({ key: p.key, name: p.name })) });
}
