/** The per-class summary and its one-sentence explanation. Pure. */
import type { RateLimitAnalysis } from '../results/schema.js';
import type { BudgetContext } from './context.js';
import { responsesOf, type ParsedSample } from './parsed.js';
import { segmentSpan, tileAnchor } from './segments.js';

type ClassAnalysis = RateLimitAnalysis['classes'][number];
type WindowRow = ClassAnalysis['windows'][number];

/**
 * Admitted/refused per window: the segments of a fixed-window limiter, else tiles of the window length
 * anchored at the first refill the headers proved (not at the first response: windows begin before runs).
 */
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
    // A loop, not Math.max(...spread): a long trace would overflow the call stack.
    let end = -Infinity;
    for (const s of samples) if (s.receivedAt > end) end = s.receivedAt;
    return [{ start: r3(first), end: r3(end), ...tally(samples) }];
  }
  const anchor = tileAnchor(ctx.segments, samples);
  // Counts per tile (samples come in sentAt order, so a tile's samples are consecutive: one lookup per tile).
  const rows = new Map<number, { admitted: number; refused: number }>();
  let lastK = NaN;
  let row: { admitted: number; refused: number } | undefined;
  for (const s of samples) {
    const k = Math.floor((s.sentAt - anchor) / W);
    if (k !== lastK || !row) {
      row = rows.get(k);
      if (!row) rows.set(k, (row = { admitted: 0, refused: 0 }));
      lastK = k;
    }
    if (s.admitted) row.admitted += 1;
    else row.refused += s.weight ?? 1;
  }
  return [...rows.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, c]) => ({ start: r3(anchor + k * W), end: r3(anchor + (k + 1) * W), admitted: c.admitted, refused: c.refused }));
}

/** Admitted and refused responses (a folded refusal counts for its run). */
function tally(list: readonly ParsedSample[]): { admitted: number; refused: number } {
  let admitted = 0;
  for (const s of list) if (s.admitted) admitted += 1;
  return { admitted, refused: responsesOf(list) - admitted };
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

/**
 * One sentence a human can read: "read: Limit 50, fixed 1 s windows; 6 windows; 50 admitted per exhausted
 * window; 300 admitted; 312 refused", plus which budget was stated and which announced, and the header
 * dialect when it is not the spec's.
 */
export function explain(a: Omit<ClassAnalysis, 'explanation'>, ctx: Pick<BudgetContext, 'model'>): string {
  const who = a.key ? `${a.class} (key ${a.key})` : a.class;
  const limit = a.observedLimit === null ? 'no valid Limit' : `Limit ${a.observedLimit}${a.limitConstant ? '' : ' (changing)'}`;
  const win =
    a.windowSeconds === null ? `${MODEL_WORDS[a.model]} windows of unknown length` : `${MODEL_WORDS[a.model]} ${a.windowSeconds} s windows`;
  const parts = [`${who}: ${limit}${budgetWords(a)}, ${win}`, `${a.windows.length} window${a.windows.length === 1 ? '' : 's'}`];
  // The first window of a fixed-window limiter began before the trace (budget may have been spent by
  // others): it says nothing about the budget when later windows were exhausted too.
  const judged =
    ctx.model === 'fixed-window' && a.windows.length > 1 && a.windows.slice(1).some((w) => w.refused > 0) ? a.windows.slice(1) : a.windows;
  const full = judged.filter((w) => w.refused > 0);
  if (full.length > 0) {
    const per = [...new Set(full.map((w) => w.admitted))].sort((x, y) => x - y);
    parts.push(`${per.length === 1 ? per[0] : `${per[0]}–${per[per.length - 1]}`} admitted per exhausted window`);
  } else {
    parts.push('no window exhausted');
  }
  parts.push(`${a.admitted} admitted`, `${a.refused} refused`);
  if (a.dialects && a.dialects.some((d) => d !== 'spec'))
    parts.push(`headers: ${a.dialects.join(', ')} dialect${a.dialects.length === 1 ? '' : 's'}`);
  if (a.spentByOthers) {
    parts.push(
      `Remaining fell ${a.spentByOthers} times by more than this run's requests: others spend this budget (or the limiter counts a request more than once), so its 429s and low Remaining were not judged (under-admission, reset-restores, retry-after-honoured); a key of its own would let them be`,
    );
  }
  return parts.join('; ');
}

/** " (stated 1000 per 5 s; the announced budget drives)" when a budget was stated. */
function budgetWords(a: Omit<ClassAnalysis, 'explanation'>): string {
  if (a.statedLimit === undefined) return '';
  const stated = `stated ${a.statedLimit} per ${a.statedWindowSeconds} s`;
  const agrees =
    a.statedLimit === a.observedLimit &&
    (a.observedWindowSeconds === undefined ||
      a.statedWindowSeconds === undefined ||
      a.observedWindowSeconds <= Math.ceil(a.statedWindowSeconds) + 1);
  if (agrees) return ` (${stated}, as announced)`;
  return ` (${stated}; the ${a.budgetSource === 'stated' ? 'stated' : 'announced'} budget drives)`;
}
