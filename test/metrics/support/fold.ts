/**
 * A run's fold without an engine, for the metrics tests: the fold's own pieces (its histograms and its
 * last Remaining, as load/aggregate.ts keeps them) fed with responses of a few routes, read through the
 * same FoldSnapshot the live metrics read.
 */
import { FoldHistograms } from '../../../src/fold/histograms.js';
import { LastRemaining } from '../../../src/fold/last-remaining.js';
import type { FoldSnapshot } from '../../../src/fold/observer.js';
import type { RouteClass } from '../../../src/results/schema.js';

export interface TestRoute {
  class: RouteClass;
  method: string;
  keyRole: string;
}

export const GET: TestRoute = { class: 'read', method: 'GET', keyRole: 'admin' };
export const GET2: TestRoute = { class: 'read', method: 'GET', keyRole: 'readOnly' };
export const POST: TestRoute = { class: 'write', method: 'POST', keyRole: 'admin' };
/** Another read route with the admin key: the same Remaining gauge as GET. */
export const GET_OTHER: TestRoute = { class: 'read', method: 'GET', keyRole: 'admin' };
export const ROUTES: readonly TestRoute[] = [GET, GET2, POST, GET_OTHER];

export class TestFold {
  readonly hist = new FoldHistograms(ROUTES, false);
  readonly remaining = new LastRemaining(ROUTES);

  /** One response of `route` taking `ms` (status 0: a transport failure). */
  add(route: TestRoute, ms: number, status: number, remaining?: string): void {
    const i = ROUTES.indexOf(route);
    this.hist.record(i, route.class, status, ms, ms);
    this.remaining.add(i, status, remaining);
  }

  snapshot(): FoldSnapshot {
    return { series: this.hist.series(), remaining: this.remaining.gauges() };
  }
}
