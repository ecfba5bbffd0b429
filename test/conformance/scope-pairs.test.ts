/** The scope table of auth.scope-missing (suites/model/scopes.ts): which role lacks what, which pairs are tried. */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import { KEY_ROLES, type KeyRole, type KeySpec } from '../../src/target/schema.js';
import { declaredScopes, lackedScopes, scopePairs } from '../../suites/model/scopes.js';

const label = (p: { role: string; op: string }) => `${p.role}×${p.op}`;

describe('declaredScopes (GET /me, shape not shown)', () => {
  it('reads a scopes array at the top, in data, or in a key-like object', () => {
    expect(declaredScopes({ data: { workspace: {}, scopes: ['attachments:read'] } })).toEqual(['attachments:read']);
    expect(declaredScopes({ scopes: ['help:read', 'customers:read'] })).toEqual(['customers:read', 'help:read']);
    expect(declaredScopes({ data: { apiKey: { scopes: ['customers:read', 'reports:export'] } } })).toEqual(['customers:read']);
  });

  it('declares nothing when the list is missing, empty, a wildcard or in other spellings', () => {
    expect(declaredScopes({ data: { workspace: {} } })).toBeUndefined();
    expect(declaredScopes({ scopes: [] })).toBeUndefined();
    expect(declaredScopes({ scopes: ['customers:*', 'attachments:read'] })).toBeUndefined();
    expect(declaredScopes({ scopes: ['customers.read', 'help.read'] })).toBeUndefined();
    expect(declaredScopes('workspace=ws_1 scopes=customers:read')).toBeUndefined();
  });

  it('without listed scopes, a declaration adds what the key lacks to its role definition', () => {
    expect(lackedScopes('attachmentsOnly', undefined, ['attachments:read'])).toEqual(
      expect.arrayContaining(['customers:read', 'help:read', 'conversations:read']),
    );
    // the definition still counts where the declaration claims more
    expect(lackedScopes('noAttachments', undefined, ['attachments:read', 'customers:read'])).toContain('attachments:read');
    expect(lackedScopes('attachmentsOnly', { scopes: ['attachments:read', 'customers:read'] }, ['attachments:read'])).not.toContain(
      'customers:read',
    );
  });
});

describe('lackedScopes', () => {
  it('listed scopes win over the role definition', () => {
    expect(lackedScopes('readOnly', { scopes: ['customers:read', 'customers:write'] })).not.toContain('customers:write');
    expect(lackedScopes('admin', { scopes: ['customers:read'] })).toContain('help:read');
  });

  it('without listed scopes only what the definition says is lacking', () => {
    expect(lackedScopes('readOnly', undefined)).toEqual(expect.arrayContaining(['customers:write', 'conversations:write', 'keys:manage']));
    expect(lackedScopes('readOnly', undefined).some((s) => s.endsWith(':read'))).toBe(false);
    expect(lackedScopes('noAttachments', undefined)).toEqual(['attachments:read']);
    expect(lackedScopes('attachmentsOnly', undefined)).toEqual(['conversations:read']);
    // defined by delegation, prefix or holder, not by scopes: nothing is known to be lacking
    for (const role of ['admin', 'helpDelegated', 'legacyLive', 'member', 'secondConnection'] as const)
      expect(lackedScopes(role, undefined)).toEqual([]);
  });
});

describe('scopePairs', () => {
  it('never tries keys refused for another reason or of another workspace', () => {
    const none = () => ({ scopes: [] as KeySpec['scopes'] });
    expect(scopePairs(['expired', 'revoked', 'otherWorkspace'], none)).toEqual([]);
  });

  it('the reference server target: every pair its keys give', async () => {
    const server = await startReferenceServer({ seed: 1 });
    try {
      const keys = server.target.keys as Partial<Record<KeyRole, KeySpec>>;
      const pairs = scopePairs(
        KEY_ROLES.filter((r) => keys[r]),
        (r) => keys[r],
      ).map(label);
      expect(pairs).toEqual([
        'readOnly×deleteCustomer',
        'readOnly×assign',
        'readOnly×resolve',
        'readOnly×download',
        'noAttachments×download',
        'helpDelegated×listCustomers',
        'helpDelegated×deleteCustomer',
        'helpDelegated×assign',
        'helpDelegated×resolve',
        'helpDelegated×download',
        'attachmentsOnly×listCustomers',
        'attachmentsOnly×deleteCustomer',
        'attachmentsOnly×assign',
        'attachmentsOnly×resolve',
        'attachmentsOnly×download',
        'attachmentsOnly×articles',
        'memberDelegated×listCustomers',
        'memberDelegated×deleteCustomer',
        'memberDelegated×assign',
        'memberDelegated×resolve',
        'memberDelegated×download',
      ]);
    } finally {
      await server.close();
    }
  });
});
