/**
 * Test data for the suites: fixture ids from the fixtures API or the target file, and markers (derived
 * from the check's seed) that keep each check's created data apart.
 */
import type { SuiteContext } from './suite.js';

/**
 * A conversation id for reads and refused writes (provider chain: fixtures API, fixtures.ids.conversationId,
 * fixtures.command). Throws FixtureUnavailable, which skips the check naming what to add.
 */
export async function conversationId(ctx: SuiteContext): Promise<string | undefined> {
  return ctx.data ? ctx.data.get('conversationId') : ctx.target.fixtures.ids.conversationId;
}

/** A stored (downloadable) attachment from the provider chain (fixtures.ids.message.storedIndex…). */
export async function storedAttachment(ctx: SuiteContext): Promise<{ messageId: string; index: number } | undefined> {
  if (ctx.data) return ctx.data.get('storedAttachment');
  const m = ctx.target.fixtures.ids.message;
  return m && m.storedIndex !== undefined ? { messageId: m.messageId, index: m.storedIndex } : undefined;
}

/** Lowercase base-36 marker unique to a check's seed and label ("sg1k2j3pag"). */
export function marker(ctx: SuiteContext, label: string): string {
  return `sg${(ctx.fc.seed >>> 0).toString(36)}${label}`;
}

/**
 * A marker no customer matches yet: the seed's marker, or a generation suffix when the same seed already
 * ran against this target (so a re-run against a long-lived server still compares against its own data).
 * When the search cannot be read (a 5xx, a transport error, a body without `data`), the marker is made
 * unique by the clock instead: the seed's own marker may match an earlier run's customers.
 */
export async function freshMarker(ctx: SuiteContext, label: string): Promise<string> {
  const base = marker(ctx, label);
  for (let g = 0; g < 50; g++) {
    const m = g === 0 ? base : `${base}g${g}`;
    const x = await ctx.send({ method: 'GET', path: '/customers', query: { [ctx.target.assumptions.params.search]: m, limit: 1 } });
    const data = (x.response?.json as { data?: unknown[] } | undefined)?.data;
    if (x.response?.status !== 200 || !Array.isArray(data)) break;
    if (data.length === 0) return m;
  }
  return `${base}t${Date.now().toString(36)}`;
}
