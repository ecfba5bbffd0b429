/** toCurl: runnable shell, environment references for the base URL and key, no secrets, exact bodies. */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.js';
import { padJson, rerunCommand, shellQuote, toCurl } from '../../src/conformance/reproduction.js';

const BASE = 'http://127.0.0.1:9/v1';

function exchange(over: Partial<Exchange['request']>): Exchange {
  return {
    id: 'x1',
    request: {
      method: 'GET',
      url: `${BASE}/customers?limit=2`,
      headers: { authorization: 'Bearer <redacted:readOnly>', 'user-agent': 'spgate/0' },
      bodyBytes: 0,
      ...over,
    },
    timings: { start: 0, total: 1 },
  };
}

/** Evaluates a shell word list with bash and returns the argv curl would get (echoing instead of running). */
function argv(line: string, env: Record<string, string>): string[] {
  const out = execFileSync('bash', ['-c', `args() { printf '%s\\0' "$@"; }; ${line.replace(/^curl /, 'args ')}`], {
    env: { ...env, PATH: process.env.PATH ?? '' },
  });
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe('toCurl', () => {
  it('names the key role and reads base URL and key from the environment', () => {
    const [comment, cmd] = toCurl(exchange({}), { baseUrl: BASE });
    expect(comment).toBe('# key role: readOnly');
    expect(cmd).toBe('curl -sS -X GET "$SPGATE_BASE_URL/customers?limit=2" -H "Authorization: Bearer $SPGATE_API_KEY"');
  });

  it('says when no Authorization header was sent', () => {
    const x = exchange({ headers: {} });
    expect(toCurl(x, { baseUrl: BASE })[0]).toBe('# no Authorization header');
  });

  it('quotes any header value and body so the shell passes them through unchanged', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !s.includes('\0')),
        fc.string({ maxLength: 60 }).filter((s) => !s.includes('\0')),
        (h, body) => {
          const x = exchange({
            method: 'POST',
            headers: { authorization: 'Token <redacted:admin>', 'idempotency-key': h },
            body,
            bodyBytes: Buffer.byteLength(body),
          });
          const cmd = toCurl(x, { baseUrl: BASE })[1]!;
          const args = argv(cmd, { SPGATE_BASE_URL: 'http://h/v1', SPGATE_API_KEY: 'pk_secret' });
          expect(args).toContain('Authorization: Token pk_secret');
          expect(args).toContain(`idempotency-key: ${h}`);
          if (body !== '') expect(args[args.indexOf('--data-binary') + 1]).toBe(body);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('regenerates a padded body that the record truncated, to the exact size', () => {
    const full = padJson(70_000);
    const x = exchange({ method: 'POST', body: full.slice(0, 4096), bodyBytes: 70_000 });
    const cmd = toCurl(x, { baseUrl: BASE })[1]!;
    const args = argv(cmd, { SPGATE_BASE_URL: 'http://h/v1', SPGATE_API_KEY: 'k' });
    expect(args[args.indexOf('--data-binary') + 1]).toBe(full);
  });

  it('quotes for POSIX shells', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe("''");
    expect(rerunCommand({ suite: 'auth', seed: 5, runs: 3, targetSource: 'embedded' })).toBe(
      'spgate conformance --suite auth --seed 5 --runs 3',
    );
  });
});
