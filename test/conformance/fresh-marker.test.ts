/**
 * The checks that create marked customers (pagination.traversal with a fixtures API, …) compare the list
 * against what they created, so their marker must match no customer yet. freshMarker probes the search for
 * it; when the probe could not be read it used the seed's own marker unchecked, and a re-run with the same
 * seed against the same deployment then listed the earlier run's customers too: a false traversal finding.
 * Now an unreadable probe gives a marker made unique by the clock.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';

const CHECK = 'pagination.traversal';
const ref = proxiedReference(() => startReferenceServer({ seed: 4 }));

/** The probe of the check's own marker ("sg…trv", before any generation suffix). */
const isProbe = (req: { method: string; path: string }): boolean =>
  req.method === 'GET' && /^\/customers\?(.*&)?q=sg[0-9a-z]+trv(&|$)/.test(req.path);

describe('a marker whose probe could not be read', () => {
  it("is still fresh on a re-run with the same seed: the earlier run's customers are not listed", async () => {
    const probes: string[] = [];
    const first = await ref.run(
      async (req, forward) => {
        if (isProbe(req)) probes.push(req.path);
        return forward();
      },
      { checks: [CHECK], runs: 3 },
    );
    expect(verdict(first)).toBe('passed');
    expect(probes).toHaveLength(1);
    // Same seed, same server: the first run's customers match the seed's marker. The probe answers a 503.
    const again = await ref.run(async (req, forward) => (isProbe(req) ? unavailable() : forward()), { checks: [CHECK], runs: 3 });
    expect(again.findings).toEqual([]);
    expect(verdict(again)).toBe('passed');
  });

  it('a readable probe on a re-run moves to the next generation, and the check passes', async () => {
    const probes: string[] = [];
    const out = await ref.run(
      async (req, forward) => {
        if (req.method === 'GET' && /[?&]q=sg[0-9a-z]+trv/.test(req.path) && /[?&]limit=1(&|$)/.test(req.path)) probes.push(req.path);
        return forward();
      },
      { checks: [CHECK], runs: 3 },
    );
    expect(verdict(out)).toBe('passed');
    expect(probes.some((p) => /trvg1(&|$)/.test(p))).toBe(true);
  });
});
