/**
 * How the load generator itself kept up during a run, measured in its own process: the event loop's delay
 * (perf_hooks.monitorEventLoopDelay), each send's slip against the schedule (the open engine reports
 * sent − the moment the arrival was due and a connection was free: the generator's own lateness, not time
 * spent waiting for a busy target), and the process's CPU time over the run's wall time. The verdict on
 * these figures is pure (generator-verdict.ts); this file only measures.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type * as hdr from 'hdr-histogram-js';
import { newHistogram } from '../fold/hdr.js';
import type { GeneratorFigures } from '../fold/generator-verdict.js';

/** The event-loop delay sampling resolution, ms: fine enough to see a 5 ms stall, cheap at any load. */
const ELD_RESOLUTION_MS = 5;

export class GeneratorMeter {
  private readonly eld: IntervalHistogram = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS });
  private readonly slips: hdr.Histogram = newHistogram();
  /** The largest slip since the last takeSlipMax (ms), for the live metrics; -1: no send since. */
  private slipMaxSince = -1;
  private cpu0 = process.cpuUsage();
  private wall0 = performance.now();

  constructor() {
    this.eld.enable();
  }

  /** Starts the measured span again (after an engine's warm-up): nothing before counts. */
  restart(): void {
    this.eld.reset();
    this.slips.reset();
    this.cpu0 = process.cpuUsage();
    this.wall0 = performance.now();
  }

  /** One send's slip behind the schedule, ms (negative values are clock noise and count as 0). */
  slip(ms: number): void {
    this.slips.recordValue(ms > 0 ? Math.round(ms * 1000) : 0);
    if (ms > this.slipMaxSince) this.slipMaxSince = ms > 0 ? ms : 0;
  }

  /** The largest send slip (s) since the previous call, or undefined when nothing was sent (the live metrics). */
  takeSlipMax(): number | undefined {
    const max = this.slipMaxSince;
    this.slipMaxSince = -1;
    return max < 0 ? undefined : max / 1000;
  }

  /** Stops measuring and returns the figures of the span since the last restart. */
  finish(): Omit<GeneratorFigures, 'offered' | 'dropped'> {
    this.eld.disable();
    const cpu = process.cpuUsage(this.cpu0);
    const wallMs = performance.now() - this.wall0;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const ms = (ns: number): number => Math.round(ns / 1e3) / 1e3;
    const n = this.slips.totalCount;
    const slipAt = (p: number): number | null => (n === 0 ? null : this.slips.getValueAtPercentile(p) / 1000);
    return {
      processes: 1,
      wallMs: Math.round(wallMs),
      cpuMs: Math.round(cpuMs),
      cpuShare: wallMs > 0 ? Math.round((cpuMs / wallMs) * 1000) / 1000 : 0,
      eventLoopDelayP99Ms: this.eld.count > 0 ? ms(this.eld.percentile(99)) : 0,
      eventLoopDelayMaxMs: this.eld.count > 0 ? ms(this.eld.max) : 0,
      sends: n,
      slipP50Ms: slipAt(50),
      slipP99Ms: slipAt(99),
      slipMaxMs: n === 0 ? null : this.slips.maxValue / 1000,
    };
  }
}
