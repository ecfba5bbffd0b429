/**
 * shapes.collection against a Help Center that keeps slugs unique per workspace (strict.uniqueSlugs: 409
 * help.slug_taken) and pools that outlive a run (issue 30): another run with the same seed that updates
 * another pool collection (a target file listing the pool in another order, or the first one passed over
 * as edited) must still get a collection to judge. With one slug per seed the second run's update was
 * refused as a taken slug and the check judged nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import type { Target } from '../../src/target/schema.js';
import { runConformance } from '../support/conformance.js';
import { idsOnlyTarget } from './support/ids-only-target.js';

const CHECK = 'shapes.collection';

let server: RunningReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function verdict(target: Target, faults: string[] = []): Promise<string> {
  server!.setFaults(faults as never);
  const out = await runConformance({ target, checks: [CHECK], runs: 1, seed: 11 });
  const c = out.checks.find((x) => x.checkId === CHECK)!;
  return `${c.status}${c.reason ? `: ${c.reason}` : ''}${out.findings.length ? ` [${out.findings.map((f) => f.clause).join(', ')}]` : ''}`;
}

describe('shapes.collection on pools that outlive a run, slugs unique per workspace', () => {
  it('a second run with the same seed on another pool collection still judges a collection; a shape fault is still caught', async () => {
    server = await startReferenceServer({ port: 0, seed: 7, budgets: { read: 1e6, write: 1e6 }, strict: { uniqueSlugs: true } });
    const target = await idsOnlyTarget(server);
    const pool = target.fixtures.ids.pools!.collections!;
    expect(await verdict(target)).toBe('passed');
    // another team's target file lists the same pool in another order
    const reversed: Target = {
      ...target,
      fixtures: {
        ...target.fixtures,
        ids: { ...target.fixtures.ids, pools: { ...target.fixtures.ids.pools, collections: [...pool].reverse() } },
      },
    };
    expect(await verdict(reversed)).toBe('passed');
    // and the check still fails a collection of the wrong shape on such a run
    const next: Target = {
      ...target,
      fixtures: {
        ...target.fixtures,
        ids: { ...target.fixtures.ids, pools: { ...target.fixtures.ids.pools, collections: pool.slice(1) } },
      },
    };
    expect(await verdict(next, ['collection-translations-object'])).toMatch(/^failed.*\[2\.collection\.shape\]$/);
  });
});
