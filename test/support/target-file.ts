/** Writes throwaway target files for CLI tests (JSON, mode 0600, in a temp directory). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TargetFileInput } from '../../src/target/schema.js';

/** A fresh temp directory for one test's files. */
export function tempDir(prefix = 'spgate-robust-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes `content` as JSON to dir/name and returns the path (content may be deliberately invalid). */
export function writeJson(dir: string, name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n', { mode: 0o600 });
  return path;
}

/** Writes a target file for `baseUrl` with one admin key (plus any extra fields) and returns its path. */
export function writeTarget(dir: string, baseUrl: string, extra: Partial<TargetFileInput> = {}, name = 'target.json'): string {
  const content: TargetFileInput = { name: 'robustness', baseUrl, keys: { admin: { key: 'pk_robust_admin_0123456789' } }, ...extra };
  return writeJson(dir, name, content);
}
