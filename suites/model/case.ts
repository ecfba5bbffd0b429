/**
 * Case plumbing shared by the stateful suites: a recorder that keeps every exchange of one case, failed
 * expectations collected as data, and the conversion into a CheckOutcome. A case stops early only when a
 * later step would be meaningless (CaseAbort); otherwise every expectation is evaluated and reported.
 */
import type { Exchange } from '../../src/client/exchange.js';
import type { RequestSpec } from '../../src/client/types.js';
import type { CheckFailure, CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import type { ClauseId } from '../../src/spec/clauses.js';
import type { FixturesApi } from '../../src/conformance/fixtures.js';

/** Thrown to stop a case at a failed expectation; carries the exchanges that show it. */
export class CaseAbort extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
    readonly exchanges: Exchange[],
    /** Set when the failure breaks another clause than the check's own. */
    readonly clause?: ClauseId,
  ) {
    super(`expected ${expected}; got ${actual}`);
    this.name = 'CaseAbort';
  }
}

/** Records the exchanges and the failed expectations of one case. */
export class CaseRecorder {
  readonly exchanges: Exchange[] = [];
  readonly failures: CheckFailure[] = [];
  /** Expectations evaluated (reported as the check's case count). */
  cases = 0;

  constructor(private readonly sender: { send(spec: RequestSpec): Promise<Exchange> }) {}

  /** Sends through the suite context and keeps the exchange. */
  async send(spec: RequestSpec): Promise<Exchange> {
    const x = await this.sender.send(spec);
    this.exchanges.push(x);
    return x;
  }

  /** Evaluates one expectation; a false `ok` is recorded as a failure and the case goes on. */
  expect(ok: boolean, expected: string, actual: () => string, exchanges?: Exchange[]): boolean {
    this.cases++;
    if (!ok) this.failures.push({ expected, actual: actual(), exchanges: exchanges ?? [...this.exchanges] });
    return ok;
  }

  /** Evaluates one expectation and stops the case when it fails. */
  require(ok: boolean, expected: string, actual: () => string, exchanges?: Exchange[]): void {
    this.cases++;
    if (!ok) throw new CaseAbort(expected, actual(), exchanges ?? [...this.exchanges]);
  }
}

/** Runs one example-based case and turns what it recorded into a CheckOutcome. */
export async function runCase(ctx: SuiteContext, body: (rec: CaseRecorder) => Promise<void>): Promise<CheckOutcome> {
  const rec = new CaseRecorder(ctx);
  try {
    await body(rec);
  } catch (err) {
    if (!(err instanceof CaseAbort)) throw err;
    rec.failures.push({ expected: err.expected, actual: err.actual, exchanges: err.exchanges, ...(err.clause ? { clause: err.clause } : {}) });
  }
  const cases = Math.max(rec.cases, 1);
  return rec.failures.length ? { status: 'failed', cases, failures: rec.failures } : { status: 'passed', cases };
}

/** The fixtures API of the context; checks that call this declare `needs.fixtures`, so absence is a bug. */
export function fixturesOf(ctx: SuiteContext): FixturesApi {
  if (!ctx.fixtures) throw new Error('this check needs the fixtures API, which the target does not provide');
  return ctx.fixtures;
}

/** HTTP status of an exchange, or undefined after a transport error. */
export function statusOf(x: Exchange): number | undefined {
  return x.response?.status;
}

/** `error.code` of an error envelope, when the body is one. */
export function errorCodeOf(x: Exchange): string | undefined {
  const json = x.response?.json as { error?: { code?: unknown } } | undefined;
  const code = json?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a 2xx answer. */
export function isSuccess(x: Exchange): boolean {
  const s = statusOf(x);
  return s !== undefined && s >= 200 && s < 300;
}

/** One-line description of what came back, for `actual` texts (bodies are already redacted). */
export function describe(x: Exchange): string {
  if (!x.response) return `no response (${x.error?.kind ?? 'error'}: ${x.error?.message ?? 'unknown'})`;
  const code = errorCodeOf(x);
  return `HTTP ${x.response.status}${code ? ` ${code}` : ''} (${x.id})`;
}

/** The JSON body as a plain object, or undefined. */
export function jsonObject(x: Exchange): Record<string, unknown> | undefined {
  const j = x.response?.json;
  return j && typeof j === 'object' && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
}

/** Compact JSON of a value for messages, cut to a readable length. */
export function brief(value: unknown, max = 200): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
