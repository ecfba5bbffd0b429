/**
 * Proof harness for the stateful suites: runs one suite through the real runner against the reference
 * server (port 0, loopback) with or without a fault. The faults a suite must catch are derived from the
 * fault catalogue (every conformance fault whose `catches` clause one of the suite's checks names), so a
 * fault added later is covered without editing the tests.
 */
import { describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import type { SuiteDef } from '../../src/conformance/suite.js';
import { FAULT_NAMES, FAULTS, startReferenceServer, type FaultName, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/load.js';

// Far above what one suite sends, so no run waits out a 429 (rate limits are another suite's subject).
const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
export const RUNS = 5;
export const CLEAN_SEEDS = [1, 2, 3];

/** Faults whose catching clause belongs to one of the suite's checks. */
export function faultsFor(suite: SuiteDef): FaultName[] {
  const clauses = new Set<string>(suite.checks.map((c) => c.clause));
  return FAULT_NAMES.filter((f) => FAULTS[f].by !== 'load' && clauses.has(FAULTS[f].catches));
}

/** Runs `suite` against `server` (its current faults) through the conformance runner. */
export async function runSuite(server: RunningReferenceServer, suite: SuiteDef, seed = 1): Promise<ConformanceOutcome> {
  const target = targetFromInput(server.target, 'embedded');
  return runConformance({ target, suites: [suite.name], catalogue: [suite], runs: RUNS, seed });
}

/** Starts a reference server for a test file. */
export function startServer(seed = 1): Promise<RunningReferenceServer> {
  return startReferenceServer({ seed, budgets: BUDGETS });
}

/** Secrets of the server's target: none of them may appear anywhere in an outcome. */
export function secretsOf(server: RunningReferenceServer): string[] {
  return Object.values(server.target.keys).map((k) => (k as { key: string }).key);
}

/** The standard proof for one suite: clean over three seeds, and every fault it owns caught by its clause. */
export function proveSuite(suite: SuiteDef, expectedFaults: FaultName[]): void {
  describe(`${suite.name} suite on the clean reference server`, () => {
    for (const seed of CLEAN_SEEDS) {
      it(`seed ${seed}: no finding, no error, nothing skipped`, async () => {
        const server = await startServer(seed);
        try {
          const out = await runSuite(server, suite, seed);
          expect(out.findings.map((f) => `${f.checkId}: expected ${f.expected}; got ${f.actual}`)).toEqual([]);
          expect(out.checks.filter((c) => c.status !== 'passed').map((c) => `${c.checkId}: ${c.status} ${c.reason ?? ''}`)).toEqual([]);
          expect(out.checks).toHaveLength(suite.checks.length);
        } finally {
          await server.close();
        }
      });
    }
  });

  describe(`${suite.name} suite catches its faults`, () => {
    it('owns exactly the expected faults', () => {
      expect(faultsFor(suite).sort()).toEqual([...expectedFaults].sort());
    });
    for (const fault of expectedFaults) {
      it(`${fault} → a finding under ${FAULTS[fault].catches}`, async () => {
        const server = await startReferenceServer({ seed: 1, budgets: BUDGETS, faults: [fault] });
        try {
          const out = await runSuite(server, suite);
          const hits = out.findings.filter((f) => f.clause === FAULTS[fault].catches);
          expect(hits.length, `findings: ${out.findings.map((f) => f.clause).join(', ') || 'none'}`).toBeGreaterThan(0);
          const ids = new Set(out.exchanges.map((x) => x.id));
          for (const f of hits) {
            expect(f.exchangeIds.length).toBeGreaterThan(0);
            for (const id of f.exchangeIds) expect(ids.has(id)).toBe(true);
            expect(f.reproduction?.curl.length).toBeGreaterThan(0);
          }
          const text = JSON.stringify(out);
          for (const secret of secretsOf(server)) expect(text).not.toContain(secret);
        } finally {
          await server.close();
        }
      });
    }
  });
}
