/**
 * The conformance runner: selects suites, gives each check a context, skips checks whose needs the target
 * cannot meet, and collects CheckResults, Findings and the exchanges the findings refer to. Aborting the
 * signal stops sending at once; the partial results come back with aborted: true.
 */
import { createClient } from '../client/client.js';
import { createRedactor } from '../client/redact.js';
import type { Exchange } from '../client/exchange.js';
import type { HttpClient } from '../client/types.js';
import { SpgateError } from '../errors.js';
import type { z } from 'zod';
import type { CheckResult, ExchangeRecord, FindingRecord } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import { clientTimeouts } from '../target/timeouts.js';
import { ruleOffReason } from '../target/rules.js';
import { didYouMean } from '../target/suggest.js';
import { RunAborted } from './aborted.js';
import { createCheckContext, RateLimited, type RunState } from './context.js';
import { createFixturesClient } from './fixtures-client.js';
import type { FixturesApi } from './fixtures.js';
import { toCheckResult, toFinding } from './findings.js';
import { providerChain } from './fixtures/chain.js';
import { createFixtureSource, unmetData } from './fixtures/provider.js';
import { Inconclusive } from './inconclusive.js';
import { withoutCuts } from './recorder.js';
import type { ProgressEvent } from './progress.js';
import { checkSeed } from './seeds.js';
import type { CheckDef, CheckOutcome, SuiteDef } from './suite.js';

export interface ConformanceOptions {
  target: Target;
  /** Suite names; all suites when absent or empty. */
  suites?: string[];
  /** Check ids; only these checks of the selected suites run (all when absent or empty). */
  checks?: string[];
  runs: number;
  seed: number;
  signal?: AbortSignal;
  onProgress?: (e: ProgressEvent) => void;
  /** Client to send through (not closed by the runner); one is created for the target otherwise. */
  client?: HttpClient;
  /** Fixtures API to use instead of the target's (tests). */
  fixtures?: FixturesApi;
  /** The suite catalogue to select from: the caller's (suites/index.ts SUITES, or a test's), so the runner sits below the suites. */
  catalogue: SuiteDef[];
}

export interface ConformanceOutcome {
  checks: CheckResult[];
  findings: FindingRecord[];
  exchanges: Array<z.infer<typeof ExchangeRecord>>;
  aborted: boolean;
}

/** Resolves suite names against the catalogue; observing suites run last. Throws on an unknown name. */
export function selectSuites(names: string[] | undefined, catalogue: SuiteDef[]): SuiteDef[] {
  let chosen = catalogue;
  if (names && names.length > 0) {
    const unknown = names.filter((n) => !catalogue.some((s) => s.name === n));
    if (unknown.length) {
      const names = catalogue.map((s) => s.name);
      throw new SpgateError(
        'SPGATE_ERR_SUITE_UNKNOWN',
        `unknown suite ${unknown.map((n) => `"${n}"${didYouMean(n, names)}`).join(', ')}; valid suites: ${names.join(', ')}`,
      );
    }
    chosen = catalogue.filter((s) => names.includes(s.name));
  }
  return [...chosen.filter((s) => !s.observesRun), ...chosen.filter((s) => s.observesRun)];
}

/** Why a check cannot run against this target, or undefined when it can (data needs checked statically). */
export function unmetNeeds(check: CheckDef, target: Target, hasFixtures: boolean): string | undefined {
  const missing = (check.needs?.roles ?? []).filter((r) => !target.secrets[r]);
  if (missing.length) return `the target has no key for role ${missing.join(', ')}`;
  if (check.needs?.fixtures && !hasFixtures) return 'needs a fixtures API (target fixtures.api) to create data';
  if (check.needs?.writes && !target.allowWrites) return 'changes data, and the target does not set allowWrites';
  return ruleOffReason(check.clause, target.assumptions) ?? unmetData(providerChain(target, { hasApi: hasFixtures }), check.needs?.data);
}

/** Narrows suites to the named check ids (suites left without checks drop out). Throws on an unknown id. */
export function selectChecks(suites: SuiteDef[], ids: string[] | undefined, catalogue: SuiteDef[]): SuiteDef[] {
  if (!ids || ids.length === 0) return suites;
  const known = new Set(catalogue.flatMap((s) => s.checks.map((c) => c.id)));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length)
    throw new SpgateError(
      'SPGATE_ERR_CHECK_UNKNOWN',
      `unknown check ${unknown.map((n) => `"${n}"${didYouMean(n, [...known])}`).join(', ')}`,
    );
  const wanted = new Set(ids);
  return suites.map((s) => ({ ...s, checks: s.checks.filter((c) => wanted.has(c.id)) })).filter((s) => s.checks.length > 0);
}

const UNREACHABLE = new Set(['refused', 'timeout', 'reset']);

/** Runs the selected suites against the target. */
export async function runConformance(opts: ConformanceOptions): Promise<ConformanceOutcome> {
  const suites = selectChecks(selectSuites(opts.suites, opts.catalogue), opts.checks, opts.catalogue);
  const signal = opts.signal ?? new AbortController().signal;
  const client =
    opts.client ??
    createClient({
      baseUrl: opts.target.baseUrl,
      secrets: opts.target.secrets,
      signal,
      tls: opts.target.tls,
      ...clientTimeouts(opts.target),
    });
  const redact = createRedactor(opts.target.secrets);
  const fixtures = opts.fixtures ?? (opts.target.fixtures.api ? createFixturesClient(client, opts.target.fixtures.api) : undefined);
  const source = createFixtureSource(providerChain(opts.target, { api: fixtures, signal }));
  const checks: CheckResult[] = [];
  const findings: FindingRecord[] = [];
  const referenced = new Map<string, Exchange>();
  let aborted = signal.aborted;
  let where = { suite: '', checkId: '' };

  const emit = (e: Record<string, unknown> & { type: ProgressEvent['type'] }): void => {
    opts.onProgress?.({ ...e, requests: state.requests, findings: findings.length } as ProgressEvent);
  };
  const state: RunState = {
    client,
    target: opts.target,
    signal,
    observed: [],
    requests: 0,
    onRequest: () => emit({ type: 'request', ...where }),
    ...(fixtures ? { fixtures } : {}),
  };

  try {
    emit({
      type: 'run-started',
      suites: suites.map((s) => s.name),
      checks: suites.reduce((n, s) => n + s.checks.length, 0),
      seed: opts.seed,
      runs: opts.runs,
    });
    if (!aborted) await preflight(client, opts.target);
    for (const suite of suites) {
      if (aborted) break;
      emit({ type: 'suite-started', suite: suite.name, checks: suite.checks.length });
      const suiteResults: CheckResult[] = [];
      for (const check of suite.checks) {
        if (signal.aborted) {
          aborted = true;
          break;
        }
        where = { suite: suite.name, checkId: check.id };
        emit({ type: 'check-started', suite: suite.name, checkId: check.id, clause: check.clause });
        const started = performance.now();
        const fc = { seed: checkSeed(opts.seed, check.id), numRuns: opts.runs };
        const made = createCheckContext(state, fc);
        const extraFailures = made.extraFailures;
        const ctx = { ...made.ctx, data: source.forCheck(check.id) };
        let outcome: CheckOutcome | { status: 'error'; reason: string };
        let rateLimited = false;
        const unmet = unmetNeeds(check, opts.target, fixtures !== undefined);
        if (unmet) outcome = { status: 'skipped', reason: unmet };
        else {
          try {
            // A failure built on a request spgate gave up on is a cut, whichever way the check built it (recorder.ts).
            outcome = withoutCuts(await check.run(ctx));
          } catch (err) {
            if (err instanceof RunAborted || signal.aborted) {
              aborted = true;
              outcome = { status: 'skipped', reason: 'the run was aborted' };
            } else if (err instanceof RateLimited) {
              // Only 429s: nothing is known about the check's own clause, so it could not judge, never failed.
              rateLimited = true;
              outcome = {
                status: 'inconclusive',
                cases: 0,
                reason: redact.redactString(err.message),
                remedy: 'run when the budget is not spent, or raise assumptions.rateLimitWaitSeconds',
              };
            } else if (err instanceof Inconclusive) {
              outcome = {
                status: 'inconclusive',
                cases: 0,
                reason: redact.redactString(err.message),
                ...(err.remedy ? { remedy: redact.redactString(err.remedy) } : {}),
              };
            } else {
              outcome = { status: 'error', reason: redact.redactString(err instanceof Error ? err.message : String(err)) };
            }
          }
        }
        // Notes on the 429s themselves (no Retry-After, Retry-After not honoured) are findings of their own
        // clauses and stay, also when the check was skipped as rate limited.
        const judgedNothing = outcome.status === 'skipped' || outcome.status === 'inconclusive';
        const failures = [
          ...(outcome.status === 'failed' ? outcome.failures : []),
          ...(judgedNothing && !rateLimited ? [] : extraFailures),
        ];
        const fctx = { suite: suite.name, check, target: opts.target, seed: opts.seed, runs: opts.runs };
        const mine: FindingRecord[] = [];
        for (const f of failures) {
          const { finding, exchanges } = toFinding(f, fctx);
          for (const x of exchanges) referenced.set(x.id, x);
          mine.push(finding);
          findings.push(finding);
          emit({ type: 'finding', suite: suite.name, finding });
        }
        const result = toCheckResult(outcome, mine, fctx, performance.now() - started);
        checks.push(result);
        suiteResults.push(result);
        emit({ type: 'check-finished', suite: suite.name, result });
        if (aborted) break;
      }
      emit({ type: 'suite-finished', suite: suite.name, results: suiteResults });
    }
  } finally {
    if (!opts.client) await client.close();
  }
  emit({ type: 'run-finished', aborted });
  return { checks, findings, exchanges: [...referenced.values()].sort(byExchangeId), aborted };
}

function byExchangeId(a: Exchange, b: Exchange): number {
  return Number(a.id.replace(/\D/g, '')) - Number(b.id.replace(/\D/g, ''));
}

/** One request before any suite runs, so an unreachable target is one clear error instead of N findings. */
async function preflight(client: HttpClient, target: Target): Promise<void> {
  const x = await client.send({
    method: 'GET',
    path: '/me',
    role: 'admin',
    timeoutMs: Math.min(15_000, target.timeouts?.requestMs ?? Infinity),
  });
  if (x.error && UNREACHABLE.has(x.error.kind)) {
    throw new SpgateError('SPGATE_ERR_TARGET_UNREACHABLE', `${target.baseUrl} did not answer: ${x.error.message}`);
  }
}
