/**
 * The one rule that sorts a response into its status family: 2xx, 429 (a refusal: an answer, not
 * throughput) or other; a transport failure (status 0) has none in the results and is the `error` series
 * of the live duration histograms. Every histogram, timeline, threshold and merge takes its family here.
 */
import { STATUS_FAMILIES, type StatusFamily } from '../results/schema.js';

/** The status families of the duration series: the results' three, and `error` for a transport failure. */
export type SeriesFamily = StatusFamily | 'error';
export const SERIES_FAMILIES: readonly SeriesFamily[] = [...STATUS_FAMILIES, 'error'];

/** The family index of a status in SERIES_FAMILIES order (3: a transport failure); no allocation, per response. */
export function seriesFamilyIndex(status: number): number {
  if (status === 0) return 3;
  if (status >= 200 && status < 300) return 0;
  return status === 429 ? 1 : 2;
}

/** The status family a response belongs to; 0 (transport failure) has none. */
export function familyOf(status: number): StatusFamily | undefined {
  return status === 0 ? undefined : STATUS_FAMILIES[seriesFamilyIndex(status)];
}
