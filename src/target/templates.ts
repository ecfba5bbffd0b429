/**
 * Filling the spec's route templates (spec/routes.ts) from a target file. A placeholder `{name}` is filled
 * from `fixtures.ids`; a route whose placeholders cannot be filled is left out of the run (and the run's
 * config says why), so profiles run against any server.
 */
import type { FixtureIds, Target } from './schema.js';

/** Flattens the target's fixture ids into the placeholder names templates may use. */
export function templateValues(ids: FixtureIds): Record<string, string> {
  const v: Record<string, string> = {};
  const put = (k: string, x: string | number | undefined): void => {
    if (x !== undefined) v[k] = String(x);
  };
  put('conversationId', ids.conversationId);
  put('customerId', ids.customerId);
  put('collectionId', ids.collectionId);
  put('sessionsConversationId', ids.sessionsConversationId ?? ids.conversationId);
  put('messageId', ids.message?.messageId);
  put('storedIndex', ids.message ? (ids.message.storedIndex ?? 0) : undefined);
  put('deletedMessageId', ids.deletedMessageId);
  put('completedSessionId', ids.completedTurn?.sessionId);
  put('completedTurnId', ids.completedTurn?.turnId);
  put('pendingSessionId', ids.pendingTurn?.sessionId);
  put('pendingTurnId', ids.pendingTurn?.turnId);
  return v;
}

export type FillResult = { ok: true; path: string } | { ok: false; missing: string[] };

/** Fills a path template (URL-encoding each value); `{resolvePath}` expands first. */
export function fillRoutePath(template: string, target: Target): FillResult {
  const expanded = template.replaceAll('{resolvePath}', target.assumptions.resolvePath);
  const values = templateValues(target.fixtures.ids);
  const missing: string[] = [];
  const path = expanded.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const val = values[name];
    if (val === undefined) {
      missing.push(name);
      return '';
    }
    return encodeURIComponent(val);
  });
  return missing.length ? { ok: false, missing } : { ok: true, path };
}

/** The path template as recorded in traces: `{resolvePath}` expanded, placeholders kept. */
export function tracePath(template: string, target: Target): string {
  return template.replaceAll('{resolvePath}', target.assumptions.resolvePath);
}

/**
 * Compiles a body template into a function of the request sequence number. String leaves may hold
 * `{seq}` (the request's number in the run) and fixture placeholders; everything else is copied.
 */
export function compileBody(template: unknown, target: Target): ((seq: number) => string) | undefined {
  if (template === undefined) return undefined;
  const values = templateValues(target.fixtures.ids);
  const text = JSON.stringify(template, (_k, val: unknown) =>
    typeof val === 'string' ? val.replace(/\{([A-Za-z0-9_]+)\}/g, (m, n: string) => (n === 'seq' ? m : (values[n] ?? m))) : val,
  );
  if (!text.includes('{seq}')) return () => text;
  const parts = text.split('{seq}');
  return (seq) => parts.join(String(seq));
}
