/**
 * The versioned results document: the single input of every reporter, written by `--json` and by
 * `spgate run`, read back by `spgate report` and `spgate compare`.
 */
import { z } from 'zod';
import { RouteClass } from '../spec/routes.js';

export const RESULTS_SCHEMA_VERSION = 1;

const Basis = z.enum(['spec', 'standard', 'assumed']);

export const ExchangeRecord = z.object({
  id: z.string(),
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    body: z.string().optional(),
    bodyBytes: z.number(),
    keyRole: z.string().optional(),
  }),
  response: z
    .object({
      status: z.number().int(),
      headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
      body: z.string(),
      bodyBytes: z.number(),
      json: z.unknown().optional(),
      jsonError: z.string().optional(),
    })
    .optional(),
  error: z.object({ kind: z.string(), message: z.string() }).optional(),
  timings: z.object({ start: z.number(), headers: z.number().optional(), total: z.number() }),
});

export const FindingRecord = z.object({
  checkId: z.string(),
  clause: z.string(),
  basis: Basis,
  severity: z.enum(['error', 'warning']),
  title: z.string(),
  expected: z.string(),
  actual: z.string(),
  exchangeIds: z.array(z.string()),
  reproduction: z
    .object({
      seed: z.number().optional(),
      path: z.string().optional(),
      curl: z.array(z.string()),
      command: z.string().optional(),
    })
    .optional(),
  source: z.string(),
});
export type FindingRecord = z.infer<typeof FindingRecord>;

/**
 * passed and failed are verdicts; warned is a failed `assumed` check; inconclusive ran but could not observe
 * what it exists for (never a pass); skipped did not run (a role, writes or a rule the target does not give).
 */
export const CheckStatus = z.enum(['passed', 'failed', 'warned', 'inconclusive', 'skipped', 'error']);
export type CheckStatus = z.infer<typeof CheckStatus>;

export const CheckResult = z.object({
  checkId: z.string(),
  clause: z.string(),
  basis: Basis,
  suite: z.string(),
  title: z.string(),
  status: CheckStatus,
  /** Why skipped / inconclusive / errored; for a pass, what it could not see. */
  reason: z.string().optional(),
  /** Inconclusive: what to add or change (a target-file line, a pool item) so that the check can judge. */
  remedy: z.string().optional(),
  /** Generated cases (property runs) or requests evaluated. */
  cases: z.number().int().nonnegative(),
  findings: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
});
export type CheckResult = z.infer<typeof CheckResult>;

// The results' figures are per route class of the spec, the one definition (spec/routes.ts).
export { RouteClass };
/** The status families in their one order (histogram slots, summaries and merges follow it; fold/status-family.ts sorts). */
export const STATUS_FAMILIES = ['2xx', '429', 'other'] as const;
// Not StatusFamily.options: zod puts integer-like keys ('429') first.
export const StatusFamily = z.enum(STATUS_FAMILIES);
export type StatusFamily = z.infer<typeof StatusFamily>;

/** Latency summary of one HDR histogram (values in milliseconds). */
export const LatencySummary = z.object({
  class: RouteClass,
  family: StatusFamily,
  /** true: measured from the intended send time (coordinated-omission corrected). */
  corrected: z.boolean(),
  count: z.number().int().nonnegative(),
  min: z.number(),
  mean: z.number(),
  max: z.number(),
  p50: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
  p999: z.number(),
  /** [percentile, ms] points of the HDR percentile distribution, for the chart. */
  curve: z.array(z.tuple([z.number(), z.number()])),
  /** Base64 compressed HDR histogram (hdr-histogram-js encodeIntoCompressedBase64), mergeable. */
  hdr: z.string(),
});
export type LatencySummary = z.infer<typeof LatencySummary>;

const RateLimitSnapshot = z.object({ limit: z.number().nullable(), remaining: z.number().nullable(), reset: z.number().nullable() });

export const TimelinePoint = z.object({
  /** Seconds since the profile started. */
  t: z.number(),
  sent: z.number().int(),
  completed: z.number().int(),
  dropped: z.number().int(),
  byFamily: z.record(z.string(), z.number().int()),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
  rateLimit: z.object({ read: RateLimitSnapshot.optional(), write: RateLimitSnapshot.optional() }),
  /** 429s seen in this second, per class. */
  refused: z.object({ read: z.number().int(), write: z.number().int() }),
});
export type TimelinePoint = z.infer<typeof TimelinePoint>;

export const SampleRef = z.object({
  /** ms since the profile (or trace) started. */
  t: z.number(),
  status: z.number().int(),
  requestId: z.string().optional(),
  class: RouteClass.optional(),
});

export const RateLimitViolation = z.object({
  /** Clause id, e.g. 8.ratelimit.over-admission. */
  rule: z.string(),
  class: RouteClass.optional(),
  /** Key role whose budget this is about, when samples carried one. */
  key: z.string().optional(),
  message: z.string(),
  /** Window the violation happened in, ms since start. */
  window: z.object({ start: z.number(), end: z.number() }).optional(),
  samples: z.array(SampleRef),
  /**
   * Header dialect the finding rests on when it is not the spec's (ietf-structured, ietf-draft,
   * x-ratelimit): its basis is then the IETF draft's semantics, never the spec.
   */
  dialect: z.string().optional(),
});
export type RateLimitViolation = z.infer<typeof RateLimitViolation>;

export const RateLimitClassAnalysis = z.object({
  class: RouteClass,
  /** Key role, when samples carried one (budgets are per key and class). */
  key: z.string().optional(),
  samples: z.number().int(),
  admitted: z.number().int(),
  refused: z.number().int(),
  observedLimit: z.number().nullable(),
  limitConstant: z.boolean(),
  windowSeconds: z.number().nullable(),
  model: z.enum(['fixed-window', 'sliding-window', 'token-bucket', 'unknown']),
  /** Inferred windows (ms since start) and what was admitted in each. */
  windows: z.array(z.object({ start: z.number(), end: z.number(), admitted: z.number().int(), refused: z.number().int() })),
  explanation: z.string(),
  /**
   * Falls of Remaining beyond the run's own requests (src/ratelimit/unexplained-falls.ts), when there were
   * any and no several counters: others spent the budget, and a 429 or a low Remaining was not held against
   * the limiter.
   */
  spentByOthers: z.number().int().optional(),
  /** Which budget drove the analysis: the stated one (target file / options) or the announced one. */
  budgetSource: z.enum(['stated', 'observed']).optional(),
  /** The stated budget, when one was given. */
  statedLimit: z.number().optional(),
  statedWindowSeconds: z.number().optional(),
  /** The window the responses imply (largest RateLimit-Reset, s). */
  observedWindowSeconds: z.number().optional(),
  /** Header dialects seen (spec, ietf-structured, ietf-draft, x-ratelimit), when not only the spec's. */
  dialects: z.array(z.string()).optional(),
});

export const RateLimitAnalysis = z.object({
  classes: z.array(RateLimitClassAnalysis),
  violations: z.array(RateLimitViolation),
});
export type RateLimitAnalysis = z.infer<typeof RateLimitAnalysis>;

export const ThresholdResult = z.object({
  expression: z.string(),
  /** Held, or not judged (notJudged): a threshold the run could not judge does not fail it. */
  ok: z.boolean(),
  actual: z.string(),
  /** Why the run could not judge the threshold and what would let it (e.g. `read.429 > 0` when no budget was spent). */
  notJudged: z.string().optional(),
});
export type ThresholdResult = z.infer<typeof ThresholdResult>;

const Budget = z.object({ limit: z.number(), windowSeconds: z.number() });

/** One shard of a distributed run: enough for `merge` to check the shards belong together and align them. */
export const ShardRecord = z.object({
  /** 0-based. */
  index: z.number().int().nonnegative(),
  count: z.number().int().positive(),
  /** Epoch ms of the shard's clock origin (t = 0 of its timeline and trace). */
  startedAtEpochMs: z.number(),
  /**
   * Which machine's clock startedAtEpochMs was read from (a hash of its host name and boot, never the name):
   * shards on one clock merge exactly; across machines the clocks agree only as well as they are synced.
   */
  clock: z.string().optional(),
  /** The profile as named on the command line (built-in name or file). */
  profile: z.string(),
  /** Which deployment: name and base URL, never a key. */
  target: z.object({ name: z.string(), baseUrl: z.string() }),
  /** The target's stated budgets and strictness, so merge analyses and grades as the shard did. */
  expected: z.object({ read: Budget.optional(), write: Budget.optional() }),
  strict: z.boolean(),
});
export type ShardRecord = z.infer<typeof ShardRecord>;

export const ProfileResult = z.object({
  name: z.string(),
  description: z.string(),
  model: z.enum(['closed', 'open']),
  startedAt: z.string(),
  durationMs: z.number(),
  /** The configuration actually run (after caps). */
  config: z.record(z.string(), z.unknown()),
  totals: z.object({
    sent: z.number().int(),
    completed: z.number().int(),
    dropped: z.number().int(),
    /** Transport errors (resets, timeouts). */
    errors: z.number().int(),
    byStatus: z.record(z.string(), z.number().int()),
    byClass: z.object({ read: z.number().int(), write: z.number().int() }),
  }),
  throughput: z.object({ meanRps: z.number(), peakRps: z.number() }),
  latency: z.array(LatencySummary),
  timeline: z.array(TimelinePoint),
  thresholds: z.array(ThresholdResult),
  rateLimit: RateLimitAnalysis,
  /**
   * RateLimit-Remaining at a finer grain than the per-second timeline (windows are often 1–5 s, so one
   * point a second hides the refills): per class, [bucket start ms, lowest, highest Remaining, 429s].
   */
  rateLimitSeries: z
    .object({
      bucketMs: z.number().positive(),
      read: z.array(z.tuple([z.number(), z.number().nullable(), z.number().nullable(), z.number().int()])),
      write: z.array(z.tuple([z.number(), z.number().nullable(), z.number().nullable(), z.number().int()])),
    })
    .optional(),
  /** Path of the NDJSON trace, when one was written. */
  trace: z.string().optional(),
  /** Connection churn of the load engines: sockets opened (and per second of the run), requests re-sent after a silent keep-alive close. */
  connections: z.object({ opened: z.number().int(), perSecond: z.number(), resent: z.number().int() }).optional(),
  /** Capacity profiles: the highest per-second rate that still met the SLO (null: never met). */
  capacity: z
    .object({
      rps: z.number().nullable(),
      sloP95Ms: z.number(),
      maxErrorPct: z.number(),
      firstBreachAt: z.number().nullable(),
      explanation: z.string(),
      /** Measured with a saturated generator: the target may serve more; `remedy` says how to measure it. */
      lowerBound: z.boolean().optional(),
      /** 429s shaped the figure: it is the keys' admission budget, not the server's capacity; `remedy` says how to see past it. */
      admissionBudget: z.boolean().optional(),
      remedy: z.string().optional(),
    })
    .optional(),
  /**
   * How the load generator kept up (src/fold/generator-verdict.ts): CPU over wall time, event-loop delay,
   * send-time slip against the schedule (open model), and whether the schedule could not be kept.
   */
  generator: z
    .object({
      processes: z.number().int().positive(),
      wallMs: z.number(),
      cpuMs: z.number(),
      cpuShare: z.number(),
      eventLoopDelayP99Ms: z.number(),
      eventLoopDelayMaxMs: z.number(),
      sends: z.number().int(),
      slipP50Ms: z.number().nullable(),
      slipP99Ms: z.number().nullable(),
      slipMaxMs: z.number().nullable(),
      offered: z.number().int(),
      dropped: z.number().int(),
      saturated: z.boolean(),
      reason: z.string().nullable(),
      remedy: z.string().nullable(),
    })
    .optional(),
  /** Set by `spgate load --shard i/N`: which slice of a distributed run this is, for `spgate merge`. */
  shard: ShardRecord.optional(),
  /** Set by `spgate merge` and `--workers`: which shards the figures cover; `missing` non-empty = incomplete. */
  merged: z
    .object({
      count: z.number().int().positive(),
      shards: z.array(z.number().int().nonnegative()),
      missing: z.array(z.number().int().nonnegative()),
    })
    .optional(),
  status: z.enum(['passed', 'failed', 'aborted', 'error']),
  error: z.string().optional(),
});
export type ProfileResult = z.infer<typeof ProfileResult>;

export const Results = z.object({
  schemaVersion: z.literal(RESULTS_SCHEMA_VERSION),
  meta: z.object({
    tool: z.object({ name: z.literal('spgate'), version: z.string() }),
    command: z.string(),
    target: z.object({ name: z.string(), baseUrl: z.string(), embedded: z.boolean() }),
    seed: z.number().optional(),
    runs: z.number().optional(),
    startedAt: z.string(),
    finishedAt: z.string(),
    aborted: z.boolean(),
    abortReason: z.string().optional(),
    /** One id for a logical run, shared by every shard of a distributed run (CTRF's runId); --run-id or SPGATE_RUN_ID. */
    runId: z.string().min(1).optional(),
    /** The gate requires every check that ran to reach a verdict: an inconclusive check fails the run. */
    failOnInconclusive: z.boolean().optional(),
    /** What the run left out and why (e.g. a write profile skipped because the target does not allow writes). */
    notes: z.array(z.string()).optional(),
    environment: z.object({
      node: z.string(),
      /** process.platform (linux, darwin, win32); results before 0.1 held "<OS type> <release>". */
      platform: z.string(),
      osRelease: z.string().optional(),
      arch: z.string(),
      cpus: z.number(),
      hostname: z.string().optional(),
      /** The CI build the run belongs to (GitHub Actions' GITHUB_* variables), when it ran in one. */
      ci: z
        .object({
          provider: z.string(),
          buildName: z.string().optional(),
          buildNumber: z.number().int().optional(),
          buildUrl: z.string().optional(),
          repositoryName: z.string().optional(),
          repositoryUrl: z.string().optional(),
          commit: z.string().optional(),
          branchName: z.string().optional(),
        })
        .optional(),
    }),
  }),
  verdict: z.enum(['passed', 'failed', 'aborted', 'error']),
  checks: z.array(CheckResult),
  findings: z.array(FindingRecord),
  exchanges: z.array(ExchangeRecord),
  load: z.array(ProfileResult),
  errors: z.array(z.string()),
});
export type Results = z.infer<typeof Results>;
