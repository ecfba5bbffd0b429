/** The per-run report directory (reports/<timestamp>/) and the reports/latest pointer. */
import { cp, lstat, mkdir, readlink, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/** A file-name-safe UTC timestamp: 2026-11-20T23-40-12Z. */
export function timestampName(d: Date): string {
  return d
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

/** Creates base/<timestamp>, adding -2, -3… when two runs start within the same second. */
export async function createRunDir(base: string, startedAt: Date): Promise<string> {
  await mkdir(base, { recursive: true });
  const stem = timestampName(startedAt);
  for (let i = 1; ; i++) {
    const dir = join(base, i === 1 ? stem : `${stem}-${i}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * Points base/latest at the run directory: a relative symlink, or a copy where symlinks are not allowed.
 * An existing `latest` is replaced only when it is a symlink or a copy we made (it holds results.json), so
 * a user's own directory of that name is never deleted.
 */
export async function linkLatest(base: string, runDir: string, runName: string): Promise<'symlink' | 'copy' | 'kept'> {
  const latest = join(base, 'latest');
  const existing = await lstat(latest).catch(() => undefined);
  if (existing) {
    const ours =
      existing.isSymbolicLink() ||
      (existing.isDirectory() && (await stat(join(latest, 'results.json')).catch(() => undefined)) !== undefined);
    if (!ours) return 'kept';
    if (existing.isSymbolicLink() && (await readlink(latest)) === runName) return 'symlink';
    await rm(latest, { recursive: true, force: true });
  }
  try {
    await symlink(runName, latest, 'dir');
    return 'symlink';
  } catch {
    await cp(runDir, latest, { recursive: true });
    return 'copy';
  }
}
