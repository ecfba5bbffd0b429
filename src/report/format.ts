/** Number and time formatting shared by the HTML, Markdown and JUnit reporters. */

/** Milliseconds with a sensible precision: 0.42 ms, 12.3 ms, 1,204 ms. */
export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** Requests per second, one decimal below 100. */
export function fmtRps(rps: number): string {
  if (!Number.isFinite(rps)) return '—';
  return rps < 100 ? `${rps.toFixed(1)}/s` : `${Math.round(rps).toLocaleString('en-US')}/s`;
}

/** An integer with thousands separators. */
export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A duration: 850 ms, 12.4 s, 3 min 05 s. */
export function fmtDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 59.95) return `${s.toFixed(1)} s`;
  // Round to whole seconds first, so 119.6 s is 2 min 00 s and never 1 min 60 s.
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** A signed percentage change: +12.5 %, −3.0 %. */
export function fmtPct(p: number | null): string {
  if (p === null || !Number.isFinite(p)) return '—';
  const sign = p > 0 ? '+' : p < 0 ? '−' : '±';
  return `${sign}${Math.abs(p).toFixed(1)} %`;
}

/** Sum of the 429 answers in a profile's byStatus table. */
export function count429(byStatus: Record<string, number>): number {
  return byStatus['429'] ?? 0;
}

/** Milliseconds since the start as seconds for axis labels and tables: "12.0 s". */
export function fmtOffset(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A file-name-safe slug of a profile name. */
export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'profile'
  );
}
