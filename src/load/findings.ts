/**
 * Load findings, one way for a live run and a merge of shards alike: a broken clause (or an analyzer
 * violation) becomes a FindingRecord with the basis-driven severity, the request ids cited in `actual` (load
 * runs keep samples, not exchanges) and a curl line for one request of the route. Pure.
 */
import type { FindingRecord, RateLimitViolation, RouteClass } from '../results/schema.js';
import { clause, isClauseId } from '../spec/clauses.js';
import { shellQuote } from '../conformance/reproduction.js';

/** Request ids cited per finding. */
export const CITED = 5;

/** What a curl line needs of a route: a filled path (live) or a template (from a trace). */
export interface CurlRoute {
  class?: string;
  method: string;
  path: string;
  body?: (seq: number) => string;
  idempotencyKey?: boolean;
}

/** A curl line for one request of the route, the key and base URL left as $SPGATE_API_KEY and $SPGATE_BASE_URL. */
export function curlFor(route: CurlRoute): string {
  const body = route.body ? ` -H 'Content-Type: application/json' --data '${route.body(1)}'` : '';
  const idem = route.idempotencyKey ? ` -H "Idempotency-Key: spgate-repro-$RANDOM$RANDOM"` : '';
  return `curl -i -X ${route.method} -H "Authorization: Bearer $SPGATE_API_KEY"${idem}${body} "$SPGATE_BASE_URL${route.path}"`;
}

/** One load finding of clause `cl`; `assumed` clauses are warnings unless the target is strict. */
export function loadFinding(
  cl: string,
  strict: boolean,
  source: string,
  f: { expected: string; actual: string; curl: string },
): FindingRecord {
  const known = isClauseId(cl) ? clause(cl) : undefined;
  const basis = known?.basis ?? 'spec';
  return {
    checkId: `load.${cl}`,
    clause: cl,
    basis,
    severity: basis === 'assumed' && !strict ? 'warning' : 'error',
    title: known?.summary ?? cl,
    expected: f.expected,
    actual: f.actual,
    // Load runs keep no exchanges (only samples); the request ids are cited in `actual` instead.
    exchangeIds: [],
    reproduction: { curl: [f.curl], command: `spgate load --profile ${source}` },
    source,
  };
}

/**
 * The analyzer's violations as findings, one per rule and class (the analyzer reports one per window),
 * skipping clauses the per-response checks already reported. `scope` is appended to the text (e.g.
 * " across all shards").
 */
export function violationFindings(
  violations: RateLimitViolation[],
  already: FindingRecord[],
  routes: readonly CurlRoute[],
  strict: boolean,
  source: string,
  scope = '',
): FindingRecord[] {
  const seen = new Set(already.map((f) => f.clause));
  const groups = new Map<string, RateLimitViolation[]>();
  for (const v of violations) {
    if (seen.has(v.rule)) continue;
    const k = `${v.rule}|${v.class ?? ''}`;
    groups.set(k, [...(groups.get(k) ?? []), v]);
  }
  return [...groups.values()].map((vs) => {
    const v = vs[0]!;
    const ids = [...new Set(vs.flatMap((x) => x.samples.map((s) => s.requestId ?? `${Math.round(s.t)}ms`)))].slice(0, CITED);
    const route = routes.find((r) => r.class === v.class) ?? routes[0] ?? { method: 'GET', path: '/me' };
    // Seconds since the start, as every report shows windows.
    const where = v.window ? ` in the window ${(v.window.start / 1000).toFixed(1)}–${(v.window.end / 1000).toFixed(1)} s` : '';
    const more = vs.length > 1 ? `; ${vs.length} windows or groups in all` : '';
    const f = loadFinding(v.rule, strict, source, {
      expected: isClauseId(v.rule) ? clause(v.rule).summary : v.rule,
      actual: `${v.class ? `${v.class}: ` : ''}${v.message}${where}${more}${scope} (requests ${ids.join(', ') || 'none cited'})`,
      curl: curlFor(route),
    });
    // One request alone does not show a budget broken across a window: say which request did, and that the
    // re-run line (with its trace) reproduces the burst.
    const first = ids[0] ? `${ids[0]}${v.key ? ` (key role ${v.key})` : ''}` : 'none cited';
    f.reproduction!.curl.unshift(
      `# first violating request: ${first}${where}; a ${route.method} ${route.path} like it, once (the re-run line reproduces the burst):`,
    );
    return f;
  });
}

/** The rule on a 429's body code, which the header checks cannot judge (load runs keep only the code). */
export function refusalCodeBroken(status: number, errorCode: string | undefined): { expected: string; actual: string } | undefined {
  if (status !== 429 || errorCode === 'rate_limit.exceeded') return undefined;
  return { expected: 'a 429 body { error: { code: "rate_limit.exceeded" } }', actual: `code ${JSON.stringify(errorCode ?? null)}` };
}

interface Group {
  clause: string;
  class: RouteClass;
  expected: string;
  firstActual: string;
  count: number;
  cited: string[];
  route: CurlRoute;
}

/**
 * Per-response violations folded into one finding per clause and class that counts them and cites the
 * first requests, so memory is one small group per broken clause whatever the run's length.
 */
export class ClauseGroups {
  private readonly groups = new Map<string, Group>();

  /** Notes one response that broke clause `cl`; `cite` names it (request id, or position and time). */
  note(cl: string, cls: RouteClass, expected: string, actual: string, route: CurlRoute, cite: () => string): void {
    const k = `${cl}|${cls}`;
    let g = this.groups.get(k);
    if (!g) this.groups.set(k, (g = { clause: cl, class: cls, expected, firstActual: actual, count: 0, cited: [], route }));
    g.count++;
    if (g.cited.length < CITED) g.cited.push(cite());
  }

  /** One finding per broken clause and class, in the order the clauses first broke. */
  findings(strict: boolean, source: string): FindingRecord[] {
    return [...this.groups.values()].map((g) =>
      loadFinding(g.clause, strict, source, {
        expected: g.expected,
        actual: `${g.count} ${g.class} response(s), first: ${g.firstActual} (requests ${g.cited.join(', ')})`,
        curl: curlFor(g.route),
      }),
    );
  }
}

/** What shaped a load run, which its findings' re-run lines must repeat. */
export interface LoadRerun {
  /** The profile name (built-in) or file. */
  profile: string;
  /** Target.source: a file path, or "embedded". */
  targetSource: string;
  /** The --base-url the run was aimed through, if any. */
  baseUrlOverride?: string;
  /** The run's planned duration, seconds (--duration or the profile's own, with its extensions). */
  durationSeconds: number;
  /** The trace the run wrote, if any. */
  tracePath?: string;
}

// Where a re-run writes its trace when the run wrote none (so replay and shrink have one to read).
const RERUN_TRACE = 'spgate-trace.ndjson';

/** The target options of a re-run line: --target and --base-url as the run had them. */
function targetWords(r: LoadRerun): string[] {
  const words: string[] = [];
  if (r.targetSource !== 'embedded') words.push('--target', shellQuote(r.targetSource));
  if (r.baseUrlOverride !== undefined) words.push('--base-url', shellQuote(r.baseUrlOverride));
  return words;
}

/** `spgate load` with every option that shaped the run, writing a trace for replay and shrink. */
export function loadRerunCommand(r: LoadRerun): string {
  const duration = Math.round(r.durationSeconds * 1000) / 1000;
  return [
    'spgate',
    'load',
    '--profile',
    shellQuote(r.profile),
    ...targetWords(r),
    '--duration',
    String(duration),
    '--trace',
    shellQuote(r.tracePath ?? RERUN_TRACE),
  ].join(' ');
}

/** Comment lines naming the trace and the replay / shrink commands that read it. */
export function traceLines(r: LoadRerun): string[] {
  const trace = shellQuote(r.tracePath ?? RERUN_TRACE);
  const t = targetWords(r).join(' ');
  return [
    r.tracePath ? `# trace of this run: ${trace}` : `# this run wrote no trace: the re-run line writes ${trace}`,
    `# replay it: spgate replay ${trace}${t ? ` ${t}` : ''} · shrink it: spgate shrink ${trace}${t ? ` ${t}` : ''} --trace-out minimal.ndjson`,
  ];
}

/** The findings with re-run lines that repeat the run's target, base URL and duration, and name its trace. */
export function withLoadRerun(findings: readonly FindingRecord[], r: LoadRerun): FindingRecord[] {
  return findings.map((f) => ({
    ...f,
    reproduction: { curl: [...(f.reproduction?.curl ?? []), ...traceLines(r)], command: loadRerunCommand(r) },
  }));
}
