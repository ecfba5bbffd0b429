/**
 * Idempotency keys (4.7, 4.8, 4.9). Scoped per connection, route and resource. The first request under a
 * key holds the key while it runs, so a concurrent identical request waits and replays instead of taking
 * effect a second time; an identical retry replays the stored reply; a different body conflicts (409).
 */
import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { FaultSet } from './fault-set.js';
import { fail, type Reply } from './reply.js';

interface Entry {
  fingerprint: string;
  reply?: Reply;
  running?: Promise<Reply>;
}

export interface IdempotentCall {
  connectionId: string;
  /** Route name and resource id, e.g. "assign:conv_123". */
  resource: string;
  key: string;
  /** Canonical form of the request body. */
  fingerprint: string;
}

/** Serializes a JSON value with sorted object keys, so key order never makes two bodies differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return (
      '{' +
      Object.keys(obj)
        .sort()
        .map((k) => JSON.stringify(k) + ':' + canonicalJson(obj[k]))
        .join(',') +
      '}'
    );
  }
  return JSON.stringify(value) ?? 'null';
}

const MAX_ENTRIES = 100_000;

export class IdempotencyStore {
  private entries = new Map<string, Entry>();

  constructor(private readonly faults: FaultSet) {}

  /**
   * Runs `exec` at most once per key (unless a fault says otherwise) and replays its reply. With `current`
   * (dialect strict-inputs, replayCurrent), a replay of a success answers current() — the resource as it is
   * now, without a second effect — instead of the stored bytes: the spec asks only that a retry be safe.
   */
  async run(call: IdempotentCall, exec: () => Reply, current?: () => Reply): Promise<Reply> {
    const f = this.faults;
    const scope = f.has('idempotency-cross-connection') ? '*' : call.connectionId;
    const k = scope + '\u0000' + call.resource + '\u0000' + call.key;
    const existing = this.entries.get(k);
    if (existing) {
      if (existing.fingerprint !== call.fingerprint && !f.has('idempotency-ignores-body')) {
        return fail(409, 'idempotency.conflict', 'this Idempotency-Key was used with a different request body');
      }
      const stored = existing.running ? await existing.running : existing.reply!;
      if (!f.has('idempotency-double-effect')) return current && stored.status < 300 ? current() : stored;
      const again = exec();
      existing.reply = again;
      return again;
    }
    if (f.has('idempotency-race')) {
      // the bug: the key is looked up, then the work runs, and only then is the key recorded
      await yieldTurn();
      const reply = exec();
      this.remember(k, { fingerprint: call.fingerprint, reply });
      return reply;
    }
    const entry: Entry = { fingerprint: call.fingerprint };
    entry.running = (async () => {
      // a real store would await its database here; yielding keeps concurrent requests genuinely interleaved
      await yieldTurn();
      return exec();
    })();
    this.remember(k, entry);
    try {
      const reply = await entry.running;
      entry.reply = reply;
      return reply;
    } finally {
      entry.running = undefined;
    }
  }

  /**
   * The stored reply of a finished request under `key`, whatever connection or resource it was made for. Only
   * the idempotency-before-auth fault asks: a cache keyed by the Idempotency-Key alone, consulted before the
   * caller is authenticated, which lets a revoked or expired key replay another request's answer (4.9);
   * with `connectionId`, only that connection's (the idempotency-revoked-own-replay fault).
   */
  replayByKeyAlone(key: string, connectionId?: string): Reply | undefined {
    for (const [k, e] of this.entries) {
      if (e.reply && k.endsWith('\u0000' + key) && (connectionId === undefined || k.startsWith(connectionId + '\u0000'))) return e.reply;
    }
    return undefined;
  }

  private remember(k: string, e: Entry): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(k, e);
  }
}
