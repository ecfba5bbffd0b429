import { describe, expect, it, type ExpectStatic } from 'vitest';
import { FAULTS, FAULT_NAMES, startReferenceServer, type FaultName } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { loadProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';

// Every fault the load side must catch: the rate-limit ones plus the per-response header ones.
const LOAD_FAULTS = FAULT_NAMES.filter((f) => FAULTS[f].by !== 'conformance' && (f.startsWith('ratelimit-') || f.startsWith('request-id')));

// Faults judged over whole windows need windows long enough to see a refill on both sides, and a
// Retry-After that can be seconds shorter than the wait: 3 s windows for those, 1 s for the rest.
const LONG_WINDOW = new Set<string>(['ratelimit-over-admit', 'ratelimit-retry-after-short']);
/** Faults whose clause is judged over whole windows (admissions per window, restores, waits). */
const WINDOW_JUDGED = new Set<string>([...LONG_WINDOW, 'ratelimit-early-429', 'ratelimit-no-restore', 'ratelimit-shared-classes']);
const OVER_WINDOWS = LOAD_FAULTS.filter((f) => WINDOW_JUDGED.has(f));
const PER_RESPONSE = LOAD_FAULTS.filter((f) => !WINDOW_JUDGED.has(f));

async function runWith(faults: FaultName[]) {
  const long = faults.some((f) => LONG_WINDOW.has(f));
  const budgets = long ? { read: 90, write: 45, windowSeconds: 3 } : { read: 40, write: 20, windowSeconds: 1 };
  const ref = await startReferenceServer({ port: 0, seed: 11, budgets, faults });
  try {
    const target = targetFromInput(ref.target, 'embedded');
    // class-isolation exhausts writes and reads under budget: both classes, 429s and restores all show up.
    return await runProfile({ target, profile: loadProfile('class-isolation'), durationOverride: long ? 6.5 : 2.6 });
  } finally {
    await ref.close();
  }
}

describe('load-side faults are caught', () => {
  it('covers every load fault of the catalogue', () => {
    expect(LOAD_FAULTS.length).toBeGreaterThanOrEqual(12);
  });

  it('the clean server gives no finding and no violation', async () => {
    const { result, findings } = await runWith([]);
    expect(findings).toEqual([]);
    expect(result.rateLimit.violations).toEqual([]);
    expect(result.status).toBe('passed');
  });

  // Each case has its own server and a low-rate profile. Faults seen in single responses run side by side;
  // those judged over whole windows run alone: beside other runs, the late timers of a busy process leave
  // over-admit, no-restore and shared-classes without any finding (their windows need a run on its own).
  it.concurrent.for(PER_RESPONSE)('%s → its clause appears as a finding, citing requests', async (fault, { expect }) => {
    await expectCaught(fault, expect);
  });
  it.for(OVER_WINDOWS)('%s → its clause appears as a finding, citing requests', async (fault, { expect }) => {
    await expectCaught(fault, expect);
  });
});

/** Runs class-isolation against the fault and asserts its clause is a finding that cites requests. */
async function expectCaught(fault: FaultName, expect: ExpectStatic): Promise<void> {
  const { result, findings } = await runWith([fault]);
  const want = FAULTS[fault].catches;
  const hit = findings.find((f) => f.clause === want);
  expect(hit, `${fault}: clauses found: ${findings.map((f) => f.clause).join(', ')}`).toBeDefined();
  expect(hit!.source).toBe('class-isolation');
  // The responses that show it are cited by request id (or #n@ms where the response carried none).
  expect(hit!.actual).toMatch(/\(requests (req_|#\d+@)\S+/);
  expect(result.status).toBe('failed');
  // Repeats are folded: at most one finding per clause and route class.
  expect(findings.filter((f) => f.clause === want).length).toBeLessThanOrEqual(2);
}
