/**
 * The minimal schedule as a standalone reproduction: a bash + curl script a limiter's authors can run
 * without installing spgate. It sends each request at its offset (open model: curl in the background, as
 * the replay does; each curl started half a second early, waiting for its request on stdin, so its own start
 * is not in the request's time), the keys read from environment variables (never written into the script,
 * never on a command line), prints one line per response with the rate-limit headers, and judges the
 * violation by a criterion stated in the script itself (a simplified, conservative form of the analyzer's
 * rule) for over-admission, under-admission and Remaining rising (by more than any refill, or jumping
 * between counters), exiting 1 when it shows; for the other rules it prints the evidence and says it does
 * not judge. Its times are taken before the request is handed to curl and after curl ends, so every interval
 * it reads holds the request's: each criterion only gets more lenient from that. Pure: schedule, target and
 * analysis in, the script's text out.
 */
import type { RateLimitAnalysis } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import { fillTemplate, placeholderValues, replayBody } from '../trace/fill.js';
import { roleFor } from '../trace/replay.js';
import type { Rate } from './acceptance.js';
import type { Send } from './schedule.js';
import { SCRIPT_CRITERIA } from './script-criteria.js';
import { describeSignature, type ViolationSignature } from './signature.js';

export interface ScriptInput {
  schedule: readonly Send[];
  target: Target;
  signature: ViolationSignature;
  /** The minimal schedule's analysis: the window the over-admission bound is computed with. */
  analysis: RateLimitAnalysis;
  rate: Rate;
}

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
  const statedS = c?.statedWindowSeconds ?? 0;
  const vars = [...new Set(schedule.map((s) => keyVariable(target, roleFor(s.key, target))))];
  const t0 = schedule[0]?.t ?? 0;
  const sends = schedule.map((s, i) => {
    const filled = fillTemplate(s.path, values);
    const path = filled.ok ? filled.path : s.path;
    const body = replayBody(s.method, s.path);
    const v = keyVariable(target, roleFor(s.key, target));
    return `send ${i + 1} ${Math.round(s.t - t0)} ${s.class} ${s.method} ${q(path)} "$${v}"${body === undefined ? '' : ` ${q(JSON.stringify(body))}`}`;
  });
  const criterion = SCRIPT_CRITERIA[signature.rule];
  const judged = criterion !== undefined;
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
STATED_WINDOW_S=${statedS}
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
# The time in ms into NOW, without a fork where bash has EPOCHREALTIME (5.0 on): a burst of sends at one
# offset goes out within a few ms, not after a date process per send.
now_ms() {
  if [ -n "\${EPOCHREALTIME-}" ]; then local t=\${EPOCHREALTIME/[.,]/}; NOW=$(( 10#$t / 1000 )); else NOW=$(( $(date +%s%N) / 1000000 )); fi
}
# pause MS: sleeps MS milliseconds; nothing when MS is not positive.
pause() { local f; if [ "$1" -gt 0 ]; then printf -v f '%03d' $(( $1 % 1000 )); sleep "$(( $1 / 1000 )).$f"; fi; }
# cfg NAME VALUE: one line of curl's config (curl -K) onto CFG, the value quoted.
cfg() { local v=\${2//\\\\/\\\\\\\\}; CFG+="$1 = \\"\${v//\\"/\\\\\\"}\\""$'\\n'; }
# curl starts this long before its request's offset and waits for the request on its stdin: its own start,
# 100 ms and more on a loaded machine, is then neither in the request's time nor in its measured interval.
# The schedule starts LEAD_MS from now, so that its first requests have the lead too.
LEAD_MS=500
now_ms; START=$(( NOW + LEAD_MS ))

# send INDEX OFFSET_MS CLASS METHOD PATH KEY [JSON_BODY]: starts curl LEAD_MS before the offset; at the
# offset notes the time and hands curl the request (the key in curl's config on its stdin, never on a
# command line); when curl ends, notes the time and the status. The headers are read after the run.
send() {
  local i=$1 at=$2 cls=$3 method=$4 path=$5 key=$6 body=\${7-} CFG=''
  now_ms; pause $(( at - LEAD_MS - (NOW - START) ))
  cfg url "$BASE_URL$path"; cfg request "$method"; cfg header "Authorization: Bearer $key"
  if [ -n "$body" ]; then cfg header 'Content-Type: application/json'; cfg data "$body"; fi
  (
    { now_ms; pause $(( at - (NOW - START) )); now_ms; echo $(( NOW - START )) > "$dir/$i.sent"; printf '%s' "$CFG"; } |
      curl -q -s -o /dev/null -D "$dir/$i.head" -w '%{http_code}' -K - > "$dir/$i.code"
    now_ms; e=$(( NOW - START ))
    read -r s < "$dir/$i.sent"; read -r code < "$dir/$i.code"
    printf '%s\\t%s\\t%s\\t%s\\t%s\\t%s' "$i" "$s" "$e" "$cls" "$method $path" "\${code:-000}" > "$dir/$i.meta"
  ) &
}

${sends.join('\n')}
wait

# One row per answer: what send noted, then the last value of each rate-limit header curl dumped ("-": none).
for m in "$dir"/*.meta; do
  [ -e "$m" ] || continue
  IFS= read -r row < "$m"; printf '%s' "$row"
  if [ -s "\${m%.meta}.head" ]; then
    awk 'BEGIN { split("ratelimit-limit ratelimit-remaining ratelimit-reset retry-after x-request-id", k, " ") }
      { sub(/\\r$/, ""); p = index($0, ":"); if (p > 1) { n = tolower(substr($0, 1, p - 1)); v = substr($0, p + 1); sub(/^[ \\t]+/, "", v); h[n] = v } }
      END { for (j = 1; j <= 5; j++) printf "\\t%s", ((k[j] in h) && h[k[j]] != "" ? h[k[j]] : "-") }' "\${m%.meta}.head"
  else
    printf '\\t-\\t-\\t-\\t-\\t-'
  fi
  echo
done | sort -n -k2,2 > "$dir/rows"
printf '#\\tsent ms\\tanswered ms\\tclass\\trequest\\tstatus\\tLimit\\tRemaining\\tReset\\tRetry-After\\tX-Request-Id\\n'
cat "$dir/rows"
echo
awk -F '\\t' -v rule=${q(signature.rule)} -v cls="$CLASS" -v W="$WINDOW_S" -v SW="$STATED_WINDOW_S" '
function num(v) { return v ~ /^[0-9]+$/ ? v + 0 : -1 }
function ceil(x) { return x == int(x) ? x : int(x) + 1 }
# Every response, of any class: the requests a counter may have counted between two answers.
{ N++; aS[N] = $2; aR[N] = $3; aAdm[N] = ($6 != 429); aC[N] = $4 }
$4 == cls || cls == "" { n++; id[n] = $1; sent[n] = $2; recv[n] = $3; status[n] = $6; lim[n] = num($7); rem[n] = num($8); rs[n] = num($9) }
END {
  if (n == 0) { print "no ${cls || ''} responses: nothing to judge"; exit 0 }
  L = -1; for (i = 1; i <= n; i++) if (lim[i] > L) L = lim[i]
  # The window W (ms), no longer than the true one, as spgate bounds it: the stated window, else the largest
  # Reset less one second (at least 0.5 s), and never more than the window spgate read from the run.
  if (SW > 0) Wms = SW * 1000
  else {
    R = -1; for (i = 1; i <= n; i++) if (rs[i] > R) R = rs[i]
    Wms = (R - 1) * 1000; if (Wms < 500) Wms = 500
    if (R < 0 || (W > 0 && W * 1000 < Wms)) Wms = W * 1000
  }
${criterion ?? '  printf "%s: this script prints the evidence above and does not judge it; spgate analyze does\\n", rule'}
  exit 0
}' "$dir/rows"
`;
}
