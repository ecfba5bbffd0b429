/**
 * The `spgate: metrics:` lines of a run's stderr that are errors for a test pushing to a live receiver: every
 * one but a periodic push answered late. A periodic push has the interval (1 s in these tests) to be
 * answered, and a starved machine once answered one late (the real Prometheus): warned once, the run goes
 * on, since pushes are cumulative and the final one has its own, longer time (FINAL_PUSH_MS). What a test
 * must still require is no other metrics error and counts equal to the results (the final push landed).
 */
export function metricsErrorsOf(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('spgate: metrics:') && !l.includes(': no answer in time — '));
}
