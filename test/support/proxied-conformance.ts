/**
 * Conformance runs through rewriting proxies: each hook turns the reference server into one legitimate (or
 * broken) deployment variant, and the checks run against the server's own target file aimed at the proxy.
 */
import { runConformance, type ConformanceOutcome } from '../../src/conformance/run.js';
import type { RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { startRewritingProxy, type ProxyHook, type RewritingProxy } from '../checks/rewriting-proxy.js';

export interface ProxiedRunOptions {
  checks: string[];
  runs: number;
  /** Changes the target file (after its base URL points at the proxy). */
  edit?: (t: TargetFileInput) => TargetFileInput;
}

/** Proxies made for one test file's runs, closed together. */
export class ProxiedConformance {
  private readonly proxies: RewritingProxy[] = [];

  /** Runs checks against `server` through a new proxy with `hook`. */
  async run(server: RunningReferenceServer, hook: ProxyHook, o: ProxiedRunOptions): Promise<ConformanceOutcome> {
    const proxy = await startRewritingProxy(server.target.baseUrl, hook);
    this.proxies.push(proxy);
    const input = { ...(server.target as TargetFileInput), baseUrl: proxy.url };
    return runConformance({ target: targetFromInput(o.edit ? o.edit(input) : input, 'embedded'), checks: o.checks, runs: o.runs, seed: 1 });
  }

  /** Closes every proxy made. */
  async close(): Promise<void> {
    await Promise.all(this.proxies.splice(0).map((p) => p.close()));
  }
}
