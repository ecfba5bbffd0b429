/**
 * The `--metrics` sinks by name, one table (k6's internal/cmd/outputs.go, as src/report/index.ts is for
 * reporters): each name's help line and how to make its sink. Option parsing takes its names from here, the
 * CLI its help text, the session its constructors; a new sink is one row. A sink's code is loaded only when
 * a run asks for it (the OpenTelemetry SDK takes a noticeable time to load, and every other command would
 * pay it).
 */
import { SpgateError } from '../errors.js';
import type { MetricsEndpoint } from './options.js';
import type { MetricsSink } from './pusher.js';
import type { RunLabels } from './remote-write.js';

/** The names `--metrics NAME=URL` accepts, in the order help text lists them. */
export const METRICS_KINDS = ['prometheus-rw', 'otlp'] as const;
export type MetricsKind = (typeof METRICS_KINDS)[number];

/** Makes one endpoint's sink for one profile run; `timeoutMs` bounds each push. */
export type SinkFactory = (endpoint: MetricsEndpoint, run: RunLabels, timeoutMs: number) => MetricsSink;

export interface SinkEntry {
  /** What the URL receives, as help text shows it after `NAME=URL`. */
  help: string;
  /** Loads the sink's code (a one-line usage error when its optional packages are missing). */
  load: () => Promise<SinkFactory>;
}

export const METRICS_SINKS: Record<MetricsKind, SinkEntry> = {
  'prometheus-rw': {
    help: 'remote write',
    load: async () => {
      const { RemoteWriteSink } = await import('./remote-write-sink.js');
      return (endpoint, run) => new RemoteWriteSink(endpoint, run);
    },
  },
  otlp: {
    help: 'OTLP/HTTP',
    load: async () => {
      const { OtlpSink } = await importOtlp();
      return (endpoint, run, timeoutMs) => new OtlpSink(endpoint, run, timeoutMs);
    },
  },
};

/** The sinks for help text: `prometheus-rw=URL (remote write) or otlp=URL (OTLP/HTTP)`. */
export function metricsKindsHelp(): string {
  const shown = METRICS_KINDS.map((k) => `${k}=URL (${METRICS_SINKS[k].help})`);
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]!}` : shown.join('');
}

/** The optional peer dependencies of the OTLP sink (package.json peerDependenciesMeta). */
export const OTLP_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-metrics-otlp-proto',
] as const;

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
