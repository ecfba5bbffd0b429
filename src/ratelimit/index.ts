/** Rate-limit analysis: pure functions from samples to budgets, windows, models and violations. */
export { analyzeRateLimits, type AnalyzeOptions, type ExpectedBudget } from './analyze.js';
export type { RateLimitSample } from './sample.js';
