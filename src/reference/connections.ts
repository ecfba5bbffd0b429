/**
 * The workspace's connections (API keys) and their holders. One connection per key role, so the target file
 * can name a key for every role the suites need. Keys are generated from the seed. The otherWorkspace role
 * is not a connection of this workspace: it is the admin key of the server's second workspace (app.ts).
 */
import { SCOPES, type KeyRole, type Scope } from '../target/schema.js';
import type { Prng } from './prng.js';

export type HolderRole = 'owner' | 'admin' | 'member';

export interface Connection {
  id: string;
  role: KeyRole;
  key: string;
  scopes: ReadonlySet<Scope>;
  holder: HolderRole;
  /** Explicitly delegated for Help Center authoring. */
  delegated: boolean;
  /** Epoch ms, or null for keys without an expiry. */
  expiresAt: number | null;
  revoked: boolean;
  mode: 'live' | 'test' | null;
  note: string;
}

const ALL: readonly Scope[] = SCOPES;
const DAY_MS = 86_400_000;

interface RoleSpec {
  scopes: readonly Scope[];
  holder: HolderRole;
  delegated?: boolean;
  prefix?: string;
  mode?: 'live' | 'test';
  expiresInMs?: number;
  revoked?: boolean;
  note: string;
}

/** Roles whose keys are connections of the workspace itself. */
export type OwnRole = Exclude<KeyRole, 'otherWorkspace'>;

// New roles go at the end: keys are drawn in this order, so earlier roles keep their keys for a seed.
const ROLE_SPECS: Record<OwnRole, RoleSpec> = {
  admin: { scopes: ALL, holder: 'owner', note: 'full scopes, owner, not delegated for Help Center authoring' },
  readOnly: { scopes: ['customers:read', 'conversations:read', 'help:read'], holder: 'admin', note: 'read scopes only' },
  noAttachments: { scopes: ALL.filter((s) => s !== 'attachments:read'), holder: 'admin', note: 'every scope but attachments:read' },
  helpDelegated: {
    scopes: ['help:read', 'help:drafts:write', 'conversations:read'],
    holder: 'admin',
    delegated: true,
    expiresInMs: 30 * DAY_MS,
    note: 'Help Center access on a delegated connection; expires in 30 days',
  },
  legacyLive: { scopes: ALL, holder: 'admin', prefix: 'pk_live_', mode: 'live', note: 'legacy pk_live_ prefix, full scopes' },
  legacyTest: { scopes: ALL, holder: 'admin', prefix: 'pk_test_', mode: 'test', note: 'legacy pk_test_ prefix, full scopes' },
  expired: { scopes: ALL, holder: 'admin', expiresInMs: -DAY_MS, note: 'expired yesterday' },
  revoked: { scopes: ALL, holder: 'admin', revoked: true, note: 'revoked' },
  secondConnection: { scopes: ALL, holder: 'admin', note: 'another connection of the same workspace, full scopes' },
  member: { scopes: ALL, holder: 'member', note: 'full scopes, but the holder is a plain member' },
  attachmentsOnly: { scopes: ['attachments:read'], holder: 'admin', note: 'attachments:read only (no conversations:read)' },
  memberDelegated: {
    scopes: ['help:read', 'help:drafts:write', 'conversations:read'],
    holder: 'member',
    delegated: true,
    expiresInMs: 30 * DAY_MS,
    note: 'Help Center access on a delegated connection whose holder is no longer owner/admin',
  },
};

/** Creates one connection per key role, with keys drawn from the generator. */
export function createConnections(rng: Prng, now: number): Map<KeyRole, Connection> {
  const out = new Map<KeyRole, Connection>();
  for (const role of Object.keys(ROLE_SPECS) as OwnRole[]) {
    const spec = ROLE_SPECS[role];
    out.set(role, {
      id: rng.id('con_'),
      role,
      key: (spec.prefix ?? 'pk_') + rng.token(32),
      scopes: new Set(spec.scopes),
      holder: spec.holder,
      delegated: spec.delegated ?? false,
      expiresAt: spec.expiresInMs === undefined ? null : now + spec.expiresInMs,
      revoked: spec.revoked ?? false,
      mode: spec.mode ?? null,
      note: spec.note,
    });
  }
  return out;
}

/** True when the connection's holder is a current owner or admin. */
export function isOwnerOrAdmin(c: Connection): boolean {
  return c.holder === 'owner' || c.holder === 'admin';
}
