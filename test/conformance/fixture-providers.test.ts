/**
 * The fixture provider chain: pools hand each item out once, a need nobody can meet names what to add,
 * and fixtures.command failures (exit, hang, garbage, ids of the wrong kind) skip only the check that
 * asked, with one line naming the command and the check, while the run goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdsProvider } from '../../src/conformance/fixtures/ids-provider.js';
import { createCommandProvider, parseAnswer } from '../../src/conformance/fixtures/command-provider.js';
import { createFixtureSource, FixtureUnavailable } from '../../src/conformance/fixtures/provider.js';
import { runConformance } from '../support/conformance.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import type { FixtureIds, Target } from '../../src/target/schema.js';
import { idsOnlyTarget } from './support/ids-only-target.js';

const ids = (pools: FixtureIds['pools']): FixtureIds => ({ pools }) as FixtureIds;
/** A node one-liner as a shell command (JSON.stringify quotes it for sh). */
const node = (src: string): string => `node -e ${JSON.stringify(src)}`;

describe('target-file pools', () => {
  it('hands each pool item to one check only, then names the pool to grow', async () => {
    const source = createFixtureSource([createIdsProvider(ids({ customers: ['cus_a', 'cus_b', 'cus_c'] }))]);
    expect(await source.forCheck('one').take('customer', 2)).toEqual(['cus_a', 'cus_b']);
    expect(await source.forCheck('two').get('customer')).toBe('cus_c');
    await expect(source.forCheck('three').get('customer')).rejects.toThrow(
      'needs fixtures.ids.pools.customers (1 id) or fixtures.command (fixtures.ids had none left)',
    );
  });

  it('names the single id a check needs when the file has none', async () => {
    const source = createFixtureSource([createIdsProvider(ids({}))]);
    const err = await source
      .forCheck('x')
      .get('completedTurn')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FixtureUnavailable);
    expect((err as Error).message).toBe('needs fixtures.ids.completedTurn or fixtures.command');
  });

  it('refuses a pool collection without its revision, saying how to write it', async () => {
    const source = createFixtureSource([createIdsProvider(ids({ collections: ['col_1'] }))]);
    await expect(source.forCheck('x').get('collection')).rejects.toThrow('write it as { "id": "col_1", "revision": N }');
  });
});

describe('fixtures.command', () => {
  const provider = (run: string, timeoutMs = 10_000) => createCommandProvider({ run, timeoutMs }, 'http://127.0.0.1:1/v1');

  it('passes the need as JSON on stdin and reads the items from stdout', async () => {
    const echo = node(
      'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);process.stdout.write(JSON.stringify({items:Array.from({length:r.count},(_,i)=>"conv_"+r.check+i)}))})',
    );
    expect(await provider(echo).supply('conversation', 2, 'chk')).toEqual(['conv_chk0', 'conv_chk1']);
  });

  it('a command that has none of a kind lets the chain name what to add', async () => {
    const none = createFixtureSource([provider(node('process.stdout.write(JSON.stringify({items:[]}))'))]);
    await expect(none.forCheck('c').get('pendingTurn')).rejects.toThrow(
      'needs fixtures.ids.pools.pendingTurns (1 id) (fixtures.command had none left)',
    );
  });

  for (const [what, run, why] of [
    ['exits non-zero', node('console.error("no database");process.exit(3)'), 'exit 3: no database'],
    ['prints garbage', node('process.stdout.write("hello")'), 'stdout is not JSON ("hello")'],
    ['prints the wrong JSON', node('process.stdout.write("[1,2]")'), 'stdout is not { "items": [...] }'],
    [
      'returns ids of the wrong kind',
      node('process.stdout.write(JSON.stringify({items:["cus_1"]}))'),
      'items[0] is not a conversation: (item) expected an id starting with conv_',
    ],
  ] as const) {
    it(`${what}: one line naming the command and the check`, async () => {
      const err = await provider(run)
        .supply('conversation', 1, 'status.resolve.default')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FixtureUnavailable);
      const msg = (err as Error).message;
      expect(msg).toBe(`fixtures.command ${JSON.stringify(run)} failed for check status.resolve.default (need conversation): ${why}`);
      expect(msg).not.toContain('\n');
    });
  }

  it('hangs past timeoutMs: killed, with the reason', async () => {
    const err = await provider(node('setInterval(()=>{},1000)'), 300)
      .supply('customer', 1, 'c')
      .catch((e: unknown) => e);
    expect((err as Error).message).toContain('failed for check c (need customer): no answer within 300 ms (timeoutMs)');
  });

  it('parses turns and attachments by their field shapes', () => {
    expect(parseAnswer('pendingTurn', 1, '{"items":[{"sessionId":"s","turnId":"t"}]}')).toEqual([{ sessionId: 's', turnId: 't' }]);
    expect(parseAnswer('storedAttachment', 1, '{"items":[{"messageId":"m","index":-1}]}')).toMatch(
      /^items\[0\] is not a storedAttachment: index/,
    );
    expect(parseAnswer('customer', 2, '{"items":["cus_1"]}')).toBe('1 item(s) for 2 asked');
  });
});

describe('a run with a fixtures.command', () => {
  let server: RunningReferenceServer;
  let base: Target;
  beforeAll(async () => {
    server = await startReferenceServer({ port: 0, seed: 4 });
    base = await idsOnlyTarget(server);
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });
  const withCommand = (run: string): Target => ({
    ...base,
    fixtures: { ...base.fixtures, command: { run, timeoutMs: 10_000 }, ids: { ...base.fixtures.ids, pools: {} } },
  });

  it('a failing command makes the check that asked inconclusive, says why, and the run goes on', async () => {
    const run = node('process.exit(2)');
    const out = await runConformance({
      target: withCommand(run),
      checks: ['status.resolve.default', 'auth.missing-header'],
      runs: 2,
      seed: 1,
    });
    const byId = Object.fromEntries(out.checks.map((c) => [c.checkId, c]));
    expect(byId['status.resolve.default']?.status).toBe('inconclusive');
    expect(byId['status.resolve.default']?.reason).toBe(
      `fixtures.command ${JSON.stringify(run)} failed for check status.resolve.default (need conversation): exit 2`,
    );
    expect(byId['auth.missing-header']?.status).toBe('passed');
  });

  it('a working command supplies the data and the check runs', async () => {
    const conv = base.fixtures.ids.pools!.conversations![0]!;
    const out = await runConformance({
      target: withCommand(node(`process.stdout.write(JSON.stringify({items:[${JSON.stringify(conv)}]}))`)),
      checks: ['status.resolve.default'],
      runs: 2,
      seed: 1,
    });
    expect(out.checks.map((c) => `${c.checkId} ${c.status} ${c.reason ?? ''}`)).toEqual(['status.resolve.default passed ']);
    expect(out.findings).toEqual([]);
  });
});
