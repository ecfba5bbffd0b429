/**
 * The optional parts a few tests need: PNG charts (chartjs-node-canvas and the native `canvas`, which needs
 * cairo), Chromium (the browser tests) and Prometheus (the live-metrics test against a real one). Where a
 * part is missing, the tests that need it skip with the reason (test/support/summary-reporter.ts prints
 * every skipped test and why), unless its variable (SPGATE_REQUIRE_PNG=1, SPGATE_REQUIRE_CHROMIUM=1,
 * SPGATE_REQUIRE_PROMETHEUS=1) makes a missing part a failure — .ci/run's full run sets all three, so a
 * broken install cannot pass there as a row of skips.
 */
import { existsSync } from 'node:fs';
import type { TestContext } from 'vitest';
import { loadChartRenderer } from '../../src/report/png.js';

export interface OptionalPart {
  /** Why the part cannot be used here; undefined when it can. */
  missing: string | undefined;
  /** The environment variable that turns a missing part into a failure. */
  requireVar: 'SPGATE_REQUIRE_PNG' | 'SPGATE_REQUIRE_CHROMIUM' | 'SPGATE_REQUIRE_PROMETHEUS';
}

/** Where the browser tests find Chromium: SPGATE_CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const CHROMIUM = process.env.SPGATE_CHROMIUM_PATH || '/usr/bin/chromium';

/** Chromium for the browser tests, present or not. */
export function chromiumPart(): OptionalPart {
  return {
    missing: existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`,
    requireVar: 'SPGATE_REQUIRE_CHROMIUM',
  };
}

/** Where the live-metrics test finds Prometheus: SPGATE_PROMETHEUS_PATH, else Debian's /usr/bin/prometheus. */
export const PROMETHEUS = process.env.SPGATE_PROMETHEUS_PATH || '/usr/bin/prometheus';

/** Prometheus (its remote-write receiver) for the live-metrics test, present or not. */
export function prometheusPart(): OptionalPart {
  return {
    missing: existsSync(PROMETHEUS) ? undefined : `Prometheus is not installed at ${PROMETHEUS} (apt-get install -y prometheus)`,
    requireVar: 'SPGATE_REQUIRE_PROMETHEUS',
  };
}

/** PNG charts: whether chartjs-node-canvas and its native canvas module load here. */
export async function pngPart(): Promise<OptionalPart> {
  const loaded = await loadChartRenderer();
  return {
    missing: loaded.ok ? undefined : `PNG charts are unavailable: the optional chartjs-node-canvas did not load (${loaded.reason})`,
    requireVar: 'SPGATE_REQUIRE_PNG',
  };
}

/** First line of a test that needs `part`: skips the test with the reason, or fails it when the part is required. */
export function need(ctx: TestContext, part: OptionalPart): void {
  if (part.missing === undefined) return;
  if (process.env[part.requireVar] !== '1') ctx.skip(`${part.missing}; set ${part.requireVar}=1 to make this a failure`);
  throw new Error(`${part.requireVar}=1 but ${part.missing}`);
}
