/** The self-describing target file of a running reference server: keys inline, fixtures API, its choices. */
import type { KeyRole, TargetFileInput } from '../target/schema.js';
import type { App } from './app.js';
import { DEFAULT_COMPLETED_STATUS } from './store.js';

/** Builds a complete target file for this server (for loopback use: it holds the keys). */
export function describeTarget(app: App, baseUrl: string, fixturesUrl: string): TargetFileInput {
  const keys: Record<string, { key: string; scopes: string[]; note: string }> = {};
  for (const [role, c] of app.conns) keys[role] = { key: c.key, scopes: [...c.scopes], note: c.note };
  const statuses = [...app.store.statuses.values()];
  const budgets = app.limiter.config;
  return {
    name: 'spgate reference server',
    baseUrl,
    keys: keys as TargetFileInput['keys'] & Record<KeyRole, unknown>,
    assumptions: {
      resolvePath: '/conversations/{conversationId}/resolve',
      params: { externalId: 'externalId', search: 'q', identityType: 'identityType' },
      identityTypeValue: 'email',
      customerDeleteStatus: [204],
      statuses: { unknownStatus: 422, invalidResolutionStatus: 422, staleRevision: 409, validation: 400, deletedAttachment: 404 },
      turnStatus: { pending: 'pending', completed: 'completed', cancelled: 'cancelled' },
      defaultCompletedStatus: DEFAULT_COMPLETED_STATUS,
      activeStatuses: statuses.filter((s) => s.type === 'active').map((s) => s.key),
      completedStatuses: statuses.filter((s) => s.type === 'completed').map((s) => s.key),
      rateLimit: {
        read: { limit: budgets.read, windowSeconds: budgets.windowSeconds },
        write: { limit: budgets.write, windowSeconds: budgets.windowSeconds },
      },
      strict: false,
    },
    fixtures: { api: fixturesUrl, ids: app.fixtureIds },
    allowWrites: true,
    caps: {},
  };
}
