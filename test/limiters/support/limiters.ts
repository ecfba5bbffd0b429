/**
 * The table of real limiters the tests run spgate against: each library configured correctly, with its own
 * read and write budgets and windows (short windows keep the runs short). And the table of realistic
 * misconfigurations, each with the profile that exposes it and the rule that must name it.
 */
import { startExpressServer } from './express-server.js';
import { startFastifyServer } from './fastify-server.js';
import { startFlexibleServer } from './flexible-server.js';
import { startRoundRobinProxy } from './proxy.js';
import { startTokenBucketServer } from './token-bucket-server.js';
import type { Budgets, LimitedServer } from './server.js';

export interface LimiterDef {
  name: string;
  /** The budgets the profile runs use. */
  budgets: Budgets;
  /** Starts the server with these budgets (tests of the servers themselves use long windows). */
  start(budgets: Budgets): Promise<LimitedServer>;
}

const EXPRESS: Budgets = { read: { limit: 20, windowSeconds: 2 }, write: { limit: 6, windowSeconds: 1 } };
// fastify's read budget is the largest of the four: over 2 s windows, four closed-loop connections spend it (read-budget's
// 429s) while each answer takes up to 195 ms; over 1 s ones, 100 ms, which a worker process running every
// limiter × profile at once on a starved machine once exceeded (read.429 > 0, actual 0).
const FASTIFY: Budgets = { read: { limit: 40, windowSeconds: 2 }, write: { limit: 10, windowSeconds: 2 } };
const FLEXIBLE: Budgets = { read: { limit: 15, windowSeconds: 1 }, write: { limit: 5, windowSeconds: 1 } };
/** Misconfigured servers run on 1 s windows: the bug shows in fewer seconds. */
const ONE_SECOND: Budgets = { read: { limit: 20, windowSeconds: 1 }, write: { limit: 6, windowSeconds: 1 } };
const BUCKET: Budgets = { read: { limit: 12, windowSeconds: 1 }, write: { limit: 6, windowSeconds: 2 } };

/** Correct configurations: every built-in profile must pass against each with zero violations. */
export const LIMITERS: LimiterDef[] = [
  { name: 'express-rate-limit', budgets: EXPRESS, start: (budgets) => startExpressServer({ budgets }) },
  { name: '@fastify/rate-limit', budgets: FASTIFY, start: (budgets) => startFastifyServer({ budgets }) },
  { name: 'rate-limiter-flexible', budgets: FLEXIBLE, start: (budgets) => startFlexibleServer({ budgets }) },
  { name: 'limiter (token bucket)', budgets: BUCKET, start: (budgets) => startTokenBucketServer({ budgets }) },
];

export interface MisconfigDef {
  name: string;
  budgets: Budgets;
  start(budgets: Budgets): Promise<LimitedServer>;
  /** The built-in profile that exposes it. */
  profile: string;
  /** The rule id (src/spec/clauses.ts) the diagnosis must name. */
  rule: string;
}

/** Realistic misconfigurations (issue 10): each must be reported under the rule that names the bug. */
export const MISCONFIGS: MisconfigDef[] = [
  {
    name: 'express-rate-limit: read and write sharing one store (one limiter in front of every route)',
    budgets: ONE_SECOND,
    start: (budgets) => startExpressServer({ budgets, sharedStore: true }),
    profile: 'class-isolation',
    rule: '8.ratelimit.classes-isolated',
  },
  {
    name: '@fastify/rate-limit: two instances, each with its own in-memory store, behind one port',
    // 3 s windows: with 1 s windows (Reset 1) any legitimate limiter may admit up to about 2× per second, so
    // twice the budget is not provably too much (docs/rate-limits.md); over 3 s windows it is.
    budgets: { read: { limit: 20, windowSeconds: 3 }, write: FASTIFY.write },
    start: async (budgets) =>
      startRoundRobinProxy([await startFastifyServer({ budgets, instance: 'a' }), await startFastifyServer({ budgets, instance: 'b' })]),
    profile: 'read-budget',
    rule: '8.ratelimit.over-admission',
  },
  {
    name: 'rate-limiter-flexible: RateLimit-Reset written in milliseconds',
    budgets: FLEXIBLE,
    start: (budgets) => startFlexibleServer({ budgets, resetInMs: true }),
    profile: 'read-budget',
    rule: '8.ratelimit.reset-plausible',
  },
  {
    name: 'rate-limiter-flexible: Remaining reported before the request is counted',
    budgets: FLEXIBLE,
    start: (budgets) => startFlexibleServer({ budgets, remainingBeforeCount: true }),
    profile: 'write-budget',
    rule: '8.ratelimit.under-admission',
  },
  {
    name: 'express-rate-limit: the window written in seconds into windowMs (2 meaning 2 s is 2 ms)',
    budgets: ONE_SECOND,
    start: (budgets) => startExpressServer({ budgets, windowInSecondsAsMs: true }),
    profile: 'read-budget',
    rule: '8.ratelimit.over-admission',
  },
];
