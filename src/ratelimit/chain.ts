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
