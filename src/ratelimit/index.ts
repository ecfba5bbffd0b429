/** Rate-limit analysis: pure functions from samples to budgets, windows, models and violations. */
export { analyzeRateLimits, type AnalyzeOptions, type ExpectedBudget } from './analyze.js';
export { normalizeRateLimitHeaders, RATE_LIMIT_HEADER_NAMES, type HeaderDialect, type NormalizedRateLimit } from './dialects.js';
export type { RateLimitSample } from './sample.js';
