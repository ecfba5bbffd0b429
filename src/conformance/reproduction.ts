/**
 * Reproductions: a recorded (already redacted) Exchange as a copy-pasteable curl command that reads the
 * base URL and the key from the environment, and the spgate command that re-runs a suite.
 */
import type { Exchange } from '../client/exchange.js';

// Headers curl sets itself, or that only describe this client.
const SKIP_HEADERS = new Set(['user-agent', 'content-length', 'host', 'connection', 'authorization']);
const REDACTED_KEY = /<redacted(?::([A-Za-z]+))?>/g;
const PAD_PREFIX = '{"pad":"';

/** Quotes a string for POSIX shells (single quotes; embedded single quotes closed and escaped). */
export function shellQuote(s: string): string {
  if (s === '') return "''";
  if (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A shell word: environment references stay expandable, every other character is quoted. */
function withVars(parts: Array<{ text: string } | { env: string }>): string {
  // One double-quoted word reads best ("$SPGATE_BASE_URL/customers"); it is only safe without these characters.
  if (parts.every((p) => 'env' in p || /^[^"\\$`!]*$/.test(p.text))) {
    return `"${parts.map((p) => ('env' in p ? `$${p.env}` : p.text)).join('')}"`;
  }
  return parts.map((p) => ('env' in p ? `"$${p.env}"` : shellQuote(p.text))).join('');
}

/** A JSON body of exactly `bytes` bytes ({"pad":"xxx…"}), which toCurl can regenerate when truncated. */
export function padJson(bytes: number): string {
  const n = Math.max(0, bytes - PAD_PREFIX.length - 2);
  return `${PAD_PREFIX}${'x'.repeat(n)}"}`;
}

function bodyArgs(x: Exchange): string[] {
  const body = x.request.body;
  if (body === undefined || x.request.bodyBytes === 0) return [];
  const shown = Buffer.byteLength(body);
  if (shown >= x.request.bodyBytes) return ['--data-binary', shellQuote(body)];
  if (body.startsWith(PAD_PREFIX) && /^x*$/.test(body.slice(PAD_PREFIX.length))) {
    const n = x.request.bodyBytes - PAD_PREFIX.length - 2;
    return ['--data-binary', `"{\\"pad\\":\\"$(head -c ${n} /dev/zero | tr '\\0' x)\\"}"`];
  }
  return ['--data-binary', shellQuote(body), `# body truncated in the record: ${shown} of ${x.request.bodyBytes} bytes shown`];
}

function authArgs(x: Exchange): { args: string[]; comment: string } {
  const auth = Object.entries(x.request.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  if (auth === undefined) return { args: [], comment: '# no Authorization header' };
  let role: string | undefined;
  const parts: Array<{ text: string } | { env: string }> = [];
  let last = 0;
  const value = `Authorization: ${auth}`;
  for (const m of value.matchAll(REDACTED_KEY)) {
    role ??= m[1];
    parts.push({ text: value.slice(last, m.index) }, { env: 'SPGATE_API_KEY' });
    last = m.index + m[0].length;
  }
  parts.push({ text: value.slice(last) });
  const word = parts.length === 1 ? shellQuote(value) : withVars(parts.filter((p) => !('text' in p) || p.text !== ''));
  const comment = role ? `# key role: ${role}` : parts.length > 1 ? '# key role: (unknown)' : '# Authorization sent as shown (no key)';
  return { args: ['-H', word], comment };
}

/** Renders one exchange as curl lines: a comment naming the key role, then the command. */
export function toCurl(x: Exchange, opts: { baseUrl?: string } = {}): string[] {
  const base = opts.baseUrl?.replace(/\/+$/, '');
  const url = x.request.url;
  const urlWord = base && url.startsWith(base) ? withVars([{ env: 'SPGATE_BASE_URL' }, { text: url.slice(base.length) }]) : shellQuote(url);
  const { args: auth, comment } = authArgs(x);
  const words = ['curl', '-sS', '-X', x.request.method, urlWord, ...auth];
  for (const [k, v] of Object.entries(x.request.headers)) {
    if (SKIP_HEADERS.has(k.toLowerCase())) continue;
    words.push('-H', shellQuote(`${k}: ${v}`));
  }
  const body = bodyArgs(x);
  const trailing = body.length === 3 ? body.pop() : undefined;
  words.push(...body);
  const lines = [comment, words.join(' ')];
  if (trailing) lines.push(trailing);
  return lines;
}

export interface RerunInput {
  suite: string;
  /** The check to re-run alone (its generated cases depend only on the seed and its id). */
  checkId?: string;
  seed: number;
  runs: number;
  /** Target.source: a file path, or "embedded" (then the seed also recreates the server's state). */
  targetSource?: string;
  /** The --base-url the run was aimed through, if any. */
  baseUrlOverride?: string;
}

/** The spgate command that re-runs a check with every option that shaped the run (target, base URL, seed, runs). */
export function rerunCommand(input: RerunInput): string {
  const words = ['spgate', 'conformance'];
  if (input.targetSource && input.targetSource !== 'embedded') words.push('--target', shellQuote(input.targetSource));
  if (input.baseUrlOverride !== undefined) words.push('--base-url', shellQuote(input.baseUrlOverride));
  words.push('--suite', shellQuote(input.suite));
  if (input.checkId !== undefined) words.push('--check', shellQuote(input.checkId));
  words.push('--seed', String(input.seed), '--runs', String(input.runs));
  return words.join(' ');
}
