/**
 * Live progress for long commands. On a TTY: one line per phase, rewritten in place (at most 5 times a
 * second). When stdout is not a TTY or CI=true: plain lines — the phase start, a status line at most every
 * 10 seconds, and the phase end — so CI logs stay readable.
 */

export interface PhaseStatus {
  requests: number;
  /** Requests per second, when known. */
  rate?: number;
  refused?: number;
  findings?: number;
  /** Free text, e.g. the current suite or "12.0/20 s". */
  detail?: string;
}

export interface Progress {
  /** Starts a phase (ends the previous one if still open). */
  phase(name: string): void;
  /** Reports the current phase's counters. */
  update(s: PhaseStatus): void;
  /** Ends the phase with a closing line. */
  end(summary: string): void;
  /** A line of its own (not part of the live line). */
  note(line: string): void;
}

interface Sink {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** Use the live single line. Default: stream.isTTY and not CI. */
  live?: boolean;
  now?: () => number;
  /** Minimum ms between plain status lines. */
  plainEveryMs?: number;
}

/** Formats the counters of a phase as one short line. */
export function statusText(name: string, s: PhaseStatus): string {
  const parts = [`${s.requests.toLocaleString('en-US')} requests`];
  if (s.rate !== undefined) parts.push(`${Math.round(s.rate).toLocaleString('en-US')}/s`);
  if (s.refused !== undefined) parts.push(`${s.refused.toLocaleString('en-US')} × 429`);
  if (s.findings !== undefined) parts.push(`${s.findings} finding${s.findings === 1 ? '' : 's'}`);
  if (s.detail) parts.push(s.detail);
  return `${name}: ${parts.join(' · ')}`;
}

/** Creates a progress printer on a stream (stderr or stdout). */
export function createProgress(stream: Sink, opts: ProgressOptions = {}): Progress {
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  const live = opts.live ?? (Boolean(stream.isTTY) && !ci);
  const now = opts.now ?? Date.now;
  const plainEvery = opts.plainEveryMs ?? 10_000;
  let current: string | undefined;
  let lastDraw = 0;
  let lineOpen = false;

  const clearLive = (): void => {
    if (live && lineOpen) {
      stream.write('\r\x1b[2K');
      lineOpen = false;
    }
  };
  const fit = (s: string): string => {
    const cols = stream.columns ?? 100;
    return s.length > cols - 1 ? s.slice(0, Math.max(10, cols - 2)) + '…' : s;
  };

  return {
    phase(name) {
      if (current) this.end('');
      current = name;
      lastDraw = now();
      if (live) {
        stream.write(`\r\x1b[2K${fit(`${name}: starting…`)}`);
        lineOpen = true;
      } else stream.write(`${name}: started\n`);
    },
    update(s) {
      if (!current) return;
      const t = now();
      if (live) {
        if (t - lastDraw < 200) return;
        lastDraw = t;
        stream.write(`\r\x1b[2K${fit(statusText(current, s))}`);
        lineOpen = true;
      } else if (t - lastDraw >= plainEvery) {
        lastDraw = t;
        stream.write(`${statusText(current, s)}\n`);
      }
    },
    end(summary) {
      if (!current) return;
      clearLive();
      if (summary) stream.write(`${current}: ${summary}\n`);
      current = undefined;
    },
    note(line) {
      clearLive();
      stream.write(`${line}\n`);
    },
  };
}
