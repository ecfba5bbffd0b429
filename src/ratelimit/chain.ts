/**
 * An ordered chain of admitted responses: each one sent after the previous one was received, so the
 * server counted them in chain order whatever the concurrency. Along such a chain one counter can only
 * fall through admissions and rise through refills, which is what the Remaining rules compare against
 * the model-free bounds. Greedy (the earliest-sent response after each answer), O(n).
 */
import type { Group } from './group.js';
import type { ParsedSample } from './parsed.js';

/** Admitted responses with a usable Remaining, in counting order. */
export function orderedChain(g: Group): ParsedSample[] {
  const chain: ParsedSample[] = [];
  let last: ParsedSample | undefined;
  for (const s of g.bySent) {
    if (!s.admitted || s.remaining === null || s.remaining < 0) continue;
    if (last && s.sentAt < last.receivedAt) continue;
    chain.push(s);
    last = s;
  }
  return chain;
}

/** How many times Remaining rose from one response of the chain to the next (budget given back, or another counter's sequence). */
export function risesAlong(chain: readonly ParsedSample[]): number {
  let rises = 0;
  for (let i = 1; i < chain.length; i++) if (chain[i]!.remaining! > chain[i - 1]!.remaining!) rises += 1;
  return rises;
}
