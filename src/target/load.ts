/**
 * Loading a target file from disk: JSON or YAML by extension, validated and resolved by resolve.ts.
 * Every failure is a one-line SpgateError that names the file and the field (or line and column).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, resolve as resolvePath } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { SpgateError } from '../errors.js';
import { describeJsonError } from './issues.js';
import { resolveTarget, type ResolveOptions } from './resolve.js';
import { KEY_ROLES, type Target } from './schema.js';
import { absoluteTlsPaths, checkTlsFiles } from './tls.js';

export { targetFromInput } from './resolve.js';

/** Reads, validates and resolves a target file (JSON, or YAML for .yaml/.yml). */
export async function loadTarget(path: string, opts: ResolveOptions = {}): Promise<Target> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? 'error'})`;
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `${path}: ${why}`, { cause: err });
  }
  const data = parseTargetText(path, text);
  const target = resolveTarget(data, path, opts);
  target.tls = absoluteTlsPaths(target.tls, dirname(resolvePath(path)));
  checkTlsFiles(target.tls, path);
  const isInline = (raw: unknown): boolean => typeof raw === 'string' && !raw.startsWith('env:');
  const inline = KEY_ROLES.filter((role) => {
    const spec = (data as { keys?: Record<string, { key?: unknown; pool?: unknown } | undefined> }).keys?.[role];
    return isInline(spec?.key) || (Array.isArray(spec?.pool) && spec.pool.some(isInline));
  });
  if (inline.length > 0 && !target.loopback && (await isTrackedByGit(path))) {
    target.warnings.push(
      `${path} is tracked by git and holds inline keys (${inline.join(', ')}): use env:NAME instead and rotate those keys`,
    );
  }
  return target;
}

/** Parses target-file text by the file's extension; syntax errors name the line and column. */
export function parseTargetText(path: string, text: string): unknown {
  const ext = extname(path).toLowerCase();
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (ext === '.yaml' || ext === '.yml') {
    try {
      return parseYaml(body, { prettyErrors: true, uniqueKeys: true }) as unknown;
    } catch (err) {
      if (err instanceof YAMLParseError) {
        const pos = err.linePos?.[0];
        const where = pos ? `line ${pos.line}, column ${pos.col}: ` : '';
        const problem = (err.message.split('\n', 1)[0] ?? 'invalid YAML').replace(/ at line \d+, column \d+:?$/, '');
        throw new SpgateError('SPGATE_ERR_TARGET_INVALID', `${path}: ${where}${problem}`, { cause: err });
      }
      throw new SpgateError('SPGATE_ERR_TARGET_INVALID', `${path}: invalid YAML`, { cause: err });
    }
  }
  try {
    return JSON.parse(body) as unknown;
  } catch (err) {
    throw new SpgateError('SPGATE_ERR_TARGET_INVALID', `${path}: invalid JSON at ${describeJsonError(body, err)}`, { cause: err });
  }
}

/** True when git tracks the file; false when it does not, or git or a repository is absent. */
export function isTrackedByGit(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      execFile('git', ['ls-files', '--error-unmatch', '--', basename(path)], { cwd: dirname(path), timeout: 5_000 }, (err) =>
        resolve(!err),
      );
    } catch {
      resolve(false);
    }
  });
}
