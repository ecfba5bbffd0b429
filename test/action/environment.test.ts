/**
 * Where a run happened, as CTRF's `environment` says it: under GitHub Actions the build URL, commit, branch
 * (a pull request's head branch, not `<n>/merge`) and run number come from the GITHUB_* variables; the OS
 * platform is process.platform and the kernel release goes to osRelease. The document still validates
 * against CTRF's schema.
 */
import os from 'node:os';
import { validate } from 'ctrf';
import { describe, expect, it } from 'vitest';
import { buildCtrf } from '../../src/report/ctrf.js';
import { captureEnvironment, ciEnvironment } from '../../src/results/environment.js';
import { makeResults } from '../report/fixtures.js';

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/support',
  GITHUB_RUN_ID: '9876543210',
  GITHUB_RUN_NUMBER: '412',
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_REF_NAME: '57/merge',
  GITHUB_HEAD_REF: 'feature/limits',
  GITHUB_WORKFLOW: 'spgate',
};

describe('the run environment', () => {
  it('names the platform as process.platform and the kernel release apart', () => {
    const e = captureEnvironment({});
    expect(e.platform).toBe(process.platform);
    expect(e.osRelease).toBe(os.release());
    expect(e.ci).toBeUndefined();
  });

  it('takes the build from GITHUB_*: URL of the run, commit, head branch, run number', () => {
    expect(captureEnvironment(GITHUB).ci).toEqual({
      provider: 'github-actions',
      buildName: 'spgate',
      buildNumber: 412,
      buildUrl: 'https://github.com/acme/support/actions/runs/9876543210',
      repositoryName: 'acme/support',
      repositoryUrl: 'https://github.com/acme/support',
      commit: GITHUB.GITHUB_SHA,
      branchName: 'feature/limits',
    });
  });

  it('a push build (no GITHUB_HEAD_REF) names GITHUB_REF_NAME; outside Actions there is no build', () => {
    expect(ciEnvironment({ ...GITHUB, GITHUB_HEAD_REF: '', GITHUB_REF_NAME: 'main' })?.branchName).toBe('main');
    expect(ciEnvironment({ ...GITHUB, GITHUB_ACTIONS: undefined })).toBeUndefined();
  });

  it("fills CTRF's environment, which still validates", () => {
    const r = makeResults();
    r.meta.environment = captureEnvironment(GITHUB);
    const doc = buildCtrf(r);
    expect(validate(doc).errors ?? []).toEqual([]);
    const env = (doc.results as { environment: Record<string, string | number> }).environment;
    expect(env).toMatchObject({
      osPlatform: process.platform,
      osRelease: os.release(),
      buildUrl: 'https://github.com/acme/support/actions/runs/9876543210',
      commit: GITHUB.GITHUB_SHA,
      branchName: 'feature/limits',
      buildNumber: 412,
    });
    expect(env).not.toHaveProperty('provider');
  });
});
