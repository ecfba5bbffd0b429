/**
 * The one way to write a check. A Recorder sends through the check's context and keeps the exchanges,
 * evaluates expectations (each counted as a case) and collects failures as CheckFailures — the one failure
 * type. `require` stops the case at a failed expectation that would make later steps meaningless
 * (CheckAbort); everything else is evaluated and reported. `describeAnswer` is the one description of an
 * answer in failure texts (bodies are already redacted by the client).
 *
 * A failed expectation on a request spgate gave up on (the client's 'timeout') is a cut, not a failure: the
 * server may still have answered correctly, so a loaded machine or a slow staging would otherwise turn into a
 * finding. A reset or a refused connection is the server's doing and stays a failure. `cutBy` is the one rule;
 * `outcome()` (every single case) and runProperty (every generated run) apply it.
 */
import type { Exchange } from '../client/exchange.js';
import type { RequestSpec } from '../client/types.js';
import { describeBody } from '../checks/envelope.js';
import type { ClauseViolation } from '../checks/envelope.js';
import type { ClauseId } from '../spec/clauses.js';
import type { SignedUrl } from '../client/signed-url.js';
import type { CheckFailure, CheckOutcome, SuiteContext } from './suite.js';
import { Inconclusive } from './inconclusive.js';

/** "HTTP 401 code auth.invalid (x12) — body" for an exchange, or the transport error. */
export function describeAnswer(x: Exchange): string {
  if (!x.response) return `no response (${x.error?.kind ?? 'error'}: ${x.error?.message ?? ''})`;
  const code = errorCodeOf(x);
  return `HTTP ${x.response.status}${code !== undefined ? ` code ${code}` : ''} (${x.id}) — ${describeBody(x)}`;
}

/** The exchange among `f`'s that spgate gave up on (no response, 'timeout'), if any: then `f` judged nothing. */
export function cutBy(f: Pick<CheckFailure, 'exchanges'>): Exchange | undefined {
  return f.exchanges.find((x) => !x.response && x.error?.kind === 'timeout');
}

/** What lets a check with cut cases judge: the target-file field that bounds a request, or a quieter machine. */
export const CUT_REMEDY = "raise the target file's timeouts.requestMs (docs/target-file.md#timeouts) or run on a less loaded machine";

/** "N of M cases cut by requests spgate gave up on after T ms (first: …)" for cut failures, `first` among them. */
export function cutReason(n: number, of: number, first: CheckFailure): string {
  const x = cutBy(first);
  const ms = /within (\d+) ms/.exec(x?.error?.message ?? '')?.[1] ?? String(Math.round(x?.timings.total ?? 0));
  return `${n} of ${of} cases cut by requests spgate gave up on after ${ms} ms (first: expected ${first.expected}; got ${first.actual})`;
}

/**
 * `o` under the cutBy rule: a failed outcome keeps only its failures that are not cuts, and is inconclusive
 * when every one was a cut. Recorder.outcome and the runner (for outcomes a check builds itself) apply it.
 */
export function withoutCuts(o: CheckOutcome): CheckOutcome {
  if (o.status !== 'failed') return o;
  const failures = o.failures.filter((f) => !cutBy(f));
  if (failures.length === o.failures.length) return o;
  if (failures.length) return { ...o, failures };
  return { status: 'inconclusive', cases: o.cases, reason: cutReason(o.failures.length, o.cases, o.failures[0]!), remedy: CUT_REMEDY };
}

/** Thrown by Recorder.require to stop a case; carries the failure. */
export class CheckAbort extends Error {
  constructor(readonly failure: CheckFailure) {
    super(`expected ${failure.expected}; got ${failure.actual}`);
    this.name = 'CheckAbort';
  }
}

/**
 * Thrown by Recorder.discard: the server refused an input whose acceptance the spec does not require, so the
 * case judges nothing. A property counts it as discarded; a single case makes the check inconclusive.
 */
export class CaseDiscard extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'CaseDiscard';
  }
}

/** What a Recorder sends through: a check's context (SuiteContext), or anything with its send. */
export type Sender = { send(spec: RequestSpec): Promise<Exchange> } & Partial<Pick<SuiteContext, 'sendForSignedUrl' | 'fetchSigned'>>;

/** Records the exchanges, cases and failures of one check (or one property run). */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly failures: CheckFailure[] = [];
  /** Expectations evaluated (reported as the check's case count). */
  cases = 0;

  constructor(private readonly sender?: Sender) {}

  /** Sends through the context and keeps the exchange. */
  async send(spec: RequestSpec): Promise<Exchange> {
    if (!this.sender) throw new Error('this Recorder was made without a sender');
    const x = await this.sender.send(spec);
    this.exchanges.push(x);
    return x;
  }

  /** Sends like `send`, and hands back the signed URL at `field` of a 200 answer (SuiteContext.sendForSignedUrl). */
  async sendForSignedUrl(spec: RequestSpec, field: string): Promise<{ exchange: Exchange; url?: SignedUrl }> {
    if (!this.sender?.sendForSignedUrl) throw new Error('this Recorder was made without a signed-URL sender');
    const r = await this.sender.sendForSignedUrl(spec, field);
    this.exchanges.push(r.exchange);
    return r;
  }

  /** Fetches a signed URL (SuiteContext.fetchSigned) and keeps its redacted exchange. */
  async fetchSigned(url: SignedUrl): Promise<Exchange> {
    if (!this.sender?.fetchSigned) throw new Error('this Recorder was made without a signed-URL sender');
    const x = await this.sender.fetchSigned(url);
    this.exchanges.push(x);
    return x;
  }

  /** Evaluates one expectation; a false `ok` is recorded as a failure and the check goes on. */
  expect(ok: boolean, expected: string, actual: () => string, exchanges?: Exchange[], clause?: ClauseId): boolean {
    this.add(ok ? undefined : { expected, actual: actual(), exchanges: exchanges ?? [...this.exchanges], ...(clause ? { clause } : {}) });
    return ok;
  }

  /** Evaluates one expectation and stops the case (CheckAbort) when it fails. */
  require(ok: boolean, expected: string, actual: () => string, exchanges?: Exchange[], clause?: ClauseId): void {
    this.cases++;
    if (!ok)
      throw new CheckAbort({ expected, actual: actual(), exchanges: exchanges ?? [...this.exchanges], ...(clause ? { clause } : {}) });
  }

  /** Stops the case as discarded (see CaseDiscard): `why` names the refused input and the answer. */
  discard(why: string): never {
    throw new CaseDiscard(why);
  }

  /** Counts one case and keeps its failure, if any (for checks that build failures themselves). */
  add(f: CheckFailure | undefined): void {
    this.cases++;
    if (f) this.failures.push(f);
  }

  /**
   * Merges a sub-outcome (e.g. a property) into this record. A sub-outcome that could not judge stops the
   * check as inconclusive unless it has already failed: its part would otherwise pass unjudged.
   */
  merge(o: CheckOutcome): void {
    if (o.status === 'skipped') return;
    this.cases += o.cases;
    if (o.status === 'failed') this.failures.push(...o.failures);
    if (o.status === 'inconclusive' && !this.failures.some((f) => !cutBy(f))) throw new Inconclusive(o.reason, o.remedy);
  }

  /**
   * failed with the failures that are not cuts (cuts never hide a finding); inconclusive when every failure
   * is a cut (cutBy); else passed. The cases counted either way.
   */
  outcome(): CheckOutcome {
    return withoutCuts(
      this.failures.length ? { status: 'failed', cases: this.cases, failures: this.failures } : { status: 'passed', cases: this.cases },
    );
  }
}

/** Runs one case with a Recorder over `sender` (the check's context) and returns its outcome; a cut case throws Inconclusive. */
export async function runCase(sender: Sender, body: (rec: Recorder) => Promise<void>): Promise<CheckOutcome> {
  const rec = new Recorder(sender);
  try {
    await body(rec);
  } catch (err) {
    if (err instanceof CaseDiscard && rec.failures.length === 0)
      throw new Inconclusive(
        `the case's input was refused as invalid: ${err.why}`,
        'supply a value the deployment accepts in the target file, where it has a field for it',
      );
    if (!(err instanceof CheckAbort) && !(err instanceof CaseDiscard)) throw err;
    if (err instanceof CheckAbort) rec.failures.push(err.failure);
  }
  rec.cases = Math.max(rec.cases, 1);
  const o = rec.outcome();
  // Thrown like a discard's, so a caller that reads the outcome (a part, a walk's note) never counts it judged.
  if (o.status === 'inconclusive') throw new Inconclusive(o.reason, o.remedy);
  return o;
}

/** A failure unless the response status is one of `statuses`. */
export function expectStatus(x: Exchange, statuses: number | readonly number[], what: string, clause?: ClauseId): CheckFailure | undefined {
  const list = typeof statuses === 'number' ? [statuses] : statuses;
  if (x.response && list.includes(x.response.status)) return undefined;
  return { expected: `${what}: HTTP ${list.join(' or ')}`, actual: describeAnswer(x), exchanges: [x], ...(clause ? { clause } : {}) };
}

/** A ClauseViolation as a CheckFailure with its exchanges. */
export function fromViolation(v: ClauseViolation, exchanges: Exchange[]): CheckFailure {
  return { clause: v.clause, expected: v.expected, actual: v.actual, exchanges, ...(v.severity ? { severity: v.severity } : {}) };
}

/** HTTP status of an exchange, or undefined after a transport error. */
export function statusOf(x: Exchange): number | undefined {
  return x.response?.status;
}

/** `error.code` of an error body, when it has a string one (the rest of the envelope is another check's). */
export function errorCodeOf(x: Exchange): string | undefined {
  const code = (x.response?.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a 2xx answer. */
export function isSuccess(x: Exchange): boolean {
  const s = statusOf(x);
  return s !== undefined && s >= 200 && s < 300;
}

/** The JSON body as a plain object, or undefined. */
export function jsonObject(x: Exchange): Record<string, unknown> | undefined {
  const j = x.response?.json;
  return j && typeof j === 'object' && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
}
