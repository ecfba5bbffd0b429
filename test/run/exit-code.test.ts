/**
 * The one exit-code rule (src/run/exit-code.ts): every command that writes results exits by its verdict,
 * a failed reporter raises a clean run to 1, and a shard that completed leaves the verdict to merge.
 */
import { describe, expect, it } from 'vitest';
import { exitCode, exitCodeForVerdict } from '../../src/run/exit-code.js';
import type { Verdict } from '../../src/results/verdict.js';

const VERDICTS: Verdict[] = ['passed', 'failed', 'aborted', 'error'];

describe('exit code', () => {
  it('follows the verdict: 0 passed, 1 failed, 3 aborted or errored', () => {
    expect(VERDICTS.map((verdict) => exitCode({ verdict }, { renderCode: 0 }))).toEqual([0, 1, 3, 3]);
    expect(VERDICTS.map(exitCodeForVerdict)).toEqual([0, 1, 3, 3]);
  });

  it('a reporter that failed raises a passed run to 1, and never lowers a 3', () => {
    expect(VERDICTS.map((verdict) => exitCode({ verdict }, { renderCode: 1 }))).toEqual([1, 1, 3, 3]);
  });

  it("a shard that completed exits with the reporters' code alone; an aborted or errored shard exits 3", () => {
    expect(VERDICTS.map((verdict) => exitCode({ verdict }, { renderCode: 0, shard: true }))).toEqual([0, 0, 3, 3]);
    expect(VERDICTS.map((verdict) => exitCode({ verdict }, { renderCode: 1, shard: true }))).toEqual([1, 1, 3, 3]);
  });
});
