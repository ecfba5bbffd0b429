/**
 * Which scope each shown operation needs and which scopes each key role lacks, so auth.scope-missing can
 * expect 403 for every (role, operation) pair where a needed scope is missing. Pure.
 *
 * Only what the spec's words support: 4.6 names both download scopes; the 5.4 scope table's purposes name
 * customers:read ("read … customers"), customers:write ("manage customers"), conversations:write ("manage
 * conversations") and help:read ("read authorized Help Center articles"). Chats (4.1–4.3), /me, /statuses
 * and the collection update name no scope, so they are not in the table.
 */
import { SCOPES, type KeyRole, type KeySpec, type Scope } from '../../src/target/schema.js';

export type ScopedOp = 'listCustomers' | 'deleteCustomer' | 'assign' | 'resolve' | 'download' | 'articles';

export interface OpInfo {
  scopes: readonly Scope[];
  /** Changes data when a faulty server lets it through: only with allowWrites. */
  writes: boolean;
  /** How reports name the operation. */
  label: string;
}

export const OPERATION_SCOPES: Readonly<Record<ScopedOp, OpInfo>> = {
  listCustomers: { scopes: ['customers:read'], writes: false, label: 'GET /customers' },
  deleteCustomer: { scopes: ['customers:write'], writes: true, label: 'DELETE /customers/{id}' },
  assign: { scopes: ['conversations:write'], writes: true, label: 'assign' },
  resolve: { scopes: ['conversations:write'], writes: true, label: 'resolve' },
  download: { scopes: ['attachments:read', 'conversations:read'], writes: false, label: 'attachment download' },
  articles: { scopes: ['help:read'], writes: false, label: 'GET /authoring/articles' },
};

export const SCOPED_OPS = Object.keys(OPERATION_SCOPES) as ScopedOp[];

/** Every scope some shown operation needs, in the table's order. */
export const NEEDED_SCOPES: readonly Scope[] = [...new Set(SCOPED_OPS.flatMap((op) => OPERATION_SCOPES[op].scopes))];

const NOT_READ = SCOPES.filter((s) => !s.endsWith(':read'));

/**
 * What a role's definition (docs/target-file.md) says it lacks, for keys whose scopes the target file does
 * not list. Roles defined by other properties (Help Center delegation, prefix, holder) lack nothing known.
 */
const DOCUMENTED_LACKS: Partial<Record<KeyRole, readonly Scope[]>> = {
  readOnly: NOT_READ,
  noAttachments: ['attachments:read'],
  attachmentsOnly: ['conversations:read'],
};

/**
 * Roles never tried: refused for another reason (401) or a key of another workspace, whose refusal says
 * nothing about scopes.
 */
export const NOT_TRIED: ReadonlySet<KeyRole> = new Set(['expired', 'revoked', 'otherWorkspace']);

/**
 * The scopes a role lacks: the complement of its listed scopes; else its definition's, together with the
 * complement of the scopes GET /me declares for the key (`declared`, see declaredScopes), when it does.
 */
export function lackedScopes(role: KeyRole, spec: Pick<KeySpec, 'scopes'> | undefined, declared?: readonly Scope[]): readonly Scope[] {
  if (spec?.scopes) return SCOPES.filter((s) => !spec.scopes!.includes(s));
  const documented = DOCUMENTED_LACKS[role] ?? [];
  if (!declared) return documented;
  return SCOPES.filter((s) => documented.includes(s) || !declared.includes(s));
}

const SCOPE_HOLDERS = ['key', 'apiKey', 'api_key', 'connection', 'token', 'credentials'] as const;

/**
 * The scopes a GET /me body declares for the calling key (4.10: "returns the workspace and scopes behind
 * the key"; the shape is not shown): a `scopes` array at the top, in `data`, or in a key-like object of
 * either. Read only when it is non-empty, all strings, with no wildcard, and names at least one scope of
 * part 5 (other spellings would make every scope look lacked); unknown entries are left out.
 */
export function declaredScopes(json: unknown): Scope[] | undefined {
  const objects: Array<Record<string, unknown>> = [];
  const add = (v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) objects.push(v as Record<string, unknown>);
  };
  add(json);
  add((json as Record<string, unknown> | null | undefined)?.data);
  for (const o of [...objects]) for (const k of SCOPE_HOLDERS) add(o[k]);
  for (const o of objects) {
    const list = o.scopes;
    if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string' && !v.includes('*'))) continue;
    const known = SCOPES.filter((s) => (list as string[]).includes(s));
    if (known.length > 0) return known;
  }
  return undefined;
}

export interface ScopePair {
  role: KeyRole;
  op: ScopedOp;
  /** The needed scopes the role lacks (at least one). */
  missing: Scope[];
}

/** Every (role, operation) pair where the role lacks a scope the operation needs, in role then operation order. */
export function scopePairs(
  roles: readonly KeyRole[],
  specOf: (role: KeyRole) => Pick<KeySpec, 'scopes'> | undefined,
  declaredOf: (role: KeyRole) => readonly Scope[] | undefined = () => undefined,
): ScopePair[] {
  const out: ScopePair[] = [];
  for (const role of roles) {
    if (NOT_TRIED.has(role)) continue;
    const lacks = lackedScopes(role, specOf(role), declaredOf(role));
    for (const op of SCOPED_OPS) {
      const missing = OPERATION_SCOPES[op].scopes.filter((s) => lacks.includes(s));
      if (missing.length) out.push({ role, op, missing });
    }
  }
  return out;
}
