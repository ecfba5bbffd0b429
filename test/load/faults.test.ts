import { describe, expect, it, type ExpectStatic } from 'vitest';
import { FAULTS, type FaultName } from '../../src/reference/index.js';
import { LOAD_FAULTS, WINDOW_JUDGED, runLoadWith as runWith } from './support/load-faults.js';

const OVER_WINDOWS = LOAD_FAULTS.filter((f) => WINDOW_JUDGED.has(f));
const PER_RESPONSE = LOAD_FAULTS.filter((f) => !WINDOW_JUDGED.has(f));

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
