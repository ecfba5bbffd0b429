/**
 * Opening a command's target, below the CLI: a target file, or the embedded reference server started with
 * the run's seed. Commands normalise their target options here once, so a --base-url or a seed reaches
 * every phase alike; `spgate run`'s pipeline opens its target the same way.
 */
import { loadTarget } from '../target/load.js';
import { normaliseBaseUrl, targetFromInput } from '../target/resolve.js';
import type { Target } from '../target/schema.js';
import type { ReferenceServerOptions } from '../reference/index.js';
import { checkTlsHandshake } from '../client/tls-preflight.js';

/** Where a command's target comes from, normalised once from its arguments. */
export interface TargetOptions {
  /** Target file; the embedded reference server when absent. */
  targetFile?: string;
  /** --base-url: replaces the file's (or the embedded server's) base URL. */
  baseUrl?: string;
  /** Seed of the embedded server (ids, keys, cursor secret), so a printed re-run meets the same state. */
  seed?: number;
  /** Further options of the embedded server (budgets of a load phase, ...). */
  server?: Omit<ReferenceServerOptions, 'port' | 'seed'>;
  /** Verify the TLS handshake with an https target before anything is sent (default true; a dry run sends nothing). */
  verifyTls?: boolean;
  /** A dry run: unset `env:` key variables are named in one warning, not refused (target/resolve.ts). */
  unsetKeys?: 'placeholder';
}

/** The target options of parsed CLI arguments (`--target`, `--base-url`), plus what the command adds. */
export function targetOptions(args: Record<string, unknown>, extra: Omit<TargetOptions, 'targetFile' | 'baseUrl'> = {}): TargetOptions {
  return {
    ...(typeof args.target === 'string' ? { targetFile: args.target } : {}),
    ...(args.baseUrl !== undefined ? { baseUrl: String(args.baseUrl) } : {}),
    ...(args.dryRun === true ? { verifyTls: false, unsetKeys: 'placeholder' as const } : {}),
    ...extra,
  };
}

export interface OpenTarget {
  target: Target;
  /** Stops the embedded server, if one was started (a no-op for a target file). */
  close(): Promise<void>;
}

/** Loads the target file, or starts the embedded reference server on a loopback port. Prints nothing. */
export async function openTarget(opts: TargetOptions): Promise<OpenTarget> {
  // Checked before the embedded server starts, so a bad override cannot leave it running.
  if (opts.baseUrl !== undefined) normaliseBaseUrl(opts.baseUrl, '--base-url');
  const resolve = {
    ...(opts.baseUrl !== undefined ? { baseUrlOverride: opts.baseUrl } : {}),
    ...(opts.unsetKeys ? { unsetKeys: opts.unsetKeys } : {}),
  };
  if (opts.targetFile !== undefined) {
    const target = await loadTarget(opts.targetFile, resolve);
    // One handshake first: an untrusted certificate or a missing client certificate is one line, not N failures.
    if (opts.verifyTls !== false) await checkTlsHandshake(target.baseUrl, { tls: target.tls }, target.timeouts.connectMs ?? 10_000);
    return { target, close: async () => {} };
  }
  // Imported only when needed: a command aimed at a target file (every --workers child) never loads the
  // reference server, nor the reporters unless it writes --out.
  const { startReferenceServer } = await import('../reference/index.js');
  const server = await startReferenceServer({ ...opts.server, port: 0, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
  try {
    return { target: targetFromInput(server.target, 'embedded', resolve), close: () => server.close() };
  } catch (err) {
    await server.close();
    throw err;
  }
}
