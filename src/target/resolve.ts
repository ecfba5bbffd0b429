/**
 * From validated target-file content to a Target: `env:NAME` keys resolved, the base URL normalised
 * (and optionally overridden), loopback detected, caps enforced for remote targets, warnings collected.
 * No file I/O here; load.ts reads files and hands the parsed content in.
 */
import type { z } from 'zod';
import { SpgateError } from '../errors.js';
import { describeIssues } from './issues.js';
import { isLoopbackHost } from './loopback.js';
import { legacyWriteWarning, WRITING_ROLES } from './legacy-keys.js';
import { didYouMean, fieldsAt } from './suggest.js';
import { KEY_ROLES, TargetFile, poolKeyName, type Target, type TargetFileInput } from './schema.js';

export interface ResolveOptions {
  baseUrlOverride?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * `placeholder`: an `env:NAME` key whose variable is unset becomes a placeholder and one warning names
   * every such variable (a dry run sends nothing, so it needs no key); `refuse` (the default): one error
   * naming every unset variable.
   */
  unsetKeys?: 'refuse' | 'placeholder';
}

const ENV_KEY = /^env:(.*)$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Builds a Target from in-memory content (e.g. the embedded reference server's); `source` names it in errors. */
export function targetFromInput(input: TargetFileInput, source: string, opts: ResolveOptions = {}): Target {
  return resolveTarget(input, source, opts);
}

/** Validates parsed content and resolves it into a Target; every problem is a one-line SpgateError. */
export function resolveTarget(data: unknown, source: string, opts: ResolveOptions = {}): Target {
  const parsed = TargetFile.safeParse(data, { reportInput: true });
  if (!parsed.success)
    throw new SpgateError(
      'SPGATE_ERR_TARGET_INVALID',
      `${source}: ${withSuggestion(describeIssues(parsed.error.issues), parsed.error.issues[0])}`,
    );
  const file = parsed.data;
  const warnings: string[] = [];

  const baseUrl = normaliseBaseUrl(
    opts.baseUrlOverride ?? file.baseUrl,
    opts.baseUrlOverride !== undefined ? '--base-url' : `${source}: baseUrl`,
  );
  const url = new URL(baseUrl);
  const loopback = isLoopbackHost(url.hostname);
  if (!/\/v1$/.test(url.pathname))
    warnings.push(`baseUrl ${url.origin}${url.pathname} does not end in /v1 (spec part 9); paths are appended to it as is`);
  if (url.protocol === 'http:' && !loopback) warnings.push(`baseUrl uses plain http to ${url.hostname}: API keys travel unencrypted`);

  if (file.tls.insecureSkipVerify) {
    warnings.push(
      `tls.insecureSkipVerify is on: ${url.host}'s certificate is NOT verified, so the API keys go to whoever answers; use tls.ca instead`,
    );
  }
  const tlsSet =
    file.tls.ca !== undefined || file.tls.cert !== undefined || file.tls.servername !== undefined || file.tls.insecureSkipVerify;
  if (tlsSet && url.protocol === 'http:') warnings.push(`the tls options do not apply: baseUrl ${url.origin} is plain http`);

  const env = opts.env ?? process.env;
  const secrets: Target['secrets'] = {};
  const pools: Target['pools'] = {};
  const keys = { ...file.keys };
  const unset: Array<{ where: string; name: string }> = [];
  // One key's secret: the literal, the variable's value, or undefined when the variable is unset (noted).
  const secretOf = (raw: string, where: string): string | undefined => {
    const m = ENV_KEY.exec(raw);
    if (!m) return raw;
    const name = m[1] ?? '';
    if (!ENV_NAME.test(name)) {
      throw new SpgateError('SPGATE_ERR_TARGET_INVALID', `${source}: ${where}: env: must be followed by a variable name`);
    }
    const value = env[name];
    if (value === undefined || value.trim() === '') {
      unset.push({ where: where.replace(/\.key$/, ''), name });
      // A dry run plans with a placeholder, as the real run with the variable set will.
      return opts.unsetKeys === 'placeholder' ? `unset:${name}` : undefined;
    }
    return value.trim();
  };
  for (const role of KEY_ROLES) {
    const spec = file.keys[role];
    if (!spec) continue;
    const secret = secretOf(spec.key, `keys.${role}.key`);
    const pool = (spec.pool ?? []).map((raw, i) => secretOf(raw, `keys.${role}.pool[${i}]`));
    if (secret !== undefined) secrets[role] = secret;
    pool.forEach((p, i) => {
      if (p !== undefined) secrets[poolKeyName(role, i)] = p;
    });
    if (spec.pool) pools[role] = [role, ...spec.pool.map((_p, i) => poolKeyName(role, i))];
    keys[role] = { ...spec, key: secret ?? spec.key, ...(spec.pool ? { pool: pool.map((p, i) => p ?? spec.pool![i]!) } : {}) };
  }
  if (unset.length > 0) {
    if (opts.unsetKeys !== 'placeholder') throw new SpgateError('SPGATE_ERR_KEY_ENV_MISSING', `${source}: ${unsetKeysLine(unset)}`);
    warnings.push(`${unsetKeysLine(unset)} (a dry run needs none; a real run needs every one)`);
  }
  duplicateKeys(secrets, source);

  if (!loopback && file.caps.maxRps === undefined) {
    throw new SpgateError('SPGATE_ERR_CAPS_REQUIRED', `${source}: caps.maxRps: required because ${url.hostname} is not a loopback address`);
  }

  const legacy = legacyWriteWarning(secrets, WRITING_ROLES, file.allowWrites);
  if (legacy) warnings.push(legacy);

  return {
    ...file,
    baseUrl,
    keys,
    secrets,
    pools,
    source,
    loopback,
    warnings,
    ...(opts.baseUrlOverride !== undefined ? { baseUrlOverride: baseUrl } : {}),
  };
}

/** Adds "did you mean" to an unknown-field message, naming the field of that object nearest to the typo. */
function withSuggestion(message: string, issue: z.core.$ZodIssue | undefined): string {
  if (issue?.code !== 'unrecognized_keys' || issue.keys[0] === undefined) return message;
  const hint = didYouMean(issue.keys[0], fieldsAt(TargetFile, issue.path));
  return hint ? message.replace(': unknown field', `: unknown field${hint}`) : message;
}

/** One line naming every unset key variable: `keys.readOnly: environment variable X is not set`, or all of them. */
function unsetKeysLine(unset: ReadonlyArray<{ where: string; name: string }>): string {
  if (unset.length === 1) return `${unset[0]!.where}: environment variable ${unset[0]!.name} is not set`;
  return `environment variables not set: ${unset.map((u) => `${u.name} (${u.where})`).join(', ')}`;
}

/**
 * Refuses one secret under two key names: a limiter counts one budget for it, so the rate-limit analysis
 * would read one budget as two and its Remaining as jumping between counters (a false finding), and a
 * pool would promise budget it does not have. Dry-run placeholders of one variable are caught the same way.
 */
function duplicateKeys(secrets: Target['secrets'], source: string): void {
  const seen = new Map<string, string>();
  for (const [name, secret] of Object.entries(secrets)) {
    if (secret === undefined) continue;
    const first = seen.get(secret);
    // Two roles may share a key (a small workspace); a pool key must be a budget of its own.
    if (first !== undefined && (name.includes('.pool[') || first.includes('.pool['))) {
      const why = 'each pool key must be a key of its own, with its own budget';
      throw new SpgateError('SPGATE_ERR_TARGET_INVALID', `${source}: ${keyPath(name)}: the same key as ${keyPath(first)} (${why})`);
    }
    if (first === undefined) seen.set(secret, name);
  }
}

/** The target-file path of a key name: keys.admin.key, keys.admin.pool[0]. */
function keyPath(name: string): string {
  return name.includes('.pool[') ? `keys.${name}` : `keys.${name}.key`;
}

/** The target-file content of a resolved target (keys as their resolved secrets: for private files only). */
export function targetFileOf(target: Target): TargetFileInput {
  const { secrets: _s, pools: _p, source: _src, loopback: _l, warnings: _w, baseUrlOverride: _o, ...file } = target;
  return file;
}

/** Validates a base URL (http/https, absolute) and drops trailing slashes, query and fragment. */
export function normaliseBaseUrl(raw: string, label: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SpgateError('SPGATE_ERR_BASE_URL_INVALID', `${label}: ${JSON.stringify(raw)} is not an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SpgateError('SPGATE_ERR_BASE_URL_INVALID', `${label}: ${JSON.stringify(raw)} is not an http(s) URL`);
  }
  if (url.username || url.password) {
    // Credentials in the URL would be printed wherever the URL is; keys belong in the keys section.
    throw new SpgateError('SPGATE_ERR_BASE_URL_INVALID', `${label}: must not contain credentials (user:password@)`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
