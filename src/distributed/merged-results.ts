/**
 * The results document of a merged run, for `spgate merge` and for `spgate load --workers` alike: the
 * merged ProfileResult and findings under the shards' run id and target, an incomplete merge named in the
 * notes. Pure; the command writes it and takes its exit code from src/run/exit-code.ts.
 */
import { buildResults } from '../results/build.js';
import type { Results } from '../results/schema.js';
import type { MergedFiles } from './merge-files.js';

/** The results document of a merged run (command names the merge or the `load --workers` run). */
export function mergedResults(
  m: MergedFiles,
  command: string,
  extra: { aborted?: boolean; abortReason?: string | undefined; secrets?: string[]; failOnInconclusive?: boolean } = {},
): Results {
  const aborted = extra.aborted === true || m.result.status === 'aborted';
  const notes = m.result.merged?.missing.length ? [m.result.error ?? 'incomplete'] : [];
  return buildResults({
    command,
    ...(m.runId ? { runId: m.runId } : {}),
    target: m.first.meta.target,
    startedAt: new Date(m.result.startedAt),
    finishedAt: m.finishedAt,
    aborted,
    abortReason: extra.abortReason ?? (aborted ? 'a shard was aborted' : undefined),
    notes,
    checks: [],
    findings: m.findings,
    exchanges: [],
    load: [m.result],
    errors: m.result.error ? [m.result.error] : [],
    secrets: extra.secrets,
    ...(extra.failOnInconclusive ? { failOnInconclusive: true } : {}),
  });
}
