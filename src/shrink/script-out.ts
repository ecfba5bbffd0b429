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
export const SCRIPT_JUDGES = [
  '8.ratelimit.over-admission',
  '8.ratelimit.under-admission',
  '8.ratelimit.remaining-rises',
  '8.ratelimit.reset-plausible',
  '8.ratelimit.classes-isolated',
] as const;

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
  if (rule == "8.ratelimit.over-admission") {
    # Criterion: no limiter of L per W (fixed window, sliding window or token bucket) admits more than
    # L x (ceil(T/W) + 1) within T, the time from the first send to the last answer (5 ms of clock on each side).
    a = 0; last = 0
    for (i = 1; i <= n; i++) { if (status[i] >= 200 && status[i] < 300) a++; if (recv[i] > last) last = recv[i] }
    T = last - sent[1]; if (T < 1) T = 1
    if (L < 0 || Wms <= 0) { print "not judged: no RateLimit-Limit or window"; exit 0 }
    bound = L * (ceil((T + 11) / Wms) + 1)
    if (a > bound) { printf "VIOLATION %s: %d admitted within %d ms; a limiter of %d per %d ms admits at most %d in that time\\n", rule, a, T, L, Wms, bound; exit 1 }
    printf "not shown: %d admitted within %d ms, at most %d allowed (%d per %d ms)\\n", a, T, bound, L, Wms; exit 0
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
      if (rem[p] > between) { printf "VIOLATION %s: #%d refused (429) although #%d said Remaining %d with %d sent in between\\n", rule, id[i], id[p], rem[p], between; exit 1 }
    }
    print "not shown: no 429 while Remaining said budget was left"; exit 0
  }
  if (rule == "8.ratelimit.remaining-rises") {
    if (L < 0 || Wms <= 0) { print "not judged: no RateLimit-Limit or window"; exit 0 }
    # A chain of admitted answers, each sent after the one before it was answered: one counter counted
    # them in this order, so along it Remaining falls only by the requests counted in between and rises
    # only as budget comes back.
    c = 0; for (i = 1; i <= n; i++) if (status[i] != 429 && rem[i] >= 0 && (c == 0 || sent[i] >= recv[ch[c]])) ch[++c] = i
    r = 0; falls = 0
    for (k = 2; k <= c; k++) {
      a = ch[k - 1]; b = ch[k]; d = rem[a] - rem[b]
      if (d < 0) { r++; rf[r] = sent[a]; rt[r] = recv[b]; rb[r] = -d; ra[r] = a; rz[r] = b; continue }
      if (d == 0) continue
      # Criterion 1 (several counters): a fall by more than every request, of any class, that was under
      # way between the two answers, counted at most once each.
      same = -1; for (j = 1; j <= N; j++) if (aAdm[j] && aS[j] < recv[b] && aR[j] > sent[a]) same++
      if (d > same) { falls++; if (falls == 1) { fa = a; fb = b; fs = same } }
    }
    span = c > 1 ? recv[ch[c]] - sent[ch[1]] : 0
    refills = ceil(span / Wms) + 1
    if (falls >= 2 && r > refills) {
      printf "VIOLATION %s: Remaining jumps between counters: it fell from %d (#%d) to %d (#%d) with at most %d request(s) counted in between (%d such falls), and rose %d times within %d ms, where one counter of a %d ms window rises at most %d times\\n", rule, rem[fa], id[fa], rem[fb], id[fb], fs, falls, r, span, Wms, refills
      exit 1
    }
    # Criterion 2 (a refill too large): the rises between any two answers of the chain add up to more than
    # any limiter of L per W gives back within that time, L x (ceil(T/W) + 1), plus one for a token
    # bucket rounding down and one of slack (5 ms of clock on each side).
    for (x = 1; x <= r; x++) {
      tot = 0
      for (y = x; y <= r; y++) {
        tot += rb[y]; T = rt[y] - rf[x]
        bound = L * (ceil((T + 11) / Wms) + 1) + 2
        if (tot > bound) {
          printf "VIOLATION %s: Remaining rose %d times by %d in total within %d ms (#%d to #%d); no refill of %d per %d ms gives back more than %d in that time\\n", rule, y - x + 1, tot, T, id[ra[x]], id[rz[y]], L, Wms, bound
          exit 1
        }
      }
    }
    printf "not shown: Remaining rose %d times along %d ordered answers within %d ms (at most %d for one counter of a %d ms window), %d fall(s) beyond the requests in between\\n", r, c, span, refills, Wms, falls
    exit 0
  }
  if (rule == "8.ratelimit.reset-plausible") {
    # Criterion: Reset counts seconds, so between an answer and a request sent after it, it falls by no more
    # than the seconds that passed from the first request going out to the second answer, plus one for
    # rounding on each side. Reset in milliseconds falls by hundreds within a few ms.
    for (b = 1; b <= n; b++) {
      if (rs[b] < 0) continue
      a = 0; for (j = 1; j <= n; j++) if (j != b && rs[j] >= 0 && recv[j] <= sent[b] && (a == 0 || recv[j] > recv[a])) a = j
      if (a == 0) continue
      el = recv[b] - sent[a]; allowed = ceil(el / 1000) + 2
      if (rs[a] - rs[b] > allowed) {
        printf "VIOLATION %s: RateLimit-Reset fell from %d (#%d) to %d (#%d) within %d ms: it does not count seconds (at most %d could pass)\\n", rule, rs[a], id[a], rs[b], id[b], el, allowed
        exit 1
      }
    }
    print "not shown: RateLimit-Reset never fell faster than the seconds that passed"; exit 0
  }
  if (rule == "8.ratelimit.classes-isolated") {
    # Criterion: between an answer of this class and an admitted one sent after it, Remaining falls by at
    # most the requests of this class under way in between (the first one excepted when it was admitted);
    # a larger fall that as many requests of the other class account for shows one budget for both.
    for (b = 1; b <= n; b++) {
      if (status[b] == 429 || rem[b] < 0) continue
      a = 0; for (j = 1; j <= n; j++) if (j != b && recv[j] <= sent[b] && (a == 0 || recv[j] > recv[a])) a = j
      if (a == 0 || rem[a] < 0) continue
      same = 0; other = 0
      for (j = 1; j <= N; j++) if (aAdm[j] && aS[j] < recv[b] && aR[j] > sent[a]) { if (aC[j] == cls) same++; else other++ }
      if (status[a] != 429) same--
      excess = rem[a] - rem[b] - same
      if (excess > 0 && other >= excess) {
        printf "VIOLATION %s: %s RateLimit-Remaining fell from %d (#%d) to %d (#%d) with at most %d %s request(s) admitted in between, but %d of the other class: they share one budget\\n", rule, cls, rem[a], id[a], rem[b], id[b], same, cls, other
        exit 1
      }
    }
    printf "not shown: %s RateLimit-Remaining never fell by more than its own requests in between\\n", cls; exit 0
  }
  printf "%s: this script prints the evidence above and does not judge it; spgate analyze does\\n", rule
  exit 0
}' "$dir/rows"
`;
}
