/**
 * Refill detection. Between two responses a and b where a was received before b was sent (so a was
 * counted first), any correct limiter only lowers Remaining, unless budget came back in between. So
 * "b.Remaining > a.Remaining" (or equal, for an admitted b) proves a refill, whatever the model, and no
 * reordering by concurrency can fake one. A Reset claim that has passed also proves a fixed window ended,
 * and an admission after a refusal counted before it proves budget came back.
 * Segments are the stretches between refills; for a fixed-window limiter they are its windows.
 */
import type { Group } from './group.js';
import type { ParsedSample } from './parsed.js';

export interface Segment {
  /** Samples assigned to the segment, in sentAt order. */
  samples: ParsedSample[];
  /** The refill that opened it happened after `lo` and before `hi` (ms); -Infinity for the first one. */
  lo: number;
  hi: number;
  /** The response that proved the refill, and the one counted before it with the lower Remaining. */
  evidence?: { before: ParsedSample; after: ParsedSample };
}

/** Splits a group into refill-delimited segments. `fullAt` gives a sample's Reset claim in ms (or null). */
export function segmentByRefills(g: Group, fullAt: (s: ParsedSample) => number | null): Segment[] {
  const segments: Segment[] = [];
  let current: Segment = { samples: [], lo: -Infinity, hi: -Infinity };
  let segId = 0;
  // Segment of each sample by its input index (a dense array: a Map costs a hash per sample).
  let maxIndex = -1;
  for (const s of g.bySent) if (s.index > maxIndex) maxIndex = s.index;
  const segOf = new Int32Array(maxIndex + 1).fill(-1);
  let minDone: ParsedSample | undefined;
  let minFull = Infinity;
  let minFullSample: ParsedSample | undefined;
  let refusedDone: ParsedSample | undefined;
  let j = 0;
  for (const b of g.bySent) {
    while (j < g.byReceived.length && g.byReceived[j]!.receivedAt <= b.sentAt) {
      const a = g.byReceived[j++]!;
      if (segOf[a.index] !== segId) continue;
      // A response sent before the refill that opened this segment was proven may have been counted
      // before that refill: its lower Remaining or earlier claim would prove the same refill twice.
      if (a.sentAt < current.hi && a !== current.evidence?.after) continue;
      // Of equally low responses the latest sent gives the tightest bound on when the refill happened.
      if (
        a.remaining !== null &&
        (minDone === undefined || a.remaining < minDone.remaining! || (a.remaining === minDone.remaining && a.sentAt > minDone.sentAt))
      ) {
        minDone = a;
      }
      // A refusal counted before an admission: budget came back in between, in every model (a token
      // bucket at saturation answers 0 on every admission, so Remaining alone never shows its refills).
      if (a.refused && (refusedDone === undefined || a.sentAt > refusedDone.sentAt)) refusedDone = a;
      const f = fullAt(a);
      if (f !== null && f < minFull) {
        minFull = f;
        minFullSample = a;
      }
    }
    let before: ParsedSample | undefined;
    if (b.remaining !== null && minDone !== undefined) {
      const m = minDone.remaining!;
      if (b.remaining > m || (b.admitted && b.remaining > 0 && b.remaining >= m)) before = minDone;
    }
    if (!before && minFullSample && b.sentAt > minFull) before = minFullSample;
    if (!before && b.admitted && refusedDone) before = refusedDone;
    if (before && current.samples.length > 0) {
      segments.push(current);
      segId += 1;
      current = { samples: [], lo: before.sentAt, hi: b.receivedAt, evidence: { before, after: b } };
      minDone = undefined;
      minFull = Infinity;
      minFullSample = undefined;
      refusedDone = undefined;
    }
    current.samples.push(b);
    segOf[b.index] = segId;
  }
  if (current.samples.length > 0) segments.push(current);
  return segments;
}

/** The segment's extent for display: first send to last response. */
export function segmentSpan(seg: Segment): { start: number; end: number } {
  let end = -Infinity;
  for (const s of seg.samples) end = Math.max(end, s.receivedAt);
  return { start: seg.samples[0]!.sentAt, end };
}

/**
 * Where window tiles start when the windows are not the refill segments: at the first refill the headers
 * proved (a window usually began before the run, so its first response is no window edge), else at the
 * first send.
 */
export function tileAnchor(segments: readonly Segment[], bySent: readonly ParsedSample[]): number {
  const refill = segments[1];
  return refill ? refill.hi : (bySent[0]?.sentAt ?? 0);
}
