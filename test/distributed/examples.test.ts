import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { TargetFile } from '../../src/target/schema.js';

const read = (p: string): string => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

/** Every document of a manifest, validated against the Kubernetes schema of its kind (kubernetes-models, offline). */
function validated(text: string): Array<Record<string, any>> {
  return parseAllDocuments(text).map((d) => {
    expect(d.errors).toEqual([]);
    const obj = d.toJS() as Record<string, any>;
    const model =
      obj.kind === 'Job'
        ? new Job(obj as never)
        : obj.kind === 'ConfigMap'
          ? new ConfigMap(obj as never)
          : obj.kind === 'PersistentVolumeClaim'
            ? new PersistentVolumeClaim(obj as never)
            : undefined;
    expect(model, `no schema for kind ${String(obj.kind)}`).toBeDefined();
    model!.validate();
    return obj;
  });
}

describe('examples/k8s: the Kubernetes Indexed Job and its merge', () => {
  const load = validated(read('examples/k8s/load-indexed-job.yaml'));
  const merge = validated(read('examples/k8s/merge-job.yaml'));

  it('every document is valid against the Kubernetes schema', () => {
    expect(load.map((o) => o.kind)).toEqual(['PersistentVolumeClaim', 'ConfigMap', 'Job']);
    expect(merge.map((o) => o.kind)).toEqual(['Job']);
  });

  it('the schema check can fail: a broken Job is rejected', () => {
    const job = structuredClone(load[2]!);
    job.spec.completions = 'four';
    expect(() => new Job(job as never).validate()).toThrow();
    const noContainers = structuredClone(load[2]!);
    delete noContainers.spec.template.spec.containers;
    expect(() => new Job(noContainers as never).validate()).toThrow();
  });

  it('the completion index picks the shard: Indexed, one pod per shard, --shard $JOB_COMPLETION_INDEX/N with N = completions', () => {
    const job = load[2]!;
    expect(job.spec.completionMode).toBe('Indexed');
    const n = job.spec.completions as number;
    expect(job.spec.parallelism).toBe(n);
    const cmd = (job.spec.template.spec.containers[0].args as string[]).join(' ');
    expect(cmd).toContain(`--shard "$JOB_COMPLETION_INDEX/${n}"`);
    expect(cmd).toContain('--json "/results/run/shard-$JOB_COMPLETION_INDEX.json"');
    expect(job.spec.template.spec.containers[0].volumeMounts.map((m: { mountPath: string }) => m.mountPath)).toContain('/results');
  });

  it('the merge job reads every shard from the same volume', () => {
    const cmd = (merge[0]!.spec.template.spec.containers[0].args as string[]).join(' ');
    expect(cmd).toContain('merge /results/run/shard-*.json');
    expect(merge[0]!.spec.template.spec.volumes[0].persistentVolumeClaim.claimName).toBe(load[0]!.metadata.name);
  });

  it('the target file in the ConfigMap is a valid spgate target holding no key', () => {
    const text = load[1]!.data['target.yaml'] as string;
    const target = TargetFile.parse(parse(text));
    expect(target.keys.admin.key).toMatch(/^env:/);
    expect(text).not.toMatch(/pk_[A-Za-z0-9]/);
  });
});

describe('examples/github-actions: matrix of shards, then merge', () => {
  const wf = parse(read('examples/github-actions/distributed-load.yml')) as { jobs: Record<string, any> };

  it('the matrix covers shards 0..N-1 of the N the load command names', () => {
    const load = wf.jobs.load;
    const run = load.steps.map((s: { run?: string }) => s.run ?? '').join('\n') as string;
    // Values reach the script through env: (never pasted into run:), so the shard is $SHARD there.
    const step = load.steps.find((s: { run?: string }) => s.run?.includes('spgate load'));
    expect(step.env.SHARD).toBe('${{ matrix.shard }}');
    const m = /--shard "\$SHARD\/(\d+)"/.exec(run);
    expect(m).not.toBeNull();
    const n = Number(m![1]);
    expect(load.strategy.matrix.shard).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(load.strategy['fail-fast']).toBe(false);
    expect(run).toContain('--json "shards/shard-$SHARD.json"');
    const upload = load.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/upload-artifact'));
    expect(upload.with.name).toBe('shard-${{ matrix.shard }}');
  });

  it('the merge job needs the matrix job, downloads every shard, merges and writes the step summary', () => {
    const merge = wf.jobs.merge;
    expect([merge.needs].flat()).toContain('load');
    const download = merge.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/download-artifact'));
    expect(download.with).toMatchObject({ pattern: 'shard-*', 'merge-multiple': true, path: 'shards' });
    const run = merge.steps.map((s: { run?: string }) => s.run ?? '').join('\n') as string;
    expect(run).toContain('spgate merge shards/shard-*.json');
    expect(run).toContain('$GITHUB_STEP_SUMMARY');
    expect(run).toContain('exit $code');
  });

  it('every shard gets the same start time from the plan job', () => {
    expect([wf.jobs.load.needs].flat()).toContain('plan');
    const step = wf.jobs.load.steps.find((s: { run?: string }) => s.run?.includes('spgate load'));
    expect(step.env.START_AT).toBe('${{ needs.plan.outputs.start-at }}');
    expect(step.run).toContain('--start-at "$START_AT"');
  });
});
