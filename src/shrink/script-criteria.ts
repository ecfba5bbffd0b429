/**
 * The standalone script's criteria (script-out.ts), one per rule it judges: awk code run at the end of the
 * script over its rows, each a simplified, conservative form of the analyzer's rule (src/ratelimit/rules/),
 * printing "VIOLATION <rule>: …" and exiting 1 when the run shows it, else "not shown: …" and exiting 0.
 * Each block may read, for the violation's class in send order: n rows, id[] (the send's number), sent[] and
 * recv[] (ms), status[], lim[], rem[] and rs[] (Limit, Remaining, Reset; -1 where absent); for every row of
 * any class: N, aS[], aR[], aAdm[] (not a 429), aC[] (class); and L (the largest Limit), Wms (the window,
 * no longer than the true one), cls and rule, and ceil(). Their times are taken before the request is handed
 * to curl and after curl ends, so each interval holds the request's: every criterion only gets more lenient
 * from that. The text is awk inside a TypeScript template: backslashes are doubled. Pure data.
 */

/** Rule → the awk block that judges it. */
export const SCRIPT_CRITERIA: Readonly<Record<string, string>> = {
  '8.ratelimit.over-admission': `  # Criterion: no limiter of L per W (fixed window, sliding window or token bucket) admits more than
  # L x (ceil(T/W) + 1) within T, the time from the first send to the last answer (5 ms of clock on each side).
  a = 0; last = 0
  for (i = 1; i <= n; i++) { if (status[i] >= 200 && status[i] < 300) a++; if (recv[i] > last) last = recv[i] }
  T = last - sent[1]; if (T < 1) T = 1
  if (L < 0 || Wms <= 0) { print "not judged: no RateLimit-Limit or window"; exit 0 }
  bound = L * (ceil((T + 11) / Wms) + 1)
  if (a > bound) { printf "VIOLATION %s: %d admitted within %d ms; a limiter of %d per %d ms admits at most %d in that time\\n", rule, a, T, L, Wms, bound; exit 1 }
  printf "not shown: %d admitted within %d ms, at most %d allowed (%d per %d ms)\\n", a, T, bound, L, Wms; exit 0
`,
  '8.ratelimit.under-admission': `  # Criterion: a 429 although the answer before it (received before it was sent) said Remaining was
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
`,
  '8.ratelimit.remaining-rises': `  if (L < 0 || Wms <= 0) { print "not judged: no RateLimit-Limit or window"; exit 0 }
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
`,
  '8.ratelimit.reset-plausible': `  # Criterion: Reset counts seconds, so between an answer and a request sent after it, it falls by no more
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
`,
  '8.ratelimit.classes-isolated': `  # Criterion: between an answer of this class and an admitted one sent after it, Remaining falls by at
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
`,
};

/** Rules the script judges; for the others it prints the evidence and says it does not judge. */
export const SCRIPT_JUDGES: readonly string[] = Object.keys(SCRIPT_CRITERIA);
