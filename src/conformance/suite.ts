/**
 * How a conformance suite is written. A suite is a list of checks; each check names its clause and what
 * it needs, runs against a SuiteContext, and returns an outcome. The runner (run.ts) turns outcomes into
 * CheckResults and Findings, adds reproductions and skips checks whose needs the target cannot meet.
 */
import type { ClauseId } from '../spec/clauses.js';
import type { KeyRole, Target } from '../target/schema.js';
import type { Exchange } from '../client/exchange.js';
import type { SignedUrl } from '../client/signed-url.js';
import type { RequestSpec } from '../client/types.js';
import type { FixturesApi } from './fixtures.js';
import type { DataNeeds } from './fixtures/needs.js';
import type { CheckData } from './fixtures/provider.js';

export interface CheckNeeds {
  roles?: KeyRole[];
  /** Needs the fixtures API itself (data of a shape no target file lists). */
  fixtures?: boolean;
  /** Fixture data the check takes through ctx.data, per need: how many items (for plans and docs). */
  data?: DataNeeds;
  /** Changes data: runs only where the target allows writes. */
  writes?: boolean;
}

export interface SuiteContext {
  target: Target;
  /**
   * Sends a request; every exchange is recorded. 429s are waited out per Retry-After within
   * assumptions.rateLimitWaitSeconds; a request answered only 429 throws RateLimited and the check is skipped.
   */
  send(spec: RequestSpec): Promise<Exchange>;
  /** Present when the target has a fixtures API (optional helpers only; checks get data through `data`). */
  fixtures?: FixturesApi;
  /** Fixture data from the provider chain (api, target-file ids and pools, fixtures.command); set by the runner. */
  data?: CheckData;
  /** fast-check parameters for this check: seed and numRuns, derived from --seed and --runs. */
  fc: { seed: number; numRuns: number };
  /**
   * Sends like `send` and hands back the absolute URL at `field` of a 200 answer's JSON as a SignedUrl (a
   * credential the check can fetch but never print; the exchange is redacted like every other).
   */
  sendForSignedUrl(spec: RequestSpec, field: string): Promise<{ exchange: Exchange; url?: SignedUrl }>;
  /** GETs a signed URL without a key; recorded under its redacted form, the body counted, not kept. */
  fetchSigned(url: SignedUrl): Promise<Exchange>;
  /** Sends once, without waiting out a 429 (for checks that drive a budget); recorded like send. */
  sendOnce(spec: RequestSpec): Promise<Exchange>;
  /** Every API exchange recorded so far in this run (all suites), oldest first. */
  observed(): readonly Exchange[];
  /** Aborted when the run is interrupted; long waits inside checks should honour it. */
  signal: AbortSignal;
}

/** A failed expectation: what was expected, what was seen, which exchanges show it. */
export interface CheckFailure {
  expected: string;
  actual: string;
  exchanges: Exchange[];
  /** fast-check counterexample path, when a property found it. */
  path?: string;
  seed?: number;
  /** The clause this failure breaks, when it is not the check's own clause. */
  clause?: ClauseId;
  /**
   * 'warning' where the source only recommends (an RFC's or draft's SHOULD): never an error, whatever the
   * basis. Otherwise the severity follows the clause's basis (assumed: warning unless the target is strict).
   */
  severity?: 'warning';
}

export type CheckOutcome =
  /** note: what a passing check could not see (e.g. a bounded walk that stopped), shown as its reason. */
  | { status: 'passed'; cases: number; note?: string }
  | { status: 'failed'; cases: number; failures: CheckFailure[] }
  /** Ran, but could not observe what it exists for: why, and what would let it judge (inconclusive.ts). */
  | { status: 'inconclusive'; cases: number; reason: string; remedy?: string }
  /** Did not run (a role, writes or a rule the target does not give, or the run was aborted). */
  | { status: 'skipped'; reason: string };

export interface CheckDef {
  /** Stable check id, e.g. "pagination.tampered-cursor". */
  id: string;
  clause: ClauseId;
  title: string;
  needs?: CheckNeeds;
  run(ctx: SuiteContext): Promise<CheckOutcome>;
}

export interface SuiteDef {
  name: string;
  description: string;
  checks: CheckDef[];
  /** Runs after every other selected suite, so its checks can inspect what ctx.observed() recorded. */
  observesRun?: boolean;
}

/** Declares a suite (identity function that fixes the type). */
export function defineSuite(suite: SuiteDef): SuiteDef {
  return suite;
}
