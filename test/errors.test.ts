import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, SpgateError, oneLine, type SpgateErrorCode } from '../src/errors.js';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
const CODES = Object.keys(ERROR_CATALOGUE) as SpgateErrorCode[];

/** The documented sections: `## CODE` heading → the text up to the next heading. */
function sections(): Map<string, string> {
  const out = new Map<string, string>();
  const parts = doc.split(/^## /m).slice(1);
  for (const part of parts) {
    const [heading = '', ...rest] = part.split('\n');
    out.set(heading.trim(), rest.join('\n'));
  }
  return out;
}

describe('error catalogue', () => {
  const documented = sections();

  it.each(CODES)('%s is documented with its exit code, meaning and what to do', (code) => {
    const body = documented.get(code);
    expect(body, `docs/errors.md has no "## ${code}" section`).toBeDefined();
    expect(body).toMatch(new RegExp(`^Exit code: ${ERROR_CATALOGUE[code].exit}$`, 'm'));
    expect(body).toMatch(/^What to do: \S/m);
    const meaning =
      (body ?? '')
        .replace(/^Exit code:.*$/m, '')
        .split(/^What to do:/m)[0]
        ?.trim() ?? '';
    expect(meaning.length).toBeGreaterThan(30);
  });

  it('documents no code that does not exist', () => {
    const stale = [...documented.keys()].filter((h) => h.startsWith('SPGATE_ERR_') && !CODES.includes(h as SpgateErrorCode));
    expect(stale).toEqual([]);
  });

  it('exit codes follow the CLI contract (1, 2 or 3)', () => {
    for (const code of CODES) expect([1, 2, 3]).toContain(ERROR_CATALOGUE[code].exit);
  });

  it('SpgateError carries code, exit code and cause, and prints as one line', () => {
    const cause = new Error('low level');
    const err = new SpgateError('SPGATE_ERR_CAPS_REQUIRED', 'targets/x.json: caps.maxRps: required', { cause });
    expect(err.exitCode).toBe(2);
    expect(err.cause).toBe(cause);
    expect(oneLine(err)).toBe('spgate: SPGATE_ERR_CAPS_REQUIRED: targets/x.json: caps.maxRps: required');
    expect(oneLine(new Error('first\nsecond'))).toBe('spgate: SPGATE_ERR_INTERNAL: first');
  });
});
