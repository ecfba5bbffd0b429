/**
 * What "the same violation" means for shrink and replay: the same rule on the same route class (and, when
 * the trace names key roles, the same key). Pure.
 */
import type { RateLimitAnalysis, RateLimitViolation } from '../results/schema.js';
import { SpgateError } from '../errors.js';

export interface ViolationSignature {
  rule: string;
  class?: 'read' | 'write';
  key?: string;
}

/** "8.ratelimit.over-admission on read" (plus the key when there is one). */
export function describeSignature(s: ViolationSignature): string {
  return `${s.rule}${s.class ? ` on ${s.class}` : ''}${s.key ? ` (key ${s.key})` : ''}`;
}

/**
 * The violation to reproduce: the first one of `rule` when given, else the analysis's first violation.
 * A trace without it is bad input (nothing to shrink): SPGATE_ERR_NO_VIOLATION.
 */
export function pickSignature(
  a: RateLimitAnalysis,
  rule?: string,
  source = 'the trace',
): { signature: ViolationSignature; violation: RateLimitViolation } {
  const v = rule === undefined ? a.violations[0] : a.violations.find((x) => x.rule === rule);
  if (!v) {
    const seen = [...new Set(a.violations.map((x) => x.rule))];
    const why =
      rule === undefined
        ? 'shows no rate-limit violation'
        : `shows no ${rule} violation${seen.length ? ` (it shows ${seen.join(', ')})` : ''}`;
    throw new SpgateError('SPGATE_ERR_NO_VIOLATION', `${source} ${why}: there is nothing to reproduce`);
  }
  return { signature: { rule: v.rule, ...(v.class ? { class: v.class } : {}), ...(v.key ? { key: v.key } : {}) }, violation: v };
}

/** True when the analysis shows the violation: same rule, same class, same key when one is named. */
export function shows(a: RateLimitAnalysis, s: ViolationSignature): boolean {
  return a.violations.some(
    (v) => v.rule === s.rule && (s.class === undefined || v.class === s.class) && (s.key === undefined || v.key === s.key),
  );
}
