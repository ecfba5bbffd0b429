/**
 * Filling a trace's route templates ("/conversations/{conversationId}/assign") from the target file's
 * fixture ids, so a trace recorded against one deployment replays against another. Pure.
 */
import type { FixtureIds } from '../target/schema.js';
import { templateValues } from '../target/templates.js';

export type Filled = { ok: true; path: string } | { ok: false; missing: string };

/** Values for each placeholder name the spec's routes use, from the fixtures. */
export function placeholderValues(ids: FixtureIds): Record<string, string | undefined> {
  const turn = ids.completedTurn ?? ids.pendingTurn;
  // A load run's trace keeps its profile's template names ({sessionsConversationId}, {storedIndex}, …).
  return {
    ...templateValues(ids),
    conversationId: ids.conversationId,
    customerId: ids.customerId,
    messageId: ids.message?.messageId,
    attachmentIndex: ids.message ? String(ids.message.storedIndex ?? 0) : undefined,
    sessionId: turn?.sessionId,
    turnId: turn?.turnId,
    id: ids.collectionId,
    collectionId: ids.collectionId,
  };
}

/** Replaces every {name} in the template; reports the first placeholder the fixtures cannot fill. */
export function fillTemplate(template: string, values: Record<string, string | undefined>): Filled {
  let missing: string | undefined;
  const path = template.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined) {
      missing ??= name;
      return '';
    }
    return encodeURIComponent(v);
  });
  return missing === undefined ? { ok: true, path } : { ok: false, missing };
}

/** A body for a write the trace did not record: minimal, so the request reaches the limiter. */
export function replayBody(method: string, template: string): unknown {
  if (method === 'GET' || method === 'DELETE' || method === 'HEAD') return undefined;
  if (template.endsWith('/assign')) return { team: 'spgate-replay' };
  return {};
}
