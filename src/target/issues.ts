/**
 * One-line descriptions of what is wrong with a target file: zod issues as `field.path: problem`, and
 * parse errors as `line L, column C: problem`. Messages never echo the file's values, because a broken
 * target file may well hold an inline API key next to the error.
 */
import type { z } from 'zod';

/** Formats a zod field path as `keys.admin.key` / `fixtures.ids[0]`; the empty path is `(root)`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const name = String(seg);
      out += /^[A-Za-z_$][\w$]*$/.test(name) ? (out ? `.${name}` : name) : `[${JSON.stringify(name)}]`;
    }
  }
  return out || '(root)';
}

/** Describes the first zod issue in one line (plus how many more there are). */
export function describeIssues(issues: ReadonlyArray<z.core.$ZodIssue>): string {
  const first = issues[0];
  if (!first) return '(root): invalid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return describeIssue(first) + more;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const [key, ...rest] = issue.keys;
    const extra = rest.length ? ` (also ${rest.map((k) => JSON.stringify(k)).join(', ')})` : '';
    return `${formatPath([...issue.path, key ?? '?'])}: unknown field${extra}`;
  }
  const where = formatPath(issue.path);
  if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined) return `${where}: required`;
  if (issue.code === 'invalid_type') return `${where}: must be ${article(issue.expected)}`;
  if (issue.code === 'invalid_value') return `${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return `${where}: ${stripInput(issue.message)}`;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

// zod's default messages say "expected X, received Y"; Y is a type name, never a value, but keep it short.
function stripInput(message: string): string {
  return message.replace(/^Invalid input: /, '').replace(/^Invalid /, 'invalid ');
}

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** Describes a JSON.parse failure as `line L, column C: problem`, without quoting the text. */
export function describeJsonError(text: string, err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  const lc = /\(line (\d+) column (\d+)\)/.exec(msg);
  const pos = /at position (\d+)/.exec(msg);
  const where = lc ? { line: Number(lc[1]), column: Number(lc[2]) } : lineColumn(text, pos ? Number(pos[1]) : locateJsonError(text));
  // V8 appends a snippet of the text (', "…"' or ', …"…"…') — it may hold a key, so it is dropped.
  const problem = msg.split(/, (?:"|\.\.\.)|\s+in JSON at position|\s*\(line \d/)[0]?.trim() || 'invalid JSON';
  return `line ${where.line}, column ${where.column}: ${problem}`;
}

// Some V8 messages ("Unexpected token 'p', ... is not valid JSON") carry no position. The first bad
// character is where a prefix of the text stops failing only because it ended: binary-search for it.
function locateJsonError(text: string): number {
  const failsBeforeEnd = (len: number): boolean => {
    try {
      JSON.parse(text.slice(0, len));
      return false;
    } catch (err) {
      const msg = err instanceof Error ? err.message : '';
      if (/Unexpected end of JSON input/.test(msg)) return false;
      const pos = /at position (\d+)/.exec(msg);
      return !(pos && Number(pos[1]) >= len);
    }
  };
  if (!failsBeforeEnd(text.length)) return text.length;
  let lo = 1;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsBeforeEnd(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}
