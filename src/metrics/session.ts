/**
 * The live metrics of one command (`spgate load`, the load part of `spgate run`): for each profile run, a
 * sink per `--metrics` endpoint and the pusher that sends, every interval and at the end, the run's fold
 * as it stands (model.ts: the fold's figures, read at the push). Labels name the run id, the profile and the shard. A failing endpoint is
 * reported once per command, as one `spgate: metrics: …` line; the run and its results never depend on it.
 */
import { metricsSnapshot, type MetricsSnapshot } from './model.js';
import type { MetricsOptions } from './options.js';
import { EventLoopLag } from './lag.js';
import { PUSH_TIMEOUT_MS, Pusher, type MetricsSink } from './pusher.js';
import { METRICS_SINKS, type MetricsKind, type SinkFactory } from './sinks.js';
import type { RunLabels } from './remote-write.js';
import type { FoldSource, LiveMetrics, ProfileMetrics, RunFigures } from './source.js';

export interface LiveMetricsOptions extends MetricsOptions {
  runId: string;
  /** "I/N" of a shard; "0/1" for a whole run. */
  shard: string;
  /** Where the one-line reports go (stderr). */
  warn: (line: string) => void;
}

/**
 * The live metrics of a command, or undefined when no `--metrics` was given. The sinks' code is loaded
 * here, through the table (sinks.ts), only for the kinds asked for.
 */
export async function createLiveMetrics(opts: LiveMetricsOptions): Promise<LiveMetrics | undefined> {
  if (opts.endpoints.length === 0) return undefined;
  const factories = new Map<MetricsKind, SinkFactory>();
  for (const e of opts.endpoints) if (!factories.has(e.kind)) factories.set(e.kind, await METRICS_SINKS[e.kind].load());
  const reported = new Set<string>();
  const report = (sink: Pick<MetricsSink, 'display'>, reason: string): void => {
    if (reported.has(sink.display)) return;
    reported.add(sink.display);
    opts.warn(`spgate: metrics: ${sink.display}: ${reason} — the run goes on without it; retrying each push, not reported again`);
  };
  return {
    start(profile: string, figures: () => RunFigures): ProfileMetrics {
      const run: RunLabels = { runId: opts.runId, profile, shard: opts.shard };
      const timeoutMs = Math.min(opts.intervalMs, PUSH_TIMEOUT_MS);
      const sinks: MetricsSink[] = [];
      for (const e of opts.endpoints) {
        try {
          sinks.push(factories.get(e.kind)!(e, run, timeoutMs));
        } catch (err) {
          // An exporter that cannot even be set up (its OTEL_* environment, say) is one more failing endpoint.
          report(e, err instanceof Error ? err.message.split('\n')[0]! : String(err));
        }
      }
      let fold: FoldSource | undefined;
      const lag = new EventLoopLag();
      let final: { violations: number } | undefined;
      const snapshot = (): MetricsSnapshot => {
        const f = figures();
        // The event-loop delay is measured here; the engine gives its send slip (open model) when it has one.
        const measured = { eventLoopDelayMax: lag.takeMax(), ...f.lag };
        const figs = fold?.snapshot() ?? { series: [], remaining: [] };
        return metricsSnapshot(figs, final ? { ...f, violations: final.violations } : f, measured, Date.now());
      };
      const pusher = new Pusher({ sinks, intervalMs: opts.intervalMs, snapshot, report });
      pusher.start();
      return {
        attach(source: FoldSource): void {
          fold = source;
        },
        async finish(f: { violations: number }): Promise<void> {
          final = f;
          try {
            await pusher.finish();
          } finally {
            lag.stop();
          }
        },
      };
    },
  };
}

/** The run id the metrics are labelled with: the one given, else SPGATE_RUN_ID, else `<profile>-<epoch ms>`. */
export function metricsRunId(given: string | undefined, fallbackName: string): string {
  if (given) return given;
  if (process.env.SPGATE_RUN_ID) return process.env.SPGATE_RUN_ID;
  return `${fallbackName}-${Date.now()}`;
}
