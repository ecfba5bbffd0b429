/** Captures where a run happened, for the report's environment section and CTRF's `environment`. */
import os from 'node:os';
import type { Results } from './schema.js';

export type Environment = Results['meta']['environment'];
export type CiEnvironment = NonNullable<Environment['ci']>;

/** The current process's environment: Node version, platform (process.platform), OS release, CPUs, host, CI build. */
export function captureEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const ci = ciEnvironment(env);
  return {
    node: process.version,
    platform: process.platform,
    osRelease: os.release(),
    arch: process.arch,
    cpus: os.availableParallelism?.() ?? os.cpus().length,
    hostname: os.hostname(),
    ...(ci ? { ci } : {}),
  };
}

/**
 * The CI build a run belongs to, from GitHub Actions' default variables (GITHUB_*); undefined outside one.
 * A pull request's branch is GITHUB_HEAD_REF (GITHUB_REF_NAME is then `<n>/merge`).
 */
export function ciEnvironment(env: NodeJS.ProcessEnv): CiEnvironment | undefined {
  const v = (name: string): string | undefined => (env[name]?.trim() ? env[name]!.trim() : undefined);
  if (v('GITHUB_ACTIONS') !== 'true') return undefined;
  const server = v('GITHUB_SERVER_URL')?.replace(/\/+$/, '');
  const repo = v('GITHUB_REPOSITORY');
  const runId = v('GITHUB_RUN_ID');
  const out: CiEnvironment = { provider: 'github-actions' };
  if (server && repo) out.repositoryUrl = `${server}/${repo}`;
  if (repo) out.repositoryName = repo;
  if (server && repo && runId) out.buildUrl = `${server}/${repo}/actions/runs/${runId}`;
  const buildNumber = v('GITHUB_RUN_NUMBER');
  if (buildNumber && /^\d+$/.test(buildNumber)) out.buildNumber = Number(buildNumber);
  const commit = v('GITHUB_SHA');
  if (commit) out.commit = commit;
  const branch = v('GITHUB_HEAD_REF') ?? v('GITHUB_REF_NAME');
  if (branch) out.branchName = branch;
  const workflow = v('GITHUB_WORKFLOW');
  if (workflow) out.buildName = workflow;
  return out;
}
