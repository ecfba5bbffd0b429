/** Turns check outcomes into CheckResults and FindingRecords (severity by basis, reproductions). */
import type { Exchange } from '../client/exchange.js';
import { clause, type ClauseId } from '../spec/clauses.js';
import type { CheckResult, FindingRecord } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import { rerunCommand, toCurl } from './reproduction.js';
import type { CheckDef, CheckFailure, CheckOutcome } from './suite.js';

// A property case may send many requests; a finding keeps the last few, where the decisive one is.
const MAX_EXCHANGES_PER_FINDING = 8;

export interface FindingContext {
  suite: string;
  check: CheckDef;
  target: Target;
  seed: number;
  runs: number;
}

/** The FindingRecord of one failure; its exchanges are returned for the results' exchange list. */
export function toFinding(f: CheckFailure, fc: FindingContext): { finding: FindingRecord; exchanges: Exchange[] } {
  const id: ClauseId = f.clause ?? fc.check.clause;
  const cl = clause(id);
  const severity = f.severity === 'warning' || (cl.basis === 'assumed' && !fc.target.assumptions.strict) ? 'warning' : 'error';
  const exchanges = f.exchanges.slice(-MAX_EXCHANGES_PER_FINDING);
  const title = id === fc.check.clause ? fc.check.title : `${fc.check.title}: ${cl.summary}`;
  const finding: FindingRecord = {
    checkId: fc.check.id,
    clause: id,
    basis: cl.basis,
    severity,
    title,
    expected: f.expected,
    actual: f.actual,
    exchangeIds: exchanges.map((x) => x.id),
    reproduction: {
      seed: fc.seed,
      ...(f.path ? { path: f.path } : {}),
      curl: exchanges.flatMap((x) => toCurl(x, { baseUrl: fc.target.baseUrl })),
      command: rerunCommand({
        suite: fc.suite,
        checkId: fc.check.id,
        seed: fc.seed,
        runs: fc.runs,
        targetSource: fc.target.source,
        ...(fc.target.baseUrlOverride !== undefined ? { baseUrlOverride: fc.target.baseUrlOverride } : {}),
      }),
    },
    source: fc.suite,
  };
  return { finding, exchanges };
}

/** The CheckResult of an outcome: failures of assumed clauses only make it 'warned'. */
export function toCheckResult(
  outcome: CheckOutcome | { status: 'error'; reason: string },
  findings: FindingRecord[],
  fc: Pick<FindingContext, 'suite' | 'check'>,
  durationMs: number,
): CheckResult {
  const base = {
    checkId: fc.check.id,
    clause: fc.check.clause,
    basis: clause(fc.check.clause).basis,
    suite: fc.suite,
    title: fc.check.title,
    findings: findings.length,
    durationMs: Math.max(0, Math.round(durationMs)),
  };
  switch (outcome.status) {
    case 'skipped':
      return { ...base, status: 'skipped', reason: outcome.reason, cases: 0 };
    case 'inconclusive':
      return {
        ...base,
        status: 'inconclusive',
        reason: outcome.reason,
        cases: outcome.cases,
        ...(outcome.remedy ? { remedy: outcome.remedy } : {}),
      };
    case 'error':
      return { ...base, status: 'error', reason: outcome.reason, cases: 0 };
    case 'passed':
    case 'failed': {
      const note = outcome.status === 'passed' && outcome.note ? { reason: outcome.note } : {};
      if (findings.length === 0) return { ...base, status: 'passed', cases: outcome.cases, ...note };
      const status = findings.some((f) => f.severity === 'error') ? 'failed' : 'warned';
      return { ...base, status, cases: outcome.cases };
    }
  }
}
