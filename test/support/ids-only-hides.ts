/**
 * Checks an ids-only target (no fixtures API: the server's --target-out without fixtures.api) cannot let
 * judge on the reference server, with why: only these may end inconclusive in a run through one, besides
 * what a world hides (world-matrix.ts).
 */
import { explainedByMachine } from './machine-hides.js';

/** Check id → why an ids-only target cannot let it judge on the reference server. */
export const IDS_ONLY_HIDES: Readonly<Record<string, string>> = {
  'helpcenter.idempotency.revoked-no-replay':
    "the reference server scopes Idempotency-Keys to the connection, so the target file's revoked key never stored an answer; " +
    "judging a revoked grant's own replay needs a fixtures API that revokes the delegated key after its update",
};

/** The inconclusive lines ("checkId: reason") an ids-only run on this machine does not explain (MACHINE_HIDES: a loaded machine). */
export function unexplainedIdsOnly(lines: readonly string[]): string[] {
  return lines.filter((line) => !Object.hasOwn(IDS_ONLY_HIDES, line.slice(0, line.indexOf(':'))) && !explainedByMachine(line));
}
