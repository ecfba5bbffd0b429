/**
 * `--metrics KIND=URL` (repeatable) and `--metrics-interval S`, normalised once into a fully-defaulted
 * MetricsOptions; anything else is a one-line usage error before the run starts. Credentials in a URL
 * (`https://user:pass@host/…`) become an Authorization header, and no message ever shows them, nor a
 * query string (tokens travel there too).
 */
import { SpgateError } from '../errors.js';
import { METRICS_KINDS, type MetricsKind } from './sinks.js';

export { METRICS_KINDS, type MetricsKind };

/** The push interval when --metrics-interval is not given, seconds. */
export const DEFAULT_INTERVAL_SECONDS = 5;

export interface MetricsEndpoint {
  kind: MetricsKind;
  /** Where to push: the URL without its user info. */
  url: string;
  /** Request headers the URL implies (Basic authorization from its user info). */
  headers: Record<string, string>;
  /** How messages name the endpoint: kind and URL without user info or query. */
  display: string;
}

export interface MetricsOptions {
  endpoints: MetricsEndpoint[];
  intervalMs: number;
}

/** `s` with any user info of a URL in it masked (for quoting a value that did not parse). */
function masked(s: string): string {
  return s.replace(/\/\/[^/@\s]*@/g, '//***@').replace(/\?.*$/, '?…');
}

/** One `--metrics` value. */
export function parseMetricsValue(raw: string): MetricsEndpoint {
  const eq = raw.indexOf('=');
  const kind = eq > 0 ? raw.slice(0, eq).trim() : '';
  if (!(METRICS_KINDS as readonly string[]).includes(kind)) {
    throw new SpgateError(
      'SPGATE_ERR_USAGE',
      `--metrics ${JSON.stringify(masked(raw))}: expected KIND=URL with KIND one of ${METRICS_KINDS.join(', ')}`,
    );
  }
  const rest = raw.slice(eq + 1).trim();
  let url: URL;
  try {
    url = new URL(rest);
  } catch {
    throw new SpgateError(
      'SPGATE_ERR_USAGE',
      `--metrics ${kind}=${JSON.stringify(masked(rest))}: not a URL (give an absolute http:// or https:// URL)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SpgateError('SPGATE_ERR_USAGE', `--metrics ${kind}=${JSON.stringify(masked(rest))}: not an http:// or https:// URL`);
  }
  const headers: Record<string, string> = {};
  if (url.username !== '' || url.password !== '') {
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    headers.Authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const display = `${kind} ${url.origin}${url.pathname}`;
  return { kind: kind as MetricsKind, url: url.href, headers, display };
}

/** The normalised options of `--metrics` (a string or a list of them) and `--metrics-interval`. */
export function parseMetricsOptions(values: unknown, intervalSeconds: unknown): MetricsOptions {
  const list = values === undefined ? [] : (Array.isArray(values) ? values : [values]).map(String);
  const endpoints = list.map(parseMetricsValue);
  let seconds = DEFAULT_INTERVAL_SECONDS;
  if (intervalSeconds !== undefined) {
    seconds = Number(intervalSeconds);
    if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 3600) {
      throw new SpgateError('SPGATE_ERR_USAGE', '--metrics-interval must be a number of seconds from 0.1 to 3600');
    }
    if (endpoints.length === 0) throw new SpgateError('SPGATE_ERR_USAGE', '--metrics-interval goes with --metrics');
  }
  return { endpoints, intervalMs: Math.round(seconds * 1000) };
}

/** The command-line arguments that give a child process the same options (--workers' shards). */
export function metricsArgs(values: unknown, intervalSeconds: unknown): string[] {
  const list = values === undefined ? [] : (Array.isArray(values) ? values : [values]).map(String);
  return [
    ...list.flatMap((v) => ['--metrics', v]),
    ...(intervalSeconds !== undefined ? ['--metrics-interval', String(intervalSeconds)] : []),
  ];
}

/** A `--metrics` value (or `--metrics=value`) of any sink of the table: its `NAME=` prefix, then the URL. */
const METRICS_VALUE = new RegExp(`^((?:--metrics=)?(?:${METRICS_KINDS.join('|')})=)(.*)$`);

/**
 * A command line as results may record it (`spgate run` keeps it in meta.command): the user info of any
 * URL in it masked, and the query of a `--metrics` value dropped.
 */
export function redactedCommandLine(argv: readonly string[]): string[] {
  return argv.map((a) => {
    const m = METRICS_VALUE.exec(a);
    return m ? m[1] + masked(m[2]!) : a.replace(/\/\/[^/@\s]*@/g, '//***@');
  });
}
