/**
 * Conformance runs through rewriting proxies: each hook turns the reference server into one legitimate (or
 * broken) deployment variant, and the checks run against the server's own target file aimed at the proxy.
 */
import { afterAll, beforeAll } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from './conformance.js';
import type { FaultName, RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { startRewritingProxy, type ProxiedAnswer, type ProxyHook, type RewritingProxy } from '../checks/rewriting-proxy.js';

export interface ProxiedRunOptions {
  checks: string[];
  runs: number;
  /** Changes the target file (after its base URL points at the proxy). */
  edit?: (t: TargetFileInput) => TargetFileInput;
  /** Reference server faults switched on for this run only. */
  faults?: FaultName[];
}

/** A deployment's 503 with an error envelope: a read it could not serve. */
export function unavailable(): ProxiedAnswer {
  return {
    status: 503,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_proxy' },
    json: { error: { code: 'unavailable', message: 'try later', requestId: 'req_proxy' } },
  };
}

type CheckResult = ConformanceOutcome['checks'][number];

/** A check's status, with its reason when it has one ("inconclusive: …"). */
const statusWithReason = (c: CheckResult): string => (c.reason ? `${c.status}: ${c.reason}` : c.status);

/** Each check's verdict (statusWithReason), by check id. */
export function verdicts(out: ConformanceOutcome): Record<string, string> {
  return Object.fromEntries(out.checks.map((c) => [c.checkId, statusWithReason(c)]));
}

/** The first (usually only) check's verdict. */
export function verdict(out: ConformanceOutcome): string {
  return statusWithReason(out.checks[0]!);
}

/** One reference server behind proxies, for the tests of a file or a describe block. */
export interface ProxiedReference {
  /** The server (started before the block's tests). */
  readonly server: RunningReferenceServer;
  /** Runs checks against the server through a new proxy with `hook`. */
  run(hook: ProxyHook, o: ProxiedRunOptions): Promise<ConformanceOutcome>;
}

/**
 * Starts a reference server before the enclosing block's tests and closes it, with every proxy made for
 * it, after them (call it at a file's top level or inside a describe).
 */
export function proxiedReference(start: () => Promise<RunningReferenceServer>): ProxiedReference {
  const proxies: RewritingProxy[] = [];
  let started: RunningReferenceServer | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    await started?.close();
  });
  const server = (): RunningReferenceServer => {
    if (!started) throw new Error('the reference server is started in beforeAll: use it inside a test');
    return started;
  };
  return {
    get server() {
      return server();
    },
    async run(hook, o) {
      const s = server();
      const proxy = await startRewritingProxy(s.target.baseUrl, hook);
      proxies.push(proxy);
      const input = { ...(s.target as TargetFileInput), baseUrl: proxy.url };
      const run = () =>
        runConformance({ target: targetFromInput(o.edit ? o.edit(input) : input, 'embedded'), checks: o.checks, runs: o.runs, seed: 1 });
      if (!o.faults) return run();
      s.setFaults(o.faults);
      try {
        return await run();
      } finally {
        s.setFaults([]);
      }
    },
  };
}
