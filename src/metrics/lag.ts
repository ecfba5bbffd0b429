/**
 * The generator's event-loop delay, measured in its own process with perf_hooks.monitorEventLoopDelay:
 * the largest delay since the previous reading. The engines send from this event loop, so a delay here
 * is a delay of their sends: the real figure of the generator's lag where the engine measures none itself.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export class EventLoopLag {
  private readonly h: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  constructor() {
    this.h.enable();
  }

  /** The largest delay since the previous call (or the start), seconds; 0 when none was sampled. */
  takeMax(): number {
    const max = this.h.count > 0 ? this.h.max / 1e9 : 0;
    this.h.reset();
    return max;
  }

  stop(): void {
    this.h.disable();
  }
}
