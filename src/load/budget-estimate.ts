/**
 * Pure estimation of one route class's budget (limit L per window W) from a few responses' RateLimit-*
 * headers. The spec defines RateLimit-Reset as "seconds until the budget is full again", which means
 * different things per limiter: a fixed window announces the end of the window (≤ W, whatever was used), a
 * sliding log announces W after the newest request, and a token bucket announces `used × W / L`. So W is not
 * one Reset value: it is read from the Reset right after an announced refill (window limiters), or from how
 * Reset grows with the budget used and how fast the budget comes back (token buckets). Every conclusion is
 * kept as a line of evidence; an estimate that cannot be trusted is a failure, never a guess.
 */

/** One probe response: the raw header strings and when it arrived (ms since the probe started). */
export interface ProbeSample {
  t: number;
  /** 0 for a transport failure. */
  status: number;
  limit?: string;
  remaining?: string;
  reset?: string;
  retryAfter?: string;
  /** RateLimit-Policy (IETF draft): `w=` gives the window directly when present. */
  policy?: string;
  /** Sent after waiting for the refill the earlier responses announced. */
  afterWait?: boolean;
}

export type Confidence = 'high' | 'medium' | 'low';

export type BudgetEstimate =
  | {
      ok: true;
      limit: number;
      windowSeconds: number;
      confidence: Confidence;
      model: 'window' | 'token-bucket' | 'policy';
      evidence: string[];
    }
  | { ok: false; reason: string; evidence: string[] };

interface Usable {
  t: number;
  status: number;
  remaining: number;
  reset: number;
  afterWait: boolean;
  /** Announced full-again instant (ms). */
  full: number;
}

const INT = /^\d{1,9}$/;
const int = (v: string | undefined): number | undefined => (v !== undefined && INT.test(v.trim()) ? Number(v.trim()) : undefined);

/** The `w=` parameter of a RateLimit-Policy value, if it has exactly one. */
export function policyWindow(policy: string | undefined): number | undefined {
  if (policy === undefined) return undefined;
  const ws = [...policy.matchAll(/(?:^|[;,\s])w\s*=\s*(\d{1,9})(?![\d.])/g)].map((m) => Number(m[1]));
  return ws.length > 0 && ws.every((w) => w === ws[0]) && ws[0]! > 0 ? ws[0] : undefined;
}

/** Estimates L and W of one class from its probe samples, in the order they arrived. */
export function estimateBudget(samples: readonly ProbeSample[]): BudgetEstimate {
  const evidence: string[] = [];
  const answered = samples.filter((s) => s.status !== 0);
  if (answered.length === 0) return { ok: false, reason: 'no response to the probe', evidence };
  const limits = [...new Set(answered.map((s) => int(s.limit)).filter((v): v is number => v !== undefined && v > 0))];
  if (limits.length === 0) return { ok: false, reason: `no integral RateLimit-Limit on ${answered.length} response(s)`, evidence };
  if (limits.length > 1) {
    // A limit that changes between a few consecutive responses is not one budget; sizing from it would guess.
    return { ok: false, reason: `RateLimit-Limit changed between responses (${limits.join(', ')})`, evidence };
  }
  const L = limits[0]!;
  evidence.push(`RateLimit-Limit ${L} on ${answered.length} response(s)`);

  const usable: Usable[] = [];
  for (const s of answered) {
    const remaining = int(s.remaining);
    const reset = int(s.reset);
    if (remaining === undefined || reset === undefined) continue;
    if (remaining > L) {
      evidence.push(`ignored a response with Remaining ${remaining} above Limit ${L}`);
      continue;
    }
    const retry = s.status === 429 ? (int(s.retryAfter) ?? 0) : 0;
    usable.push({ t: s.t, status: s.status, remaining, reset, afterWait: s.afterWait === true, full: s.t + 1000 * Math.max(reset, retry) });
  }

  const windows = [...new Set(answered.map((s) => policyWindow(s.policy)).filter((w): w is number => w !== undefined))];
  if (windows.length === 1) {
    const w = windows[0]!;
    const maxReset = Math.max(0, ...usable.map((u) => u.reset));
    evidence.push(`RateLimit-Policy w=${w}`);
    if (maxReset > w) evidence.push(`but a RateLimit-Reset of ${maxReset} s exceeds it`);
    return { ok: true, limit: L, windowSeconds: w, confidence: maxReset > w ? 'medium' : 'high', model: 'policy', evidence };
  }
  if (usable.length === 0) return { ok: false, reason: 'no response with integral RateLimit-Remaining and RateLimit-Reset', evidence };

  const token = tokenEvidence(usable, L, evidence);
  if (token) return token;
  return windowEstimate(usable, L, evidence);
}

/**
 * Token-bucket evidence: Reset growing while the budget is spent (a window's end does not move), or part of
 * the budget coming back before the announced full-again time (a window refills all at once, at its end).
 */
function tokenEvidence(u: Usable[], L: number, evidence: string[]): BudgetEstimate | undefined {
  let rising = false;
  const rates: Array<[number, number]> = [];
  // The earliest full-again time announced since the last refill: a window gives nothing back before it.
  let announced = u[0]!.full;
  for (let i = 1; i < u.length; i++) {
    const a = u[i - 1]!;
    const b = u[i]!;
    announced = Math.min(announced, a.full);
    if (b.remaining < a.remaining && b.reset > a.reset) rising = true;
    // b's own request took one unit: Remaining not falling means budget came back in between. Remaining
    // is whole units (rounded down), so the units that came back lie in (back − 1, back + 1).
    const back = b.remaining - a.remaining + 1;
    if (back >= 1 && b.remaining < L - 1 && b.t < announced && b.status !== 429) {
      const dt = b.t - a.t;
      if (dt > 0) rates.push([(L * dt) / (back + 1) / 1000, back > 1 ? (L * dt) / (back - 1) / 1000 : Infinity]);
    }
    if (b.remaining > a.remaining) announced = b.full;
  }
  if (!rising && rates.length === 0) return undefined;
  // With Reset = ceil(u × W / L) and u, the units used, in (L − Remaining − 1, L − Remaining]:
  // W lies in ((Reset − 1) × L / used, Reset × L / (used − 1)).
  const bounds: Array<[number, number]> = [...rates];
  for (const s of u) {
    const used = L - s.remaining;
    if (used >= 1 && s.reset >= 1) bounds.push([((s.reset - 1) * L) / used, used > 1 ? (s.reset * L) / (used - 1) : Infinity]);
  }
  const lo = Math.max(...bounds.map((b) => b[0]));
  const hi = Math.min(...bounds.map((b) => b[1]));
  evidence.push(
    rising
      ? 'Reset grew as the budget was spent (token bucket)'
      : 'part of the budget came back before the announced full-again time (token bucket)',
  );
  if (lo <= hi && hi > 0 && Number.isFinite(hi) && lo > 0) {
    // The middle of the interval (geometric: the bounds are ratios).
    const w = Math.sqrt(lo * hi);
    evidence.push(`window between ${r2(lo)} s and ${r2(hi)} s by the Reset and refill arithmetic`);
    return { ok: true, limit: L, windowSeconds: r2(w), confidence: 'medium', model: 'token-bucket', evidence };
  }
  if (lo <= hi && lo > 0) {
    evidence.push(`window at least ${r2(lo)} s by the Reset and refill arithmetic`);
    return { ok: true, limit: L, windowSeconds: r2(lo), confidence: 'low', model: 'token-bucket', evidence };
  }
  const finite = bounds.map((b) => b[1]).filter((v) => Number.isFinite(v));
  const fallback = finite.length ? finite.reduce((s, v) => s + v, 0) / finite.length : 0;
  if (!(fallback > 0)) return { ok: false, reason: 'token-bucket headers whose Reset and refill disagree', evidence };
  evidence.push(`the Reset and refill arithmetic disagree (${bounds.map((b) => `${r2(b[0])}–${r2(b[1])}`).join(', ')} s)`);
  return { ok: true, limit: L, windowSeconds: r2(fallback), confidence: 'low', model: 'token-bucket', evidence };
}

/**
 * Window limiters (fixed or sliding): Reset never exceeds W, and right after a refill it is W (a fixed window
 * just began; a sliding log always says W). So W is the largest Reset, trusted once a refill was seen.
 */
function windowEstimate(u: Usable[], L: number, evidence: string[]): BudgetEstimate {
  const w = Math.max(...u.map((s) => s.reset));
  if (w <= 0) return { ok: false, reason: 'RateLimit-Reset was 0 on every response', evidence };
  let refillAfterWait = false;
  let refill = false;
  for (let i = 1; i < u.length; i++) {
    if (u[i]!.remaining > u[i - 1]!.remaining) {
      refill = true;
      if (u[i]!.afterWait) refillAfterWait = true;
    }
  }
  const atRefill = u.filter((s, i) => i > 0 && s.afterWait && s.remaining > u[i - 1]!.remaining).map((s) => s.reset);
  if (refillAfterWait && atRefill.includes(w)) {
    evidence.push(`budget refilled when announced; Reset right after the refill: ${w} s`);
    return { ok: true, limit: L, windowSeconds: w, confidence: 'high', model: 'window', evidence };
  }
  if (refill) {
    evidence.push(`a refill was seen; largest Reset ${w} s`);
    return { ok: true, limit: L, windowSeconds: w, confidence: 'medium', model: 'window', evidence };
  }
  evidence.push(`no refill seen: the window is at least ${w} s (largest Reset)`);
  return { ok: true, limit: L, windowSeconds: w, confidence: 'low', model: 'window', evidence };
}

function r2(v: number): number {
  return Math.round(v * 100) / 100;
}
