/**
 * auth.other-workspace's collection part against pools that outlive a run (issue 30): a Help Center that
 * keeps slugs unique (409 on a taken slug) and a pool collection whose revision moved by another writer
 * must never yield a 5.workspace-bound finding the otherWorkspace key did not cause. Run twice with the same
 * seed against the same server and pools, both runs are clean; the workspace-leak fault is still caught on
 * the second run. A revision moved while the foreign update was refused is not concluded on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import type { HttpClient } from '../../src/client/types.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import { startReferenceServer, type FaultName, type RunningReferenceServer } from '../../src/reference/index.js';
import type { Target } from '../../src/target/schema.js';
import { collectionRequest, freshKey } from '../../suites/model/requests.js';
import { runConformance } from '../support/conformance.js';
import { idsOnlyTarget } from './support/ids-only-target.js';

const CHECK = 'auth.other-workspace';
const BUDGETS = { read: 1e6, write: 1e6, windowSeconds: 60 };
const COLLECTION_PATH = /^\/authoring\/collections\/([^/]+)$/;
/** The collection part's two findings when the foreign update is let through: its answer, and its effect. */
const COLLECTION_FINDINGS = [
  expect.stringMatching(/^5\.workspace-bound: HTTP 403 or 404 \(or a validation refusal\) for updating this workspace's collection/),
  expect.stringMatching(/^5\.workspace-bound: the collection's revision unchanged by the otherWorkspace key's update/),
];

let server: RunningReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An ids-only target (pools in the target file, as on staging) of a server keeping slugs unique per workspace. */
async function uniqueSlugsTarget(faults: FaultName[] = [], uniqueSlugs = true): Promise<Target> {
  server = await startReferenceServer({ port: 0, seed: 7, budgets: BUDGETS, faults, strict: { uniqueSlugs } });
  return idsOnlyTarget(server);
}

const run = (target: Target, client?: HttpClient): Promise<ConformanceOutcome> =>
  runConformance({ target, client, suites: ['auth'], checks: [CHECK], runs: 2, seed: 11 });

const findings = (out: ConformanceOutcome): string[] => out.findings.map((f) => `${f.clause}: ${f.expected}; got ${f.actual}`);

/** The check's verdict, and the reason of one that could not judge. */
const verdict = (out: ConformanceOutcome): string => {
  const c = out.checks.find((x) => x.checkId === CHECK)!;
  return `${c.status}${c.reason ? `: ${c.reason}` : ''}`;
};

describe('a Help Center that refuses a taken slug with 409', () => {
  it.each([
    [true, 409],
    [false, 200],
  ])('uniqueSlugs %s: a collection keeps its own slug; an update to a slug another holds answers %i', async (uniqueSlugs, status) => {
    const target = await uniqueSlugsTarget([], uniqueSlugs);
    const client = createClient({ baseUrl: target.baseUrl, secrets: target.secrets });
    try {
      const [a, b] = target.fixtures.ids.pools!.collections! as Array<{ id: string; revision: number }>;
      const put = (c: { id: string }, slug: string, expectedRevision: number) =>
        client.send(collectionRequest(c.id, { name: 'taken slug probe', slug, expectedRevision }, freshKey()));
      const first = await put(a!, 'spgate-taken', a!.revision);
      expect(first.response?.status).toBe(200);
      const again = await put(a!, 'spgate-taken', a!.revision + 1);
      expect(again.response?.status).toBe(200);
      const taken = await put(b!, 'spgate-taken', b!.revision);
      expect(taken.response?.status).toBe(status);
      if (uniqueSlugs) expect((taken.response?.json as { error?: { code?: string } }).error?.code).toBe('help.slug_taken');
    } finally {
      await client.close();
    }
  });

  it('the auth suite run twice with the same seed on the same pools: no finding either time, auth.other-workspace judged', async () => {
    const target = await uniqueSlugsTarget();
    for (const n of [1, 2]) {
      const out = await runConformance({ target, suites: ['auth'], runs: 2, seed: 11 });
      expect(findings(out), `run ${n}`).toEqual([]);
      // every part judged, the collection part too (an untried part would be named in the reason)
      expect(verdict(out), `run ${n}`).toBe('passed');
    }
  });

  it('the workspace-leak fault is still caught on the second run', async () => {
    const target = await uniqueSlugsTarget();
    expect(findings(await run(target))).toEqual([]);
    server!.setFaults(['workspace-leak']);
    const out = await run(target);
    expect(verdict(out)).toMatch(/^failed/);
    expect([...new Set(out.findings.map((f) => f.clause))]).toEqual(['5.workspace-bound']);
  });

  it('a gateway letting the foreign collection update through is caught on the second run by the collection part', async () => {
    const target = await uniqueSlugsTarget();
    const inner = createClient({ baseUrl: target.baseUrl, secrets: target.secrets });
    try {
      expect(findings(await run(target))).toEqual([]);
      const out = await run(target, collectionLetThrough(inner));
      expect(findings(out)).toEqual(COLLECTION_FINDINGS);
    } finally {
      await inner.close();
    }
  });
});

/**
 * A gateway that lets the otherWorkspace key's collection updates through as this workspace's helpDelegated
 * key, and nothing else (no reference fault leaks the update: workspace-leak serves the foreign key without
 * the delegation the update needs, so it is refused with 403 there).
 */
function collectionLetThrough(inner: HttpClient): HttpClient {
  return {
    ...inner,
    send: (spec) =>
      inner.send(
        spec.method === 'PUT' && spec.role === 'otherWorkspace' && COLLECTION_PATH.test(spec.path)
          ? { ...spec, role: 'helpDelegated' }
          : spec,
      ),
  };
}

/**
 * A client on which someone else edits the collection right after each otherWorkspace update of it (refused
 * or not): the revision moves while the check is between its foreign update and its own second one. The
 * edit expects the revision the collection's last successful update showed.
 */
function editedAfterForeignUpdate(inner: HttpClient, edits: string[]): HttpClient {
  const revisions = new Map<string, number>();
  return {
    ...inner,
    async send(spec) {
      const x = await inner.send(spec);
      const m = COLLECTION_PATH.exec(spec.path);
      if (spec.method !== 'PUT' || !m) return x;
      const id = decodeURIComponent(m[1]!);
      const r = (x.response?.json as { revision?: unknown } | undefined)?.revision;
      if (x.response?.status === 200 && typeof r === 'number') revisions.set(id, r);
      if (spec.role !== 'otherWorkspace' || !revisions.has(id)) return x;
      const slug = `someone-${edits.length}-${id.toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
      const edit = await inner.send(
        collectionRequest(id, { name: 'edited by someone', slug, expectedRevision: revisions.get(id)! }, freshKey()),
      );
      const moved = (edit.response?.json as { revision?: unknown } | undefined)?.revision;
      if (edit.response?.status === 200 && typeof moved === 'number') {
        revisions.set(id, moved);
        edits.push(id);
      }
      return x;
    },
  };
}

describe('a revision that moved while the foreign update was refused', () => {
  it('is not blamed on the otherWorkspace key: no finding, the part named as unable to judge', async () => {
    const target = await uniqueSlugsTarget();
    const inner = createClient({ baseUrl: target.baseUrl, secrets: target.secrets });
    const edits: string[] = [];
    try {
      const out = await run(target, editedAfterForeignUpdate(inner, edits));
      expect(edits.length).toBeGreaterThan(0); // the path was reached: a foreign update was followed by an edit
      expect(findings(out)).toEqual([]);
      expect(verdict(out)).toMatch(
        /^passed: not tried: collection update \(collection \S+'s revision \d+ moved on while the otherWorkspace key's update was refused \(HTTP 40[34]\)/,
      );
    } finally {
      await inner.close();
    }
  });

  it('an update the server let through is still a finding, though someone else also edited', async () => {
    const target = await uniqueSlugsTarget();
    const inner = createClient({ baseUrl: target.baseUrl, secrets: target.secrets });
    const edits: string[] = [];
    try {
      const out = await run(target, editedAfterForeignUpdate(collectionLetThrough(inner), edits));
      expect(edits.length).toBeGreaterThan(0);
      expect(findings(out)).toEqual(COLLECTION_FINDINGS);
    } finally {
      await inner.close();
    }
  });
});
