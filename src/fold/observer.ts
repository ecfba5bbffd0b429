/**
 * The live outputs' view of a run's fold (a metrics exporter, src/metrics): the fold is handed to each
 * once, and the output reads the cumulative figures from it whenever it pushes. Defined here, beside the
 * fold, so the outputs depend on the fold and not on the load engine that feeds it.
 */
import type { FoldSeries } from './histograms.js';
import type { RemainingGauge } from './last-remaining.js';

/**
 * A live output's hook: `attach` is called once, when the aggregator is made; the output then reads the
 * cumulative figures from `fold.snapshot()` whenever it pushes. Nothing of it runs per response: every
 * count and duration is the fold's.
 */
export interface FoldObserver {
  attach(fold: FoldSource): void;
}

/** What a live output reads of the fold. */
export interface FoldSource {
  snapshot(): FoldSnapshot;
}

/** The cumulative figures of a run so far (LoadAggregator.snapshot): live views, to be read at once. */
export interface FoldSnapshot {
  /** Durations per class × method × status family (`error`: transport failures), each with its count and sum. */
  series: FoldSeries[];
  /** The last RateLimit-Remaining per class × key role. */
  remaining: RemainingGauge[];
}
