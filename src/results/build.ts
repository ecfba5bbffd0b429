/**
 * Assembles a Results document from what the runner and the load engine return: converts findings and
 * exchanges to their records, keeps only the exchanges findings refer to (a load run records thousands),
 * scrubs any secret that slipped through, and computes the verdict.
 */
import type { Finding } from '../checks/finding.js';
import type { Exchange } from '../client/exchange.js';
import { VERSION } from '../version.js';
import { captureEnvironment } from './environment.js';
import { RESULTS_SCHEMA_VERSION, type CheckResult, type FindingRecord, type ProfileResult, type Results } from './schema.js';
import { computeVerdict } from './verdict.js';

export interface BuildResultsInput {
  command: string;
  target: { name: string; baseUrl: string; embedded: boolean };
  seed?: number;
  runs?: number;
  startedAt: Date;
  finishedAt: Date;
  aborted: boolean;
  abortReason?: string;
  /** What the run left out and why. */
  notes?: string[];
  /** The logical run this document belongs to (shared by shards); SPGATE_RUN_ID when not given. */
  runId?: string;
  /** --fail-on-inconclusive: an inconclusive check fails the run. */
  failOnInconclusive?: boolean;
  checks: CheckResult[];
  findings: Array<Finding | FindingRecord>;
  exchanges: Array<Exchange | ExchangeRecord>;
  load: ProfileResult[];
  errors: string[];
  /** Secret values that must not appear anywhere in the document (belt and braces over the client's redaction). */
  secrets?: string[];
  environment?: Results['meta']['environment'];
}

type ExchangeRecord = Results['exchanges'][number];

/** Builds a complete, verdict-bearing Results document. */
export function buildResults(input: BuildResultsInput): Results {
  const findings: FindingRecord[] = input.findings.map((f) => ({
    checkId: f.checkId,
    clause: f.clause,
    basis: f.basis,
    severity: f.severity,
    title: f.title,
    expected: f.expected,
    actual: f.actual,
    exchangeIds: [...f.exchangeIds],
    ...(f.reproduction ? { reproduction: { ...f.reproduction, curl: [...f.reproduction.curl] } } : {}),
    source: f.source,
  }));
  const wanted = new Set(findings.flatMap((f) => f.exchangeIds));
  const exchanges: ExchangeRecord[] = input.exchanges.filter((x) => wanted.has(x.id)).map((x) => structuredClone(x) as ExchangeRecord);
  const meta: Results['meta'] = {
    tool: { name: 'spgate', version: VERSION },
    command: input.command,
    target: { ...input.target, baseUrl: stripUserInfo(input.target.baseUrl) },
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
    ...(input.runs !== undefined ? { runs: input.runs } : {}),
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    aborted: input.aborted,
    ...(input.abortReason !== undefined ? { abortReason: input.abortReason } : {}),
    ...runIdOf(input),
    ...(input.failOnInconclusive ? { failOnInconclusive: true } : {}),
    ...(input.notes?.length ? { notes: [...input.notes] } : {}),
    environment: input.environment ?? captureEnvironment(),
  };
  const draft = {
    meta,
    checks: input.checks,
    findings,
    exchanges,
    load: input.load,
    errors: [...input.errors, ...judgedNothing(input.checks)],
  };
  const results: Results = { schemaVersion: RESULTS_SCHEMA_VERSION, ...draft, verdict: computeVerdict(draft) };
  return input.secrets?.length ? scrubSecrets(results, input.secrets) : results;
}

/**
 * A run in which checks ran but not one reached a verdict (a target answering only 5xx, say) looked at
 * nothing: that is a run-level error, never a pass, whatever --fail-on-inconclusive says.
 */
function judgedNothing(checks: CheckResult[]): string[] {
  const ran = checks.filter((c) => c.status !== 'skipped');
  const first = ran.find((c) => c.status === 'inconclusive');
  if (!first || ran.some((c) => c.status !== 'inconclusive')) return [];
  return [
    `SPGATE_ERR_NOTHING_JUDGED: no check reached a verdict: all ${ran.length} that ran were inconclusive (first, ${first.checkId}: ${first.reason ?? ''})`,
  ];
}

/** The run id: given, else SPGATE_RUN_ID (a CI run's id, shared by the jobs of a distributed run); none without either. */
function runIdOf(input: BuildResultsInput): { runId?: string } {
  const runId = input.runId || process.env.SPGATE_RUN_ID;
  return runId ? { runId } : {};
}

/** Removes user:password from a URL, which would otherwise be printed in every report. */
export function stripUserInfo(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

/** Returns a deep copy with every occurrence of each secret (of 4+ characters) replaced by "[redacted]". */
export function scrubSecrets<T>(value: T, secrets: string[]): T {
  const list = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return value;
  const scrub = (s: string): string => {
    let out = s;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) o[scrub(k)] = walk(inner);
      return o;
    }
    return v;
  };
  return walk(value) as T;
}
