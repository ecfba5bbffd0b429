/**
 * `spgate init`: a handful of read requests to a target, a target file that loads and runs, a coverage plan
 * with the line to add for each skipped check; bad targets are one line with nothing written.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DIALECT_NAMES, DIALECTS, startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import type { Results } from '../../src/results/schema.js';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { schemaValidator } from '../support/json-schema.js';
import { SCHEMAS_DIR } from '../../src/schemas/json-schemas.js';

let ref: RunningReferenceServer;
let dir: string;
let key: string;
const env = (): NodeJS.ProcessEnv => ({ SPGATE_ADMIN_KEY: key });

// limits.remaining-decreases waits out one RateLimit-Reset: a 3 s window (the default dialect's is 5 s) keeps
// that wait short and still far from the 2 s below which a sequence of five may straddle a refill.
const WINDOW_S = 3;

beforeAll(async () => {
  ref = await startReferenceServer({ seed: 21, budgets: { windowSeconds: WINDOW_S } });
  key = ref.target.keys.admin.key;
  dir = mkdtempSync(join(tmpdir(), 'spgate-init-'));
});
afterAll(async () => {
  await ref.close();
  rmSync(dir, { recursive: true, force: true });
});

// The describe blocks below use servers and folders of their own: they run side by side (the cases of this one
// in order, each reading the file the first wrote), so the conformance runs' waits on the windows overlap.
describe.concurrent('spgate init against the reference server', () => {
  it.sequential('writes a target file of learned values and env: keys, and prints the coverage plan', async () => {
    const r = await runCli(['init', '--base-url', ref.baseUrl, '--out', 't.yaml'], { cwd: dir, env: env() });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(dir, 't.yaml'), 'utf8');
    expect(text).not.toContain(key);
    const file = YAML.parse(text) as {
      keys: { admin: { key: string } };
      assumptions: Record<string, unknown>;
      fixtures: { ids: Record<string, unknown> };
    };
    expect(file.keys.admin.key).toBe('env:SPGATE_ADMIN_KEY');
    expect(file.assumptions.params).toEqual({ externalId: 'externalId', search: 'q' });
    expect(file.assumptions.completedStatuses).toEqual(expect.arrayContaining(['resolved', 'closed']));
    expect(file.assumptions.activeStatuses).toEqual(expect.arrayContaining(['open', 'pending']));
    expect(file.fixtures.ids.customerId).toMatch(/^cus_/);
    expect(text).toMatch(/# resolvePath: .*4\.8/);
    // Editors with the YAML language server check the file against the committed schema; so does ajv here.
    const schemaRef = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text)?.[1];
    expect(schemaRef && resolve(dir, schemaRef)).toBe(join(SCHEMAS_DIR, 'target.schema.json'));
    expect(schemaValidator('target.schema.json')(file)).toEqual([]);
    expect(r.stdout).toMatch(/conformance: 11 suites · \d+ checks · \d+ would run/);
    expect(r.stdout).toContain('add: keys.readOnly: { key: "env:SPGATE_READ_ONLY_KEY" }');
    expect(r.stdout).toContain('add: allowWrites: true');
  });

  it.sequential('the written file runs: conformance against it finds nothing on the clean server', async () => {
    const r = await runCli(['conformance', '--target', 't.yaml', '--suite', 'auth,errors,limits', '--runs', '3', '--seed', '1'], {
      cwd: dir,
      env: env(),
      timeoutMs: 90_000,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it.sequential('refuses to replace an existing file without --force, sending nothing', async () => {
    const r = await runCli(['init', '--base-url', 'http://127.0.0.1:9/v1', '--out', 't.yaml'], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(errorLines(r.stderr)).toEqual([expect.stringContaining('SPGATE_ERR_OUTPUT_EXISTS')]);
  });

  it.sequential('takes the key only as env:NAME', async () => {
    const r = await runCli(['init', '--base-url', ref.baseUrl, '--key', key, '--out', 'k.yaml'], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain(key);
    expect(existsSync(join(dir, 'k.yaml'))).toBe(false);
  });
});

describe.concurrent('spgate init against bad targets writes nothing', () => {
  let html: Server;
  let htmlUrl: string;
  beforeAll(async () => {
    html = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>welcome</html>');
    });
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => html.close(() => r())));

  const cases: Array<[string, () => string, NodeJS.ProcessEnv | undefined, number, string]> = [
    ['an unreachable target', () => 'http://127.0.0.1:9/v1', undefined, 3, 'SPGATE_ERR_TARGET_UNREACHABLE'],
    ['a wrong key (401)', () => ref.baseUrl, { SPGATE_ADMIN_KEY: 'pk_wrong_key_000000' }, 2, 'SPGATE_ERR_INIT_KEY_REFUSED'],
    ['a non-JSON answer', () => htmlUrl, undefined, 2, 'SPGATE_ERR_INIT_NOT_API'],
    ['an unset key variable', () => ref.baseUrl, { SPGATE_ADMIN_KEY: '' }, 2, 'SPGATE_ERR_KEY_ENV_MISSING'],
  ];
  it.each(cases)('%s: one line, the right exit code, no file', async (_what, url, e, code, err) => {
    const sub = mkdtempSync(join(dir, 'bad-'));
    const r = await runCli(['init', '--base-url', url(), '--out', 'x.yaml'], { cwd: sub, env: e ?? env() });
    expect(r.code, r.stderr).toBe(code);
    expect(errorLines(r.stderr)).toEqual([expect.stringContaining(err)]);
    expect(stackFrames(r.stderr)).toEqual([]);
    expect(readdirSync(sub)).toEqual([]);
  });
});

// Two dialects at a time (each an init and a whole conformance run): six at once took each past the test
// timeout on a loaded 2-core machine.
const DIALECT_PAIRS = DIALECT_NAMES.flatMap((d, i) => (i % 2 === 0 ? [DIALECT_NAMES.slice(i, i + 2)] : []));

describe.each(DIALECT_PAIRS.map((pair) => [pair.join(' and '), pair] as const))('dialects %s', (_names, pair) => {
  describe.concurrent.each(pair)('spgate init against the %s dialect', (dialect) => {
    let server: RunningReferenceServer;
    let sub: string;
    beforeAll(async () => {
      const windowSeconds = Math.min(DIALECTS[dialect].limiter.windowSeconds, WINDOW_S);
      server = await startReferenceServer({ seed: 8, dialect, budgets: { windowSeconds } });
      sub = mkdtempSync(join(dir, `${dialect}-`));
    });
    afterAll(() => server.close());

    it("learns the dialect's filter names and writes a file the whole suite runs against without a finding", async () => {
      const e = { SPGATE_ADMIN_KEY: server.target.keys.admin.key };
      const init = await runCli(['init', '--base-url', server.baseUrl, '--out', 't.yaml'], { cwd: sub, env: e });
      expect(init.code, init.stderr).toBe(0);
      const file = YAML.parse(readFileSync(join(sub, 't.yaml'), 'utf8')) as { assumptions: { params: Record<string, string> } };
      const { externalId, search } = DIALECTS[dialect].params;
      expect(file.assumptions.params).toEqual({ externalId, search });
      const run = await runCli(['conformance', '--target', 't.yaml', '--runs', '3', '--seed', '2', '--json', 'r.json'], {
        cwd: sub,
        env: e,
        timeoutMs: 120_000,
      });
      const results = JSON.parse(readFileSync(join(sub, 'r.json'), 'utf8')) as Results;
      expect(results.findings.map((f) => `${f.checkId}: ${f.actual}`)).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
    });
  });
});
