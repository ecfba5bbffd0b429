/** Runs one of the suites against the reference server with a fault switched on (tests only). */
import {
  startReferenceServer,
  type FaultName,
  type ReferenceServerOptions,
  type RunningReferenceServer,
} from '../../../src/reference/index.js';
import { targetFromInput } from '../../../src/target/resolve.js';
import { type ConformanceOutcome } from '../../../src/conformance/run.js';
import { runConformance } from '../../support/conformance.js';

/** Faults (by: conformance | both) that this area's suites must catch, by suite. */
export const FAULTS_BY_SUITE: Record<string, FaultName[]> = {
  auth: [
    'auth-legacy-prefix-rejected',
    'auth-expired-accepted',
    'auth-revoked-accepted',
    'auth-bad-key-403',
    'auth-scheme-lenient',
    'attachments-single-scope',
    'readonly-can-write',
    'auth-missing-anonymous',
    'legacy-test-isolated',
    'workspace-header-required',
    'workspace-leak',
    'attachments-conversations-scope-unchecked',
    'readonly-can-delete-customers',
    'scope-unchecked-on-articles',
    'search-no-tenant-filter',
    'delete-cross-workspace',
    'workspace-leak-articles',
    'workspace-leak-me',
    'workspace-leak-team',
  ],
  errors: [
    'request-id-mismatch',
    'request-id-missing-on-success',
    'not-found-code',
    'error-envelope-flat',
    'error-codes-upper-case',
    'unknown-status-code',
  ],
  pagination: [
    'cursor-lenient',
    'cursor-unbound-filter',
    'limit-unbounded',
    'limit-default-20',
    'cursor-offset',
    'has-more-stale',
    'search-case-sensitive',
    'search-skips-company',
    'identity-single-param',
    'articles-has-more',
    'cursor-overlap',
    'cursor-raw-query',
    'external-id-ignored',
    'last-page-empty-cursor',
  ],
  limits: [
    'body-limit-ignored',
    'write-body-limit-ignored',
    'body-limit-code',
    'ratelimit-headers-missing-on-errors',
    'ratelimit-no-retry-after',
    'ratelimit-429-code',
    'ratelimit-reset-ms',
    'ratelimit-remaining-negative',
    'write-body-limit-assign-only',
    'read-body-limit-customers-only',
    'collection-body-limit-code',
    'ratelimit-limit-drifts',
    'ratelimit-shared-classes',
    'ratelimit-reset-epoch',
  ],
  shapes: [
    'conversation-omits-nulls',
    'customer-count-string',
    'turn-missing-expires',
    'session-title-null',
    'descriptor-size-string',
    'collection-translations-object',
    'me-text-plain',
    'statuses-display-keys',
    'priorities-drop-last',
    'timestamps-no-offset',
    'conversation-status-label',
    'request-ids-unprefixed',
    'turn-unwrapped',
    'collection-translation-revision-string',
  ],
};

/**
 * Budgets for runs of the limits suite: its drives to a 429 take about a second and what
 * limits.remaining-decreases waits out (Reset, then Reset + 1 s) about 2 s, where the default dialect's 1000
 * reads per 5 s take seconds to drive, and a loaded machine could not send 1000 reads inside one 5 s window
 * (limits.429-read inconclusive: its budget kept coming back during the drive).
 */
export const LIMITS_BUDGETS = { read: 100, write: 30, windowSeconds: 2 } as const;

/** One reference server for a test file (the default dialect's budgets unless given); faults are switched per run. */
export async function startServer(budgets?: ReferenceServerOptions['budgets']): Promise<RunningReferenceServer> {
  return startReferenceServer({ port: 0, seed: 1, budgets });
}

/** Runs suites (only `checks` of them when given) against the server with exactly `faults` on. */
export async function runWith(
  server: RunningReferenceServer,
  faults: FaultName[],
  suites: string[],
  seed = 11,
  runs = 5,
  checks?: string[],
): Promise<ConformanceOutcome> {
  server.setFaults(faults);
  return runConformance({ target: targetFromInput(server.target, 'embedded'), suites, checks, runs, seed });
}

/**
 * Runs `checks` once (runs 1, seed 1) against the server with exactly `faults` on, after `before` (e.g. a
 * budget reset); the faults are switched off again afterwards.
 */
export async function runChecks(
  server: RunningReferenceServer,
  checks: string[],
  faults: FaultName[] = [],
  before?: () => Promise<void>,
): Promise<ConformanceOutcome> {
  server.setFaults(faults);
  try {
    await before?.();
    return await runConformance({ target: targetFromInput(server.target, 'embedded'), checks, runs: 1, seed: 1 });
  } finally {
    server.setFaults([]);
  }
}
