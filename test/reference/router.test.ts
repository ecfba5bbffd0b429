/** The router's literal-path shortcut must give exactly what the full segment search gives. */
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../src/reference/app.js';
import { Router } from '../../src/reference/router.js';
import { json } from '../../src/reference/reply.js';

const handler = (): ReturnType<typeof json> => json(200, {});
const def = (method: string, path: string): RouteDef => ({ method, path, scopes: [], handler });

describe('Router', () => {
  it('finds literal routes with no params, and only for their method', () => {
    const list = def('GET', '/customers');
    const r = new Router([list, def('DELETE', '/customers/:id')]);
    expect(r.match('GET', '/customers')).toEqual({ def: list, params: [] });
    expect(r.match('POST', '/customers')).toBeUndefined();
    expect(r.match('GET', '/customers/')).toBeUndefined();
  });

  it('lets an earlier :param route win over a later literal one of the same shape, with its params', () => {
    const byId = def('GET', '/items/:id');
    const literal = def('GET', '/items/special');
    const r = new Router([byId, literal]);
    expect(r.match('GET', '/items/special')).toEqual({ def: byId, params: ['special'] });
    const r2 = new Router([literal, byId]);
    expect(r2.match('GET', '/items/special')).toEqual({ def: literal, params: [] });
    expect(r2.match('GET', '/items/x%20y')).toEqual({ def: byId, params: ['x y'] });
  });

  it('hands out a fresh params array per match (handlers may keep it)', () => {
    const r = new Router([def('GET', '/me')]);
    expect(r.match('GET', '/me')!.params).not.toBe(r.match('GET', '/me')!.params);
  });
});
