/**
 * The self-describing target file of a running reference server: keys inline, the dialect's choices as
 * assumptions, fixture ids (pools included) and, unless switched off, the fixtures API. A target written for
 * a dialect describes that dialect truthfully, so the suites can be run against it as a user would.
 */
import { writeFile } from 'node:fs/promises';
import type { KeyRole, TargetFileInput } from '../target/schema.js';
import { otherWorkspaceConnection, type App } from './app.js';
import { DEFAULT_COMPLETED_STATUS } from './store.js';

export interface DescribeOptions {
  /** Write assumptions.rateLimit (default true); false leaves the budgets for the toolkit to discover. */
  budgets?: boolean;
}

/** Builds a complete target file for this server (for loopback use: it holds the keys). */
export function describeTarget(app: App, baseUrl: string, fixturesUrl: string, opts: DescribeOptions = {}): TargetFileInput {
  const keys: Record<string, { key: string; scopes: string[]; note: string }> = {};
  for (const [role, c] of app.conns) keys[role] = { key: c.key, scopes: [...c.scopes], note: c.note };
  const other = otherWorkspaceConnection(app);
  if (other) keys.otherWorkspace = { key: other.key, scopes: [...other.scopes], note: 'the admin key of another workspace (its own data)' };
  const statuses = [...app.store.statuses.values()];
  const budgets = app.limiter.config;
  const d = app.dialect;
  return {
    name: d.name === 'default' ? 'spgate reference server' : `spgate reference server (dialect ${d.name})`,
    baseUrl,
    keys: keys as TargetFileInput['keys'] & Record<KeyRole, unknown>,
    assumptions: {
      resolvePath: d.resolvePath,
      params: { ...d.params },
      identityTypeValue: 'email',
      customerDeleteStatus: [d.customerDeleteStatus],
      statuses: {
        unknownStatus: d.statuses.unknownStatus,
        invalidResolutionStatus: d.statuses.invalidResolutionStatus,
        staleRevision: d.statuses.staleRevision,
        // the target file's one validation status is the one checks compare exactly: query parameters
        validation: d.statuses.queryValidation,
        deletedAttachment: d.statuses.deletedAttachment,
      },
      turnStatus: { ...d.turnStatus },
      defaultCompletedStatus: DEFAULT_COMPLETED_STATUS,
      activeStatuses: statuses.filter((s) => s.type === 'active').map((s) => s.key),
      completedStatuses: statuses.filter((s) => s.type === 'completed').map((s) => s.key),
      ...(opts.budgets === false
        ? {}
        : {
            rateLimit: {
              read: { limit: budgets.read, windowSeconds: budgets.windowSeconds },
              write: { limit: budgets.write, windowSeconds: budgets.windowSeconds },
            },
          }),
      strict: false,
    },
    fixtures: { ...(app.fixturesApi ? { api: fixturesUrl } : {}), ids: structuredClone(app.fixtureIds) },
    allowWrites: true,
    caps: {},
  };
}

/** Writes a target file as `spgate serve --target-out` does: JSON, mode 0600 (it holds the keys in clear). */
export async function writeTargetFile(path: string, target: TargetFileInput): Promise<void> {
  await writeFile(path, JSON.stringify(target, null, 2) + '\n', { mode: 0o600 });
}
