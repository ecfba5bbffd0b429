/** Route matching on path segments: literal segments must match, ":name" segments capture (non-empty). */
import type { RouteDef } from './app.js';

interface Compiled {
  def: RouteDef;
  parts: Array<string | null>;
}

export type RouteMatch = { def: RouteDef; params: string[] };

export class Router {
  private readonly byLength = new Map<number, Compiled[]>();
  /** Paths without parameters, by method then path, with the route the full search gives them. */
  private readonly exact = new Map<string, Map<string, RouteDef>>();

  constructor(defs: readonly RouteDef[]) {
    for (const def of defs) {
      const parts = def.path
        .split('/')
        .slice(1)
        .map((p) => (p.startsWith(':') ? null : p));
      const list = this.byLength.get(parts.length) ?? [];
      list.push({ def, parts });
      this.byLength.set(parts.length, list);
    }
    // the answer for a literal path is fixed, so it is looked up once here; where an earlier ":param" route of
    // the same shape wins the full search, the path is left to the full search per request
    for (const def of defs) {
      if (def.path.includes('/:') || this.search(def.method, def.path)?.def !== def) continue;
      let paths = this.exact.get(def.method);
      if (!paths) this.exact.set(def.method, (paths = new Map()));
      paths.set(def.path, def);
    }
  }

  /** Finds the route for a method and a path below /v1 (e.g. "/customers"); undefined when none. */
  match(method: string, path: string): RouteMatch | undefined {
    const def = this.exact.get(method)?.get(path);
    return def ? { def, params: [] } : this.search(method, path);
  }

  /** The full search: segment by segment over the routes of the path's length, in definition order. */
  private search(method: string, path: string): RouteMatch | undefined {
    const segs = path.split('/').slice(1);
    const candidates = this.byLength.get(segs.length);
    if (!candidates) return undefined;
    outer: for (const c of candidates) {
      if (c.def.method !== method) continue;
      const params: string[] = [];
      for (let i = 0; i < segs.length; i++) {
        const want = c.parts[i];
        const seg = segs[i]!;
        if (want === null) {
          if (seg === '') continue outer;
          let value: string;
          try {
            value = decodeURIComponent(seg);
          } catch {
            continue outer;
          }
          params.push(value);
        } else if (want !== seg) continue outer;
      }
      return { def: c.def, params };
    }
    return undefined;
  }
}
