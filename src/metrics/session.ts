/**
 * The live metrics of one command (`spgate load`, the load part of `spgate run`): for each profile run, a
 * sink per `--metrics` endpoint and the pusher that sends, every interval and at the end, the run's fold
 * as it stands (model.ts: the fold's figures, read at the push). Labels name the run id, the profile and the shard. A failing endpoint is
 * reported once per command, as one `spgate: metrics: …` line; the run and its results never depend on it.
 */
import { SpgateError } from '../errors.js';
import { metricsSnapshot, type MetricsSnapshot } from './model.js';
import type { MetricsOptions } from './options.js';
import { EventLoopLag } from './lag.js';
import { PUSH_TIMEOUT_MS, Pusher, type MetricsSink } from './pusher.js';
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
 * The live metrics of a command, or undefined when no `--metrics` was given. The sinks' libraries are
 * loaded here, only for the kinds asked for (the OpenTelemetry SDK takes a noticeable time to load, and
 * every other command would pay it).
 */
export async function createLiveMetrics(opts: LiveMetricsOptions): Promise<LiveMetrics | undefined> {
  if (opts.endpoints.length === 0) return undefined;
  const kinds = new Set(opts.endpoints.map((e) => e.kind));
  const { OtlpSink } = kinds.has('otlp') ? await importOtlp() : { OtlpSink: undefined };
  const { RemoteWriteSink } = kinds.has('prometheus-rw') ? await import('./remote-write-sink.js') : { RemoteWriteSink: undefined };
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
          sinks.push(e.kind === 'otlp' ? new OtlpSink!(e, run, timeoutMs) : new RemoteWriteSink!(e, run));
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

/**
 * The OTLP sink, whose OpenTelemetry packages are optional peer dependencies (43 MB that only `--metrics
 * otlp=` needs): missing, they are one line saying what to install.
 */
async function importOtlp(): Promise<typeof import('./otlp.js')> {
  try {
    return await import('./otlp.js');
  } catch (err) {
    const missing = /Cannot find (?:package|module) '(@opentelemetry\/[\w-]+)/.exec(err instanceof Error ? err.message : '')?.[1];
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || !missing) throw err;
    throw new SpgateError(
      'SPGATE_ERR_USAGE',
      `--metrics otlp= needs the optional OpenTelemetry packages (${missing} is not installed): npm install ${OTLP_PACKAGES.join(' ')}`,
      { cause: err },
    );
  }
}

/** The optional peer dependencies of the OTLP sink (package.json peerDependenciesMeta). */
export const OTLP_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-metrics-otlp-proto',
] as const;
