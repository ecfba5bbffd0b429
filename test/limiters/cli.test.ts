/**
 * The same judgement through the real CLI and a target file on disk (budgets unstated, key from the
 * environment): a correct limiter exits 0 and the key never reaches the output. (Misconfigurations are
 * judged through runProfile in misconfigurations.test.ts; one CLI run keeps this file short.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir, writeJson } from '../support/target-file.js';
import { API_KEY, FIXTURE_IDS } from './support/api.js';
import { startExpressServer } from './support/express-server.js';
import type { Budgets, LimitedServer } from './support/server.js';

const BUDGETS: Budgets = { read: { limit: 20, windowSeconds: 1 }, write: { limit: 6, windowSeconds: 1 } };

let server: LimitedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function load(url: string): Promise<{ code: number | null; out: string; json: string }> {
  const dir = tempDir('spgate-limiters-');
  const target = writeJson(dir, 'target.json', {
    name: 'limiter',
    baseUrl: url,
    keys: { admin: { key: 'env:SPGATE_LIMITERS_KEY' } },
    allowWrites: true,
    fixtures: { ids: FIXTURE_IDS },
  });
  const jsonPath = join(dir, 'out.json');
  const run = await runCli(['load', '--profile', 'read-budget', '--target', target, '--duration', '2.5', '--json', jsonPath], {
    env: { SPGATE_LIMITERS_KEY: API_KEY },
    timeoutMs: 40_000,
  });
  expect(run.timedOut).toBe(false);
  return { code: run.code, out: run.stdout + run.stderr, json: readFileSync(jsonPath, 'utf8') };
}

describe('spgate load against real limiters, budgets unstated', () => {
  it('express-rate-limit, correctly configured: exit 0, no rate-limit violation', async () => {
    server = await startExpressServer({ budgets: BUDGETS });
    const r = await load(server.url);
    expect({ code: r.code, violations: r.out.match(/8\.ratelimit\.[a-z0-9-]+/g) ?? [] }).toEqual({ code: 0, violations: [] });
    expect(r.out + r.json).not.toContain(API_KEY);
  });
});
