/**
 * The target file `spgate init` writes, as YAML text: what the probe learned as values, every choice it could
 * not learn as a commented-out placeholder naming the spec clause, keys as `env:` references only. Pure.
 */
import YAML from 'yaml';
import { envNameFor } from '../target/env-names.js';
import { KEY_ROLES, type KeyRole } from '../target/schema.js';
import type { ProbeResult } from './probe.js';

export interface RenderInput {
  baseUrl: string;
  /** env:NAME of the admin key. */
  adminKey: string;
  loopback: boolean;
  probe: ProbeResult;
  /** ISO date for the header comment. */
  date: string;
  /** Path or URL of the target file's JSON Schema, for the yaml-language-server line (editors check the file with it). */
  schemaRef?: string;
  /** The tls block the probe used (paths relative to the written file). */
  tls?: Record<string, unknown>;
}

const ROLE_HINTS: Record<Exclude<KeyRole, 'admin'>, string> = {
  readOnly: 'only *:read scopes',
  noAttachments: 'conversations:read but not attachments:read',
  helpDelegated: 'Help Center access on an explicitly delegated connection (owner/admin)',
  legacyLive: 'a pk_live_ key of the same workspace',
  legacyTest: 'a pk_test_ key of the same workspace',
  expired: 'an expired key (must be refused with 401)',
  revoked: 'a revoked key (must be refused with 401)',
  secondConnection: 'another connection (admin, full scopes) of the same workspace',
  member: 'a key whose holder is no longer owner/admin',
  attachmentsOnly: 'attachments:read without conversations:read',
  otherWorkspace: "a key of ANOTHER workspace (must not see this one's data)",
  memberDelegated: 'Help Center access on a delegated connection whose holder is no longer owner/admin',
};

/** One YAML section with `comments` appended inside it (commented-out placeholders, indented as children). */
function section(name: string, value: unknown, comments: string[] = []): string[] {
  const body = value === undefined ? `${name}:` : YAML.stringify({ [name]: value }, { lineWidth: 0 }).trimEnd();
  return [...body.split('\n'), ...comments.map((c) => `  ${c}`)];
}

/** The YAML text of the target file. */
export function renderTargetYaml(r: RenderInput): string {
  const p = r.probe;
  const lines: string[] = [
    ...(r.schemaRef ? [`# yaml-language-server: $schema=${r.schemaRef}`] : []),
    `# spgate target file, written by \`spgate init\` on ${r.date} from ${p.requests} read requests to ${r.baseUrl}.`,
    '# Values below were learned from the API; commented-out lines are choices it could not learn (uncomment',
    '# and fill them in). Field reference: docs/target-file.md. Keys are env: references, never secrets.',
    ...p.notes.map((n) => `# note: ${n}`),
    ...section('name', new URL(r.baseUrl).hostname),
    ...section('baseUrl', r.baseUrl),
  ];

  const keys = KEY_ROLES.filter((k): k is Exclude<KeyRole, 'admin'> => k !== 'admin').map(
    (role) => `# ${role}: { key: "env:${envNameFor(role)}" }   # ${ROLE_HINTS[role]}`,
  );
  lines.push(...section('keys', { admin: { key: r.adminKey, ...(p.scopes ? { scopes: p.scopes.filter(isScope) } : {}) } }, keys));

  const assumptions: Record<string, unknown> = {};
  if (p.params.externalId || p.params.search) assumptions.params = { ...p.params };
  if (p.statuses) {
    assumptions.activeStatuses = p.statuses.active;
    assumptions.completedStatuses = p.statuses.completed;
    if (p.statuses.defaultCompleted) assumptions.defaultCompletedStatus = p.statuses.defaultCompleted;
  }
  const placeholders = [
    '# resolvePath: /conversations/{conversationId}/resolve   # 4.8: the exact path is not shown',
    ...(p.params.externalId && p.params.search ? [] : ['# params: { externalId: externalId, search: q }   # 4.4: filter names not shown']),
    '# customerDeleteStatus: [204]   # 4.5: success status of DELETE /customers/{id} not shown',
    '# statuses: { unknownStatus: 422, invalidResolutionStatus: 422, validation: 400 }   # 7: statuses not shown',
    '# turnStatus: { pending: pending, completed: completed, cancelled: cancelled }   # 3: turn status values not shown',
  ];
  if (p.readBudget) {
    placeholders.push(
      `# rateLimit: { read: { limit: ${p.readBudget.limit}, windowSeconds: ${p.readBudget.windowSeconds} } }   # observed: ${p.readBudget.evidence}; the window is a lower bound. Left unstated, every run discovers budgets from the headers`,
    );
  } else
    placeholders.push(
      '# rateLimit: { read: { limit: 600, windowSeconds: 60 }, write: { limit: 120, windowSeconds: 60 } }   # 8: budgets not shown',
    );
  lines.push(...section('assumptions', Object.keys(assumptions).length ? assumptions : undefined, placeholders));

  const ids: Record<string, unknown> = {};
  if (p.customerId) ids.customerId = p.customerId;
  lines.push(
    ...section('fixtures', { ids }, [
      '  # conversationId: conv_…   # a conversation the keys can read (and, with allowWrites, assign/resolve)',
      '  # message: { messageId: …, storedIndex: 0, externalIndex: 1, fetchingIndex: 2 }   # 4.6 attachments',
      '  # pendingTurn: { sessionId: …, turnId: … }   # 4.1/4.2, owned by the admin key',
      '  # collectionId: …   # 4.9, updated only with helpDelegated and allowWrites',
    ]),
  );
  lines.push(
    ...section('allowWrites', false),
    '# allowWrites: true only on a workspace whose data may change (destructive checks, write-class load)',
  );
  lines.push(
    ...section('caps', r.loopback ? {} : { maxRps: 5, maxRequests: 20000 }),
    '# caps: { maxRps: …, maxRequests: …, maxDuration: … }   # ceilings spgate never exceeds; maxRps is required off loopback',
  );
  if (r.tls && Object.keys(r.tls).length > 0) lines.push(...section('tls', r.tls));
  else if (r.baseUrl.startsWith('https:'))
    lines.push(
      '# tls: { ca: internal-ca.pem, cert: client.pem, key: client.key }   # internal CA, mTLS (docs/target-file.md#tls-and-proxies)',
    );
  return lines.join('\n') + '\n';
}

const SCOPE = /^[a-z]+(:[a-z]+)+$/;
function isScope(s: string): boolean {
  return SCOPE.test(s);
}
