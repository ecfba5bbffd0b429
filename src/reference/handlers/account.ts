/** GET /me, GET /statuses, GET /priorities (4.10; response shapes are the reference server's choice). */
import type { App, Call } from '../app.js';
import { json, type Reply } from '../reply.js';

/** The workspace and scopes behind the calling key, and its mode (live/test for legacy prefixes). */
export function me(app: App, call: Call): Reply {
  const c = call.conn;
  return json(200, { data: { workspace: app.workspace, scopes: [...c.scopes], mode: c.mode } });
}

/** The workspace's status keys with their types. */
export function statuses(app: App): Reply {
  return json(200, { data: [...app.store.statuses.values()].map((s) => ({ key: s.key, name: s.name, type: s.type })) });
}

/** The workspace's priority keys. */
export function priorities(app: App): Reply {
  return json(200, { data: [...app.store.priorities.values()].map((p) => ({ key: p.key, name: p.name })) });
}
