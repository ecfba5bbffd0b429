/**
 * The minimal schedule as a standalone reproduction: a bash + curl script a limiter's authors can run
 * without installing spgate. It sends each request at its offset (open model: curl in the background, as
 * the replay does), the keys read from environment variables (never written into the script), prints one
 * line per response with the rate-limit headers, and judges the violation by a criterion stated in the
 * script itself (a simplified, conservative form of the analyzer's rule) for over-admission and
 * under-admission, exiting 1 when it shows; for the other rules (Remaining jumping between counters among
 * them) it prints the evidence and says it does not judge. Pure:
 * schedule, target and analysis in, the script's text out.
 */
import type { RateLimitAnalysis } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import { fillTemplate, placeholderValues, replayBody } from '../trace/fill.js';
import { roleFor } from '../trace/replay.js';
import type { Rate } from './acceptance.js';
import type { Send } from './schedule.js';
import { describeSignature, type ViolationSignature } from './signature.js';

export interface ScriptInput {
  schedule: readonly Send[];
  target: Target;
  signature: ViolationSignature;
  /** The minimal schedule's analysis: the window the over-admission bound is computed with. */
  analysis: RateLimitAnalysis;
  rate: Rate;
}

/** Rules the script judges; for the others it prints the evidence and says it does not judge. */
export const SCRIPT_JUDGES = ['8.ratelimit.over-admission', '8.ratelimit.under-admission'] as const;

/** The environment variable holding a role's key: the target file's own `env:NAME`, else SPGATE_KEY_<ROLE>. */
export function keyVariable(target: Target, role: string): string {
  const spec = (target.keys as Record<string, { key: string } | undefined>)[role]?.key;
  if (spec?.startsWith('env:')) return spec.slice(4);
  return `SPGATE_KEY_${role.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

/** "SPGATE_KEY_ADMIN=… " for each variable the script needs (for the usage line). */
export function scriptUsage(target: Target, schedule: readonly Send[]): string {
  const vars = [...new Set(schedule.map((s) => keyVariable(target, roleFor(s.key, target))))];
  return vars.map((v) => `${v}=…`).join(' ');
}

/** A single-quoted shell word. */
function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The script's text. */
export function reproductionScript(input: ScriptInput): string {
  const { schedule, target, signature } = input;
  const values = placeholderValues(target.fixtures.ids);
  const cls = signature.class ?? '';
  const c = input.analysis.classes.find((x) => x.class === signature.class) ?? input.analysis.classes[0];
  const windowS = c?.statedWindowSeconds ?? c?.windowSeconds ?? c?.observedWindowSeconds ?? 0;
  const vars = [...new Set(schedule.map((s) => keyVariable(target, roleFor(s.key, target))))];
  const t0 = schedule[0]?.t ?? 0;
  const sends = schedule.map((s, i) => {
    const filled = fillTemplate(s.path, values);
    const path = filled.ok ? filled.path : s.path;
    const body = replayBody(s.method, s.path);
    const v = keyVariable(target, roleFor(s.key, target));
    return `send ${i + 1} ${Math.round(s.t - t0)} ${s.class} ${s.method} ${q(path)} "$${v}"${body === undefined ? '' : ` ${q(JSON.stringify(body))}`}`;
  });
  const judged = (SCRIPT_JUDGES as readonly string[]).includes(signature.rule);
  return `#!/usr/bin/env bash
# Reproduces ${describeSignature(signature)}: ${schedule.length} requests, written by \`spgate shrink\`.
# spgate saw it in ${input.rate.reproduced} of ${input.rate.attempts} runs of this schedule. Start it with the budget full
# (wait a window after any other traffic on the key). Needs bash, curl and awk; nothing of spgate.
#
#   ${vars.map((v) => `${v}=<key>`).join(' ')} bash ${'$0'} [BASE_URL]
#
# Exit: 1 when the run shows the violation, 0 when it does not${judged ? '' : ' (this rule is printed, not judged: see the table)'}, 2 on bad use.
set -u
BASE_URL=\${1:-${q(target.baseUrl)}}
${vars.map((v) => `: "\${${v}:?set ${v} to the API key (it is never written into this script)}"`).join('\n')}
CLASS=${q(cls)}
WINDOW_S=${windowS}
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
# The time in ms into NOW, without a fork where bash has EPOCHREALTIME (5.0 on): a burst of sends at one
# offset goes out within a few ms, not after a date process per send.
now_ms() {
  if [ -n "\${EPOCHREALTIME-}" ]; then local t=\${EPOCHREALTIME/[.,]/}; NOW=$(( 10#$t / 1000 )); else NOW=$(( $(date +%s%N) / 1000000 )); fi
}
now_ms; START=$NOW

# send INDEX OFFSET_MS CLASS METHOD PATH KEY [JSON_BODY]: waits for the offset, then sends in the background.
send() {
  local i=$1 at=$2 cls=$3 method=$4 path=$5 key=$6 body=\${7-} wait
  now_ms; wait=$(( at - (NOW - START) ))
  if [ "$wait" -gt 0 ]; then sleep "$(( wait / 1000 )).$(printf '%03d' $(( wait % 1000 )))"; fi
  (
    now_ms; s=$(( NOW - START ))
    if [ -n "$body" ]; then
      code=$(curl -s -o /dev/null -D "$dir/$i.head" -w '%{http_code}' -X "$method" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' --data "$body" "$BASE_URL$path")
    else
      code=$(curl -s -o /dev/null -D "$dir/$i.head" -w '%{http_code}' -X "$method" -H "Authorization: Bearer $key" "$BASE_URL$path")
    fi
    now_ms; e=$(( NOW - START ))
    h() { tr -d '\\r' < "$dir/$i.head" 2>/dev/null | awk -v n="$1" 'tolower($0) ~ "^"n":" {sub(/^[^:]*:[ \\t]*/, ""); v=$0} END{print (v == "" ? "-" : v)}'; }
    printf '%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\n' "$i" "$s" "$e" "$cls" "$method $path" "$code" "$(h ratelimit-limit)" "$(h ratelimit-remaining)" "$(h ratelimit-reset)" "$(h retry-after)" "$(h x-request-id)" > "$dir/$i.row"
  ) &
}

${sends.join('\n')}
wait

cat "$dir"/*.row | sort -n -k2,2 > "$dir/rows"
printf '#\\tsent ms\\tanswered ms\\tclass\\trequest\\tstatus\\tLimit\\tRemaining\\tReset\\tRetry-After\\tX-Request-Id\\n'
cat "$dir/rows"
echo
awk -F '\\t' -v rule=${q(signature.rule)} -v cls="$CLASS" -v W="$WINDOW_S" '
function num(v) { return v ~ /^[0-9]+$/ ? v + 0 : -1 }
$4 == cls || cls == "" { n++; sent[n] = $2; recv[n] = $3; status[n] = $6; lim[n] = num($7); rem[n] = num($8) }
END {
  if (n == 0) { print "no ${cls || ''} responses: nothing to judge"; exit 0 }
  L = -1; for (i = 1; i <= n; i++) if (lim[i] > L) L = lim[i]
  if (rule == "8.ratelimit.over-admission") {
    # Criterion: no limiter of L per W s (fixed window, sliding window or token bucket) admits more than
    # L x (ceil(T/W) + 1) within T, the time from the first send to the last answer.
    a = 0; for (i = 1; i <= n; i++) if (status[i] >= 200 && status[i] < 300) a++
    T = (recv[n] > 0 ? recv[n] : sent[n]) - sent[1]; if (T < 1) T = 1
    if (L < 0 || W <= 0) { print "not judged: no RateLimit-Limit or window"; exit 0 }
    k = T / (W * 1000); if (k != int(k)) k = int(k) + 1
    bound = L * (k + 1)
    if (a > bound) { printf "VIOLATION %s: %d admitted within %d ms; a limiter of %d per %s s admits at most %d in that time\\n", rule, a, T, L, W, bound; exit 1 }
    printf "not shown: %d admitted within %d ms, at most %d allowed (%d per %s s)\\n", a, T, bound, L, W; exit 0
  }
  if (rule == "8.ratelimit.under-admission") {
    # Criterion: a 429 although the answer before it (received before it was sent) said Remaining was
    # higher than the requests that could have been counted after the request of that answer: every other
    # request sent before the refused one whose answer came after that request went out.
    for (i = 2; i <= n; i++) {
      if (status[i] != 429) continue
      p = 0; for (j = 1; j <= n; j++) if (j != i && recv[j] <= sent[i] && rem[j] >= 0 && (p == 0 || recv[j] > recv[p])) p = j
      if (p == 0) continue
      between = 0; for (j = 1; j <= n; j++) if (j != i && j != p && sent[j] < sent[i] && recv[j] > sent[p]) between++
      if (rem[p] > between) { printf "VIOLATION %s: #%d refused (429) although #%d said Remaining %d with %d sent in between\\n", rule, i, p, rem[p], between; exit 1 }
    }
    print "not shown: no 429 while Remaining said budget was left"; exit 0
  }
  printf "%s: this script prints the evidence above and does not judge it; spgate analyze does\\n", rule
  exit 0
}' "$dir/rows"
`;
}
