/**
 * A check made of independent parts (auth.other-workspace's operations, auth.scope-missing's role ×
 * operation pairs, auth.legacy-same-data's keys): each part is one case that judges, fails, or could not
 * judge (no data, no writes, a read that failed), and a part that could not judge is named, never counted
 * as passed. The check passes only when some part judged; when none did it is inconclusive with every
 * reason and remedy.
 */
import type { Exchange } from '../../src/client/exchange.js';
import type { RequestSpec } from '../../src/client/types.js';
import { Inconclusive } from '../../src/conformance/inconclusive.js';
import { describeAnswer, expectStatus, runCase, statusOf, type Recorder } from '../../src/conformance/recorder.js';
import type { CheckFailure, CheckOutcome } from '../../src/conformance/suite.js';
import type { ClauseId } from '../../src/spec/clauses.js';
import { cannotJudge } from './world.js';

/** True when the answer is no answer of the server's own (a transport error, a 5xx): it shows no verdict. */
export function unanswered(x: Exchange): boolean {
  const s = statusOf(x);
  return s === undefined || s >= 500;
}

/** The judged, failed and untried parts of one check run. */
export class Parts {
  private readonly judged: string[] = [];
  private readonly untried: string[] = [];
  private readonly remedies = new Set<string>();
  private readonly failures: CheckFailure[] = [];
  private cases = 0;

  constructor(private readonly sender: { send(spec: RequestSpec): Promise<Exchange> }) {}

  /** Runs one part as a case; an Inconclusive (or FixtureUnavailable) from it leaves the part untried. */
  async run(name: string, body: (rec: Recorder) => Promise<void>): Promise<void> {
    try {
      const o = await runCase(this.sender, body);
      if (o.status === 'failed') this.failures.push(...o.failures);
      if (o.status === 'passed' || o.status === 'failed') this.cases += o.cases;
      this.judged.push(name);
    } catch (err) {
      if (!(err instanceof Inconclusive)) throw err;
      this.untry(name, err.message, err.remedy);
    }
  }

  /** One request as a part, expecting `statuses`; an unanswered one (see unanswered) leaves the part untried. */
  probe(what: string, spec: RequestSpec, statuses: number | readonly number[], clause?: ClauseId): Promise<void> {
    return this.run(what, async (rec) => {
      const x = await rec.send(spec);
      if (unanswered(x)) return cannotJudge(rec, `it answered ${describeAnswer(x)}`);
      rec.add(expectStatus(x, statuses, what, clause));
    });
  }

  /** Names a part that was not tried, why, and what would let it run. */
  untry(name: string, reason: string, remedy?: string): void {
    this.untried.push(`${name} (${reason})`);
    if (remedy) this.remedies.add(remedy);
  }

  /** Failed when a part failed; inconclusive when no part judged; else passed, naming the untried parts. */
  outcome(): CheckOutcome {
    if (this.failures.length) return { status: 'failed', cases: this.cases, failures: this.failures };
    const remedy = this.remedies.size ? { remedy: [...this.remedies].join('; ') } : {};
    if (this.judged.length === 0) {
      return {
        status: 'inconclusive',
        cases: 0,
        reason: `no part could be judged: ${this.untried.join('; ') || 'none to try'}`,
        ...remedy,
      };
    }
    return this.untried.length
      ? {
          status: 'passed',
          cases: this.cases,
          note: `not tried: ${this.untried.join('; ')}${remedy.remedy ? ` — to try them: ${remedy.remedy}` : ''}`,
        }
      : { status: 'passed', cases: this.cases };
  }
}
