/** The per-class summary and its one-sentence explanation. Pure. */
import type { RateLimitAnalysis } from '../results/schema.js';
import type { BudgetContext } from './context.js';
import { segmentSpan } from './segments.js';

type ClassAnalysis = RateLimitAnalysis['classes'][number];
type WindowRow = ClassAnalysis['windows'][number];

/** Admitted/refused per window: the segments of a fixed-window limiter, else tiles of the window length. */
export function windowRows(ctx: BudgetContext): WindowRow[] {
  const samples = ctx.group.bySent;
  if (samples.length === 0) return [];
  if (ctx.model === 'fixed-window') {
    return ctx.segments.map((seg) => {
      const span = segmentSpan(seg);
      return { start: r3(span.start), end: r3(span.end), ...tally(seg.samples) };
    });
  }
  const first = samples[0]!.sentAt;
  const W = ctx.windowMs;
  if (W === null || W <= 0) {
    const end = Math.max(...samples.map((s) => s.receivedAt));
    return [{ start: r3(first), end: r3(end), ...tally(samples) }];
  }
  const rows = new Map<number, typeof samples>();
  for (const s of samples) {
    const k = Math.floor((s.sentAt - first) / W);
    const list = rows.get(k);
    if (list) list.push(s);
    else rows.set(k, [s]);
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([k, list]) => ({ start: r3(first + k * W), end: r3(first + (k + 1) * W), ...tally(list) }));
}

function tally(list: readonly { admitted: boolean }[]): { admitted: number; refused: number } {
  let admitted = 0;
  for (const s of list) if (s.admitted) admitted += 1;
  return { admitted, refused: list.length - admitted };
}

function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

const MODEL_WORDS: Record<ClassAnalysis['model'], string> = {
  'fixed-window': 'fixed',
  'sliding-window': 'sliding',
  'token-bucket': 'token-bucket',
  unknown: 'unknown-model',
};

/** One sentence a human can read: "read: Limit 50, fixed 1 s windows; 6 windows; 50 admitted per window; 312 refused". */
export function explain(a: Omit<ClassAnalysis, 'explanation'>, expectedLimit: number | null): string {
  const who = a.key ? `${a.class} (key ${a.key})` : a.class;
  const limit = a.observedLimit === null ? 'no valid Limit' : `Limit ${a.observedLimit}${a.limitConstant ? '' : ' (changing)'}`;
  const expected = expectedLimit !== null && expectedLimit !== a.observedLimit ? ` (expected ${expectedLimit})` : '';
  const win = a.windowSeconds === null ? `${MODEL_WORDS[a.model]} windows of unknown length` : `${MODEL_WORDS[a.model]} ${a.windowSeconds} s windows`;
  const parts = [`${who}: ${limit}${expected}, ${win}`, `${a.windows.length} window${a.windows.length === 1 ? '' : 's'}`];
  const full = a.windows.filter((w) => w.refused > 0);
  if (full.length > 0) {
    const per = [...new Set(full.map((w) => w.admitted))].sort((x, y) => x - y);
    parts.push(`${per.length === 1 ? per[0] : `${per[0]}–${per[per.length - 1]}`} admitted per exhausted window`);
  } else {
    parts.push('no window exhausted');
  }
  parts.push(`${a.admitted} admitted`, `${a.refused} refused`);
  return parts.join('; ');
}
