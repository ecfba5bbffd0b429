/**
 * pagination.stable-under-writes (without a fixtures API) deletes two pool customers once the walk has
 * listed one, so that a delete lies before the cursor. Pool customers listed only on the list's last page
 * give no page after the delete: nothing shows whether the cursor skips an item, so the check is
 * inconclusive naming the pool to change, never passed.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { proxiedReference } from '../support/proxied-conformance.js';

const CHECK = 'pagination.stable-under-writes';
const ref = proxiedReference(() => startReferenceServer({ seed: 12, fixturesApi: false }));

/** Every customer id of the list, in list order (pages of 100). */
async function listOrder(): Promise<string[]> {
  const key = (ref.server.target.keys as Record<string, { key: string }>).admin!.key;
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const url = `${ref.server.baseUrl}/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const body = (await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      data: Array<{ id: string }>;
      nextCursor: string | null;
    };
    ids.push(...body.data.map((c) => c.id));
    if (!body.nextCursor) break;
    cursor = body.nextCursor;
  }
  return ids;
}

describe(`${CHECK} with pool customers only on the last page`, () => {
  it('is inconclusive, naming the pool, not passed', async () => {
    const order = await listOrder();
    expect(order.length).toBeGreaterThan(101); // so pages of 100 put the last two customers on a later page
    const last = order.slice(-2);
    const edit = (t: TargetFileInput): TargetFileInput => {
      const ids = t.fixtures?.ids ?? {};
      return { ...t, fixtures: { ids: { ...ids, pools: { ...ids.pools, customers: last } } } };
    };
    const out = await ref.run((_r, f) => f(), { checks: [CHECK], runs: 1, edit });
    expect(out.findings).toEqual([]);
    expect(out.checks[0]!.status).toBe('inconclusive');
    expect(out.checks[0]!.reason).toMatch(/no pool customer was listed before the list's last page/);
    expect(out.checks[0]!.remedy).toMatch(/fixtures\.ids\.pools\.customers/);
  });
});
