/**
 * No output of a full run holds a secret: every API key of the target and every signed-URL query string
 * (`signature=`) is searched for in stdout, stderr, the results JSON, traces, JUnit, Markdown, HTML and
 * chart files of (1) a clean `spgate run` on the embedded server, (2) runs with findings against a
 * reference server with attachment faults, which also request attachment download URLs.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { Results } from '../../src/results/schema.js';
import { runCli, stackFrames, type CliRun } from '../support/cli.js';
import { tempDir, writeJson } from '../support/target-file.js';

const SIGNED = /signature=/i;

/** Every file under dir (recursively), as [path, text] (binary files read as latin1: bytes still match). */
function filesUnder(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) out.push(...filesUnder(p));
    else out.push([p, readFileSync(p, 'latin1')]);
  }
  return out;
}

/** Keys of a reference server's target, every role. */
function keysOf(target: RunningReferenceServer['target']): string[] {
  return Object.values(target.keys).map((k) => k!.key);
}

/** Asserts no output holds a key or a signed query; returns how many outputs were searched. */
function expectClean(outputs: Array<[string, string]>, keys: string[]): number {
  expect(keys.length).toBeGreaterThan(5);
  for (const [name, text] of outputs) {
    for (const key of keys) expect(text.includes(key), `${name} holds a key`).toBe(false);
    expect(SIGNED.test(text), `${name} holds a signed URL query`).toBe(false);
  }
  return outputs.length;
}

function streams(label: string, run: CliRun): Array<[string, string]> {
  expect(stackFrames(run.stdout + run.stderr)).toEqual([]);
  return [
    [`${label} stdout`, run.stdout],
    [`${label} stderr`, run.stderr],
  ];
}

const servers: RunningReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

// The two runs share nothing (own servers, own folders): side by side.
describe.concurrent('secrets never reach an output', () => {
  it('a clean spgate run on the embedded server (every report)', async () => {
    const seed = 4242;
    // The run's servers (conformance and each load phase) derive their keys from the seed alone.
    const probe = await startReferenceServer({ seed });
    const probe2 = await startReferenceServer({ seed, budgets: { read: 40, write: 10, windowSeconds: 2 } });
    const keys = [...new Set([...keysOf(probe.target), ...keysOf(probe2.target)])];
    await Promise.all([probe.close(), probe2.close()]);
    expect(keys.length).toBe(keysOf(probe.target).length);

    const base = tempDir();
    const json = join(base, 'copy.json');
    const run = await runCli(['run', '--seed', String(seed), '--runs', '2', '--out', join(base, 'reports'), '--json', json], {
      timeoutMs: 120_000,
    });
    expect(run.timedOut).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    const files = filesUnder(join(base, 'reports'));
    expect(files.map(([p]) => p.split('/').pop())).toEqual(
      expect.arrayContaining(['results.json', 'index.html', 'junit.xml', 'summary.md']),
    );
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(doc.checks.some((c) => c.suite === 'attachments' && c.status === 'passed')).toBe(true);
    expect(expectClean([...streams('run', run), ...files, [json, readFileSync(json, 'latin1')]], keys)).toBeGreaterThan(6);
  }, 150_000);

  it('runs with findings and attachment downloads (faulted reference server, conformance + load with a trace)', async () => {
    const server = await startReferenceServer({ seed: 77, faults: ['attachment-expiry-long', 'attachment-external-200'] });
    servers.push(server);
    const keys = keysOf(server.target);
    const dir = tempDir();
    // The target file references the admin key through the environment; every other key is inline.
    const target = writeJson(dir, 'target.json', {
      ...server.target,
      keys: { ...server.target.keys, admin: { ...server.target.keys.admin, key: 'env:SPGATE_ROBUST_ADMIN' } },
    });
    const env = { SPGATE_ROBUST_ADMIN: server.target.keys.admin.key };

    const confOut = join(dir, 'conformance');
    const conf = await runCli(
      [
        'conformance',
        '--target',
        target,
        '--suite',
        'attachments,auth',
        '--runs',
        '2',
        '--seed',
        '3',
        '--out',
        confOut,
        '--json',
        join(dir, 'c.json'),
      ],
      { env },
    );
    expect(conf.code, conf.stderr).toBe(1);
    const confDoc = Results.parse(JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')));
    const clauses = confDoc.findings.map((f) => f.clause);
    expect(clauses).toEqual(
      expect.arrayContaining([expect.stringMatching(/^4\.6\.expiry/), expect.stringMatching(/^4\.6\.unavailable-422/)]),
    );
    // The findings carry the exchanges that show the descriptor, so a leak would be right here.
    expect(confDoc.exchanges.some((x) => /\/attachments\/\d+\/download/.test(x.request.url))).toBe(true);
    // Keys and signed queries did pass through the record, and were replaced there.
    expect(JSON.stringify(confDoc.exchanges)).toContain('Bearer <redacted:admin>');
    expect(JSON.stringify(confDoc.exchanges)).toContain('?<redacted>');

    const loadOut = join(dir, 'load');
    const trace = join(dir, 'trace.ndjson');
    // The smoke mix with downloads weighted up: routes are drawn at random, and the trace must hold downloads.
    const smoke = JSON.parse(readFileSync(new URL('../../profiles/smoke.json', import.meta.url), 'utf8')) as {
      $schema?: string;
      classes: { read: { routes: Array<{ route: string; weight?: number }> } };
    };
    delete smoke.$schema;
    smoke.classes.read.routes = smoke.classes.read.routes.map((r) => (r.route === 'downloadAttachment' ? { ...r, weight: 20 } : r));
    const profile = writeJson(dir, 'smoke-downloads.json', smoke);
    const load = await runCli(['load', '--target', target, '--profile', profile, '--duration', '2', '--trace', trace, '--out', loadOut], {
      env,
    });
    expect([0, 1], load.stderr).toContain(load.code);
    const traceText = readFileSync(trace, 'latin1');
    expect(traceText).toMatch(/attachments\/\{storedIndex\}\/download|attachments\/[^"]*\/download/);

    const outputs = [
      ...streams('conformance', conf),
      ...streams('load', load),
      ...filesUnder(confOut),
      ...filesUnder(loadOut),
      [join(dir, 'c.json'), readFileSync(join(dir, 'c.json'), 'latin1')] as [string, string],
      [trace, traceText] as [string, string],
    ];
    expect(expectClean(outputs, keys)).toBeGreaterThan(8);
  }, 120_000);
});
