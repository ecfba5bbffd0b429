/**
 * The budgets of part 8 seen from the headers of a few requests: "RateLimit-Limit (budget of the route
 * class)" makes Limit one integer per class and key, and "read and write, each with its own budget" means
 * spending one class leaves the other's Remaining alone. Load runs judge both over time; these judge them
 * within a conformance run, in a handful of requests.
 */
import type { Exchange } from '../../src/client/exchange.js';
import type { RequestSpec } from '../../src/client/types.js';
import type { CheckOutcome } from '../../src/conformance/suite.js';
import { inconclusive } from '../../src/conformance/inconclusive.js';
import { describeAnswer, Recorder, statusOf } from '../../src/conformance/recorder.js';
import { routeClass } from '../../src/spec/routes.js';
import { parseIntHeader } from '../../src/spec/headers.js';
import { cannotJudge } from './world.js';

/** Requests of one class spent between the two reads of the other class's Remaining. */
const SPENT = 6;

/**
 * One failure per key and class whose answers announced more than one RateLimit-Limit. Answers without a
 * key role or with a 401 are left out (a deployment may limit unauthenticated callers by address, under
 * another budget), and so are unreadable Limits (limits.headers reports them). Inconclusive when no key
 * and class had two readable answers.
 */
export function limitConstant(xs: readonly Exchange[]): CheckOutcome {
  const groups = new Map<string, { values: Map<number, Exchange>; n: number }>();
  for (const x of xs) {
    if (!x.response || x.request.keyRole === undefined || x.response.status === 401) continue;
    const limit = parseIntHeader(x.response.headers, 'RateLimit-Limit');
    if (!limit.ok) continue;
    const key = `${routeClass(x.request.method)} class, key ${x.request.keyRole}`;
    const g = groups.get(key) ?? { values: new Map<number, Exchange>(), n: 0 };
    if (!g.values.has(limit.value)) g.values.set(limit.value, x);
    g.n++;
    groups.set(key, g);
  }
  const judged = [...groups.values()].filter((g) => g.n >= 2);
  if (judged.length === 0) inconclusive('no key and route class had two answers with a readable RateLimit-Limit to compare');
  const t = new Recorder();
  for (const [key, g] of groups) {
    if (g.n < 2) continue;
    const values = [...g.values.keys()];
    t.add(
      values.length === 1
        ? undefined
        : {
            clause: '8.ratelimit.limit-constant',
            expected: `one RateLimit-Limit (the budget of the route class) on every answer of the ${key}`,
            actual: `${values.length} values over ${g.n} answers: ${values.slice(0, 5).join(', ')}${values.length > 5 ? ', …' : ''}`,
            exchanges: [...g.values.values()].slice(0, 3),
          },
    );
  }
  return t.outcome();
}

function remainingOf(x: Exchange): number | undefined {
  const s = statusOf(x);
  if (s === undefined || s < 200 || s >= 300 || !x.response) return undefined;
  const r = parseIntHeader(x.response.headers, 'RateLimit-Remaining');
  return r.ok ? r.value : undefined;
}

/**
 * The first fall of RateLimit-Remaining by more than 1 between two consecutive accepted answers of one
 * key and class sent back to back: each of them charges 1, so the rest is someone else's requests counted
 * in the same budget (or a limiter charging more than a request). A rise (tokens given back) is not one.
 */
export function foreignFall(xs: readonly Exchange[]): string | undefined {
  for (let i = 1; i < xs.length; i++) {
    const a = remainingOf(xs[i - 1]!);
    const b = remainingOf(xs[i]!);
    if (a !== undefined && b !== undefined && a - b > 1) {
      return `RateLimit-Remaining fell by ${a - b} between two back-to-back requests of this check (${a} in ${xs[i - 1]!.id}, then ${b} in ${xs[i]!.id})`;
    }
  }
  return undefined;
}

/**
 * Reads the other class's Remaining (`probe`), spends SPENT accepted requests of `spent` class (`spend`),
 * reads it again: with its own budget it falls by at most the second probe itself, a window that rolled
 * over only raises it. Fails when it fell by half the spent requests or more (a shared budget falls by
 * all of them). Cannot judge unless every answer was accepted with a readable Remaining, the other class's
 * Remaining moved by at most the one request between its two first reads, and the spent requests lowered
 * their own class's Remaining (else nothing shows they were charged). A window that turned during the
 * measurement (a rise between the first reads, spent requests that did not lower their own Remaining) gets
 * it taken once more.
 */
export async function classesIsolated(rec: Recorder, spent: 'read' | 'write', probe: RequestSpec, spend: RequestSpec): Promise<void> {
  const other = spent === 'read' ? 'write' : 'read';
  // A window that turns while the check spends gives its class's budget back, so the spent requests may
  // not lower their own Remaining (96 then 96, on a clean server, one run in a few dozen): the
  // measurement is taken once more, then most likely inside one window.
  for (let round = 0; ; round++) {
    // Two back-to-back reads first: they show how much the other class's Remaining moves without this
    // check's spending (other traffic on the key, replicas that each count their own share).
    const a0 = await rec.send(probe);
    const a = await rec.send(probe);
    const xs: Exchange[] = [];
    for (let i = 0; i < SPENT; i++) xs.push(await rec.send(spend));
    const b = await rec.send(probe);
    const unread = [a0, a, ...xs, b].find((x) => remainingOf(x) === undefined);
    if (unread) {
      cannotJudge(
        rec,
        `an answer was not accepted with a readable RateLimit-Remaining (${describeAnswer(unread)})`,
        'fixtures.ids.conversationId: a conversation the second connection may assign',
      );
      return;
    }
    const noise = remainingOf(a0)! - remainingOf(a)!;
    // A rise between the two reads is a window that turned (or tokens given back) between them: measured
    // once more, then most likely inside one window (23 then 29, on a clean server under a loaded machine).
    if (noise < 0 && round === 0) continue;
    if (noise < 0 || noise > 1) {
      cannotJudge(
        rec,
        `the ${other} class's RateLimit-Remaining moved by ${-noise} between two back-to-back requests (${remainingOf(a0)} then ${remainingOf(a)}): other traffic on the key, or replicas counting apart, would hide what spending ${spent}s does`,
        'keys.secondConnection: a key no other traffic uses',
      );
      return;
    }
    const spentFell = remainingOf(xs[0]!)! - remainingOf(xs[xs.length - 1]!)!;
    if (spentFell < 1) {
      if (round === 0) continue;
      cannotJudge(
        rec,
        `${SPENT} accepted ${spent}s did not lower their own class's RateLimit-Remaining (${remainingOf(xs[0]!)} then ${remainingOf(xs[xs.length - 1]!)}), twice, so nothing shows they were charged`,
      );
      return;
    }
    const fell = remainingOf(a)! - remainingOf(b)!;
    rec.expect(
      fell < 1 + Math.ceil(SPENT / 2),
      `the ${other} class's RateLimit-Remaining to fall by at most 1 (its own second request) while ${SPENT} ${spent}s were admitted (their own Remaining fell by ${spentFell})`,
      () =>
        `${other} Remaining ${remainingOf(a)} then ${remainingOf(b)}: fell by ${fell}, as if the ${spent}s were charged to the ${other} budget`,
      [a0, a, xs[0]!, xs[xs.length - 1]!, b],
    );
    return;
  }
}
