/**
 * A bounded-memory facade over `analyzeRateLimits` for streams too long to hold (a full-speed load run
 * produces tens of thousands of samples a second). Samples are buffered and analysed in chunks, cut by
 * time (chunkMs) and by count (maxSamples); each chunk starts with the tail of the previous one (a few
 * windows: overlapMs) so rules that span windows — a claim made by an earlier response, a Retry-After
 * wait, a window straddling the cut — still see what they need. The buffer holds one chunk, so memory is
 * bounded by maxSamples whatever the stream's length.
 *
 * Samples are buffered together rather than per (key, class): the isolation rules compare a budget with the
 * other class of the same key, so a chunk must hold both.
 *
 * A flood against a small budget is nearly all refusals, tens of thousands a second that repeat one
 * another's headers: held one by one, a chunk would cover a fraction of one window, and no rule that
 * compares windows (the per-window count, the model) could see one. A refusal that repeats the two held
 * before it (same budget, the same header strings) therefore takes the place of the later one, as long
 * as it was sent before the run's first Reset or Retry-After passed: the run keeps its first and last
 * response, which bracket it in time, and the last carries the run's length as its weight, so
 * per-response rules and window rows still count every response. A refusal sent after a wait of the run
 * passed is evidence (reset-restores, retry-after-honoured) and is held. Chunks then span windows in a
 * flood too.
 *
 * With a budget larger than the bound (a capacity run against generous limits), no chunk of any size can
 * hold one window's admissions, so the rules that count them cannot fire in any chunk; the rules that can
 * compare nearby responses. At high rates, where even a full chunk covers less than one window, chunks are
 * then cut once they hold cacheSamples new samples: each is analysed while it fits the CPU's cache (a
 * chunk is sorted and walked a dozen times). A load run cuts at 1,000 (or four times its connections,
 * whatever is more: a cut leaves up to half that, the requests possibly still in flight, to the next
 * chunk), which measured a third less of spgate's own work per response than 5,000, the size used when
 * the requests in flight are not known (those measured less than full chunks). Counting new samples, not
 * held ones, a chunk holds its carried half and a full count of new samples: each sample is analysed about
 * 1.5 times instead of twice (8 % less own work in-process).
 *
 * Violation rows are merged across chunks by online-rows.ts. Class summaries are counted online (samples,
 * admitted, refused, Limit frequencies, largest Reset: exact); the model is the one most of the samples
 * were analysed under; window rows come from the chunk that saw them start, capped per budget with a note,
 * and a window that goes on past a cut gets the next chunk's new responses added, so every response is
 * counted in one row (before, the rows of windows cut by a chunk missed up to a tenth of their responses).
 */
import type { RateLimitAnalysis, RouteClass } from '../results/schema.js';
import { analyzeParsed, type AnalyzeOptions } from './analyze.js';
import { explain } from './explain.js';
import { budgetId, sampleKey, ViolationRows } from './online-rows.js';
import { reusableParsed, SampleParser, type ParsedSample } from './parsed.js';
import type { RateLimitSample } from './sample.js';

export interface OnlineAnalyzeOptions extends AnalyzeOptions {
  /** Most samples buffered at once: the memory bound (default 20,000). */
  maxSamples?: number;
  /**
   * New samples at which a chunk is cut instead when every budget's Limit is at least maxSamples and a
   * full chunk would cover less than one window (default: 4 × inFlight, at least 1,000, when inFlight is known; else
   * 5,000; at most maxSamples).
   */
  cacheSamples?: number;
  /**
   * The most requests in flight at once (a load run's connections), when known. A cut leaves up to half a
   * chunk cut at the cache size to the next one, which must hold every request still in flight: the cache
   * size is at least four times as many.
   */
  inFlight?: number;
  /** A chunk ends once it spans this many ms (default: 30 windows, at least 30 s). */
  chunkMs?: number;
  /** Tail of a chunk carried into the next, ms (default: 3 windows plus a second). At most maxSamples / 3 samples. */
  overlapMs?: number;
  /** Window rows kept per budget (default 1,000); the rest are counted in the explanation. */
  maxWindowRows?: number;
  /** Violation rows kept per rule, key and class (default 100); the rest are counted in the last one. */
  maxViolationsPerRule?: number;
  /**
   * Fold runs of identical refusals into their first and last (default true). Without it a flood's chunk
   * covers a fraction of a window; with it, counts in some messages ("N request(s) refused") are of held
   * refusals, so one chunk equals the batch analysis exactly only when this is off.
   */
  foldRefusals?: boolean;
}

type ClassSummary = RateLimitAnalysis['classes'][number];
type WindowRow = ClassSummary['windows'][number];
type Model = ClassSummary['model'];

interface Budget {
  key: string;
  class: RouteClass;
  samples: number;
  admitted: number;
  limits: Map<number, number>;
  maxReset: number | null;
  /** Samples analysed under each model (new samples of each chunk). */
  models: Map<Model, number>;
  /** Falls of Remaining beyond the run's requests, summed over chunks (one in a carried tail may count twice). */
  spentByOthers: number;
  /** Samples since the last chunk. */
  fresh: number;
  /** Global indexes of the budget's last two held samples (-1: none): a run of identical refusals is folded there. */
  lastHeld: number;
  prevHeld: number;
  /**
   * With a watermark (push's second argument): the send times the last held sample's run covers (it and
   * the refusals folded into it), and the latest send of any other sample of the budget placed before it.
   */
  runLo: number;
  runHi: number;
  sentBeforeRun: number;
  /** The latest send of any sample of the budget placed so far. */
  maxSent: number;
  rows: WindowRow[];
  rowsLeftOut: number;
  /** The latest chunk's words on the budget (stated vs announced, inferred window, header dialects). */
  latest?: Pick<
    ClassSummary,
    'budgetSource' | 'statedLimit' | 'statedWindowSeconds' | 'observedWindowSeconds' | 'dialects' | 'windowSeconds'
  >;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** `a` is a refusal of `p`'s budget with the same header strings (what every per-response rule reads). */
function sameRefusal(a: ParsedSample, p: ParsedSample): boolean {
  const x = a.raw;
  const y = p.raw;
  return (
    a.refused &&
    a.class === p.class &&
    a.key === p.key &&
    x.limit === y.limit &&
    x.remaining === y.remaining &&
    x.reset === y.reset &&
    x.retryAfter === y.retryAfter &&
    x.errorCode === y.errorCode &&
    x.dialect === y.dialect &&
    x.policyWindow === y.policyWindow
  );
}

/** Online rate-limit analysis in bounded memory; `finish()` gives what analyzeRateLimits would. */
export class OnlineRateLimitAnalyzer {
  /**
   * The held samples, parsed once as they arrive (a chunk and its overlap reuse them), in arrival order:
   * buf[i] is the sample of global index bufStart + i.
   */
  private buf: ParsedSample[] = [];
  private bufStart = 0;
  private readonly parser = new SampleParser();
  /**
   * Parsed samples that left the buffer, reused for the next ones: a held sample outlives a young-generation
   * collection or two, and reusing it costs the collector nothing, where a new pair of objects per sample
   * had to be copied and promoted (a full-speed run's scavenges took twice autocannon's time).
   */
  private readonly spare: ParsedSample[] = [];
  /** Global index of the first sample no chunk has analysed yet (the overlap is everything before it). */
  private newFrom = 0;
  /**
   * Global index of the first sample no chunk has judged yet: a chunk leaves its last moments (requests
   * still in flight when it was cut are missing from it) to the next chunk, for which they are new.
   */
  private ownedFrom = 0;
  private maxLatency = 0;
  private next = 0;
  private readonly budgets = new Map<string, Budget>();
  private readonly rows: ViolationRows;
  private maxRetryAfter = 0;
  private peak = 0;
  private chunks = 0;
  /** The (rule, key, class) triples the chunks found so far (AnalyzeOptions.seen). */
  private readonly seen = new Set<string>();
  private readonly maxSamples: number;
  private readonly cacheSamples: number;
  /** The smallest Limit announced or stated so far (Infinity: none). */
  private minLimit = Infinity;
  /** windowMs(), recomputed with chunkMsCache (whenever a budget's largest Reset grows). */
  private windowMsCache = 1000;
  /** The budget of the latest sample (consecutive samples nearly always share one). */
  private lastBudget: Budget | undefined;
  /** The chunk length in ms, recomputed when the window it derives from may have changed. */
  private chunkMsCache: number | undefined;
  /** A budget's largest Reset grew since the chunk length was last computed. */
  private windowGrew = false;
  /**
   * Samples pushed with a watermark and not yet placed, in arrival order (from waitFrom on), with their
   * budgets: a refusal that may fold waits here until every response sent before the span its run would
   * cover has arrived; what arrives after it waits behind it, so the buffer keeps arrival order.
   */
  private readonly waiting: ParsedSample[] = [];
  private readonly waitingBudget: Budget[] = [];
  private waitFrom = 0;
  /** The latest watermark: every response sent before it has been pushed. */
  private mark = -Infinity;

  constructor(private readonly opts: OnlineAnalyzeOptions = {}) {
    this.maxSamples = Math.max(4, opts.maxSamples ?? 20_000);
    this.cacheSamples = Math.min(
      this.maxSamples,
      Math.max(4, opts.cacheSamples ?? (opts.inFlight !== undefined ? Math.max(1_000, 4 * opts.inFlight) : 5_000)),
    );
    for (const e of Object.values(opts.expected ?? {})) if (e) this.minLimit = Math.min(this.minLimit, e.limit);
    this.rows = new ViolationRows(opts.maxViolationsPerRule ?? 100);
  }

  /** Samples held right now, and the most ever held (never above maxSamples). */
  get retained(): number {
    return this.buf.length;
  }

  /** The most samples ever held at once. */
  get peakRetained(): number {
    return this.peak;
  }

  /** Violation rows found in the chunks analysed so far (a live output's running figure; finish() gives the verdict). */
  get violationsSoFar(): number {
    return this.rows.size;
  }

  /** Chunks analysed so far. */
  get chunkCount(): number {
    return this.chunks;
  }

  /** The window the chunking works with: the longest expected one, else the longest Reset seen, else 1 s. */
  private windowMs(): number {
    let w = 0;
    for (const e of Object.values(this.opts.expected ?? {})) if (e) w = Math.max(w, e.windowSeconds * 1000);
    if (w === 0) for (const b of this.budgets.values()) w = Math.max(w, (b.maxReset ?? 0) * 1000);
    // A Reset of hours would make chunks unbounded in time only; the sample cap still bounds memory.
    return Math.min(Math.max(w, 1000), 3_600_000);
  }

  /**
   * Adds one sample (transport failures, status 0, are counted by nobody and skipped); `s` is copied, not
   * kept. `watermark`, when the caller knows it: every response sent before that time (ms, the samples'
   * clock) has been pushed, this one included — the earliest send still in flight. Given, a refusal is
   * folded into its run only once every response of its budget sent within the span the folded run would
   * cover has arrived and none of them is another kind of response (which could open a window inside the
   * span), so each refusal counts in the window row the batch analysis puts it in, however responses of
   * several connections or shards interleave. Nor is it folded when a response of its budget of another
   * kind was sent between the answers of the refusal it would replace and its own: that refusal is the
   * latest known counted before such a send, the bound on when a refill it shows came (segments.ts).
   * Folded away, the run's first refusal, a window earlier, was all that bounded each refill of a flood:
   * no refill looked faster than a token bucket's, and over-admission went unjudged (CI: a flood against
   * the reference server's ratelimit-over-admit showed nothing in one run of three). Until then it waits
   * (with what arrives after it).
   */
  push(s: RateLimitSample, watermark?: number): void {
    if (!(s.status > 0)) return;
    const p = this.parser.parseInto(this.spare.pop() ?? reusableParsed(), s, 0);
    if (this.count(p)) this.windowGrew = true;
    this.maxLatency = Math.max(this.maxLatency, Math.min(s.receivedAt - s.sentAt, 60_000));
    if (watermark === undefined && this.waitFrom === this.waiting.length) {
      this.place(p, this.lastBudget!, this.fold(p, this.lastBudget!));
      return;
    }
    this.waiting.push(p);
    this.waitingBudget.push(this.lastBudget!);
    this.settle(watermark ?? Infinity);
  }

  /**
   * Raises the watermark (see push) and places every waiting sample it lets through; `settle(Infinity)`
   * places them all (the end of the stream). Waiting is bounded (cacheSamples, at most a quarter of
   * maxSamples): past that the oldest is placed unfolded; waiting samples count against maxSamples.
   */
  settle(watermark: number): void {
    if (watermark > this.mark) this.mark = watermark;
    while (this.waitFrom < this.waiting.length) {
      const p = this.waiting[this.waitFrom]!;
      const b = this.waitingBudget[this.waitFrom]!;
      let folded = false;
      if (this.mayFold(p, b)) {
        const lo = Math.min(b.runLo, p.sentAt);
        const hi = Math.max(b.runHi, p.sentAt);
        const replaced = this.buf[b.lastHeld - this.bufStart]!.receivedAt;
        if (!(this.mark > Math.max(hi, p.receivedAt))) {
          // Responses sent within the span, or before this one's answer, may still arrive: wait, unless the
          // wait grew past its bound.
          if (this.waiting.length - this.waitFrom <= Math.min(this.cacheSamples, this.maxSamples >> 2)) return;
        } else folded = b.sentBeforeRun < lo && !this.arrivesWithin(b, lo, hi) && !this.arrivesWithin(b, replaced, p.receivedAt, p);
      }
      this.waiting[this.waitFrom] = undefined as unknown as ParsedSample;
      this.waitFrom++;
      this.place(p, b, folded ? this.foldInto(p, b) : false);
    }
    // Emptied in place: in the common case every push drains the queue, so no array is made per response.
    this.waiting.length = 0;
    this.waitingBudget.length = 0;
    this.waitFrom = 0;
  }

  /**
   * Whether a sample of budget `b` waiting behind the head was sent within [lo, hi] (with `unlike`: one that is
   * not the same refusal as it).
   */
  private arrivesWithin(b: Budget, lo: number, hi: number, unlike?: ParsedSample): boolean {
    for (let i = this.waitFrom + 1; i < this.waiting.length; i++) {
      if (this.waitingBudget[i] !== b) continue;
      const t = this.waiting[i]!.sentAt;
      if (t >= lo && t <= hi && !(unlike && sameRefusal(this.waiting[i]!, unlike))) return true;
    }
    return false;
  }

  /** Puts a counted sample in the buffer (or, `folded`, notes that it took its run's place) and cuts a chunk when due. */
  private place(p: ParsedSample, b: Budget, folded: boolean): void {
    if (!folded) {
      b.prevHeld = b.lastHeld;
      b.lastHeld = this.next;
      b.sentBeforeRun = b.maxSent;
      b.runLo = b.runHi = p.sentAt;
      this.buf.push(p);
      this.next++;
    } else {
      b.runLo = Math.min(b.runLo, p.sentAt);
      b.runHi = Math.max(b.runHi, p.sentAt);
    }
    if (p.sentAt > b.maxSent) b.maxSent = p.sentAt;
    // Waiting samples are held too: they count against the bound.
    const held = this.buf.length + this.waiting.length - this.waitFrom;
    if (held > this.peak) this.peak = held;
    const first = this.buf[this.newFrom - this.bufStart];
    // windowMs() only changes when a budget's largest Reset grows: recomputed then, not per sample.
    if (this.windowGrew || this.chunkMsCache === undefined) {
      this.windowGrew = false;
      this.windowMsCache = this.windowMs();
      this.chunkMsCache = this.opts.chunkMs ?? Math.max(30_000, 30 * this.windowMsCache);
    }
    const receivedAt = p.raw.receivedAt;
    if (held >= this.maxSamples || (first && receivedAt - first.sentAt >= this.chunkMsCache)) this.analyzeChunk(this.maxSamples);
    else if (this.next - this.newFrom >= this.cacheSamples && this.cacheSamples < this.maxSamples && this.cutAtCacheSize(receivedAt))
      this.analyzeChunk(this.cacheSamples);
  }

  /**
   * True when a chunk of cacheSamples sees what a full one would: every Limit seen is at least maxSamples
   * (no chunk can hold a window's admissions) and a full chunk at the buffer's rate (its start to `now`)
   * would cover less than one window.
   */
  private cutAtCacheSize(now: number): boolean {
    if (this.minLimit < this.maxSamples) return false;
    const span = now - this.buf[0]!.sentAt;
    return (span * this.maxSamples) / this.buf.length < this.windowMsCache;
  }

  /**
   * Whether a refusal may fold into its budget's run: the budget's last two held samples are refusals
   * with the same header strings, no chunk has analysed the last one yet (a weight is final once
   * analysed), and no Reset or Retry-After of the run has passed when it was sent.
   */
  private mayFold(p: ParsedSample, b: Budget): boolean {
    if (!p.refused || this.opts.foldRefusals === false) return false;
    const last = b.lastHeld;
    if (last < this.newFrom || b.prevHeld < this.bufStart) return false;
    const held = this.buf[last - this.bufStart]!;
    const first = this.buf[b.prevHeld - this.bufStart]!;
    if (!sameRefusal(held, p) || !sameRefusal(first, p)) return false;
    // Once a Reset or Retry-After of the run has passed, a refusal is a rule's evidence (the budget should
    // be back): it is held. Until then its headers and time add nothing the run's ends do not show.
    const wait = Math.min(first.reset ?? Infinity, first.retryAfter ?? Infinity);
    return p.sentAt < first.receivedAt + wait * 1000;
  }

  /** The refusal takes the place and weight of its budget's last held sample. True. */
  private foldInto(p: ParsedSample, b: Budget): true {
    const last = b.lastHeld;
    const held = this.buf[last - this.bufStart]!;
    p.weight = (held.weight ?? 1) + 1;
    this.buf[last - this.bufStart] = p;
    this.spare.push(held);
    return true;
  }

  /** Folds a refusal into its budget's run when it may (no watermark known). True when folded. */
  private fold(p: ParsedSample, b: Budget): boolean {
    return this.mayFold(p, b) && this.foldInto(p, b);
  }

  /** Counts the sample into its budget; true when a budget's largest Reset grew (or a budget began). */
  private count(s: ParsedSample): boolean {
    const key = s.key;
    let grew = false;
    let b = this.lastBudget;
    if (!b || b.key !== key || b.class !== s.class) {
      const id = `${key}\u0000${s.class}`;
      b = this.budgets.get(id);
      if (!b) {
        this.budgets.set(
          id,
          (b = {
            key,
            class: s.class,
            samples: 0,
            admitted: 0,
            limits: new Map(),
            maxReset: null,
            models: new Map(),
            spentByOthers: 0,
            fresh: 0,
            lastHeld: -1,
            prevHeld: -1,
            runLo: Infinity,
            runHi: -Infinity,
            sentBeforeRun: -Infinity,
            maxSent: -Infinity,
            rows: [],
            rowsLeftOut: 0,
          }),
        );
        grew = true;
      }
      this.lastBudget = b;
    }
    b.samples++;
    b.fresh++;
    if (s.status !== 429) b.admitted++;
    const lim = s.limit;
    // Distinct Limit values are few on any sane server; a server inventing one per response is capped.
    if (lim !== null) {
      if (lim < this.minLimit) this.minLimit = lim;
      const seen = b.limits.get(lim);
      if (seen !== undefined) b.limits.set(lim, seen + 1);
      else if (b.limits.size < 10_000) b.limits.set(lim, 1);
    }
    const reset = s.reset;
    if (reset !== null && (b.maxReset === null || reset > b.maxReset)) {
      b.maxReset = reset;
      grew = true;
    }
    if (s.status === 429) {
      const ra = s.retryAfter;
      if (ra !== null) this.maxRetryAfter = Math.max(this.maxRetryAfter, Math.min(ra, 3600));
    }
    return grew;
  }

  /**
   * Analyses the buffer, keeps what is new, and keeps the tail as the next chunk's overlap; `size` is the
   * count the chunk was cut at (the carried tail and the deferred part are fractions of it).
   */
  private analyzeChunk(size: number, final = false): void {
    const held = this.buf;
    const base = this.bufStart;
    if (held.length === 0 || base + held.length - 1 < this.newFrom) return;
    this.chunks++;
    // Positions in this chunk, as parseSamples would number them (the overlap is a prefix: same numbers).
    for (let i = 0; i < held.length; i++) held[i]!.index = i;
    const last = held[held.length - 1]!.raw.receivedAt;
    const overlapMs = this.opts.overlapMs ?? 3 * this.windowMsCache + this.maxRetryAfter * 1000 + 1000;
    // Requests sent in the chunk's last moments may still be in flight: what they would have shown is
    // judged by the next chunk, which holds them in its overlap.
    const margin = Math.min(2 * this.maxLatency + 100, overlapMs / 2);
    let ownTo = held.length;
    if (!final) while (ownTo > 0 && held[ownTo - 1]!.raw.receivedAt > last - margin) ownTo--;
    // Slow responses must not make the deferred tail (kept for the next chunk) eat the bound.
    ownTo = Math.max(ownTo, held.length - Math.floor(size / 2));
    const ownToG = base + ownTo;
    const overlap = held.slice(0, this.newFrom - base);
    // Requests answered before the chunk's first sample, or still in flight at its cut, are missing from it.
    const complete = { fromMs: this.chunks > 1 ? held[0]!.raw.receivedAt : -Infinity, toMs: final ? Infinity : last - margin };
    const options = { expected: this.opts.expected, strict: this.opts.strict, complete };
    const seenBefore = new Set(this.seen);
    const full = analyzeParsed(held, { ...options, seen: this.seen });
    // The overlap's own analysis only serves to subtract occurrences of window-less rows: skipped when none.
    const old =
      overlap.length && full.violations.some((v) => !v.window) ? analyzeParsed(overlap, { ...options, seen: seenBefore }).violations : [];
    // Cited samples back to their global index: only the cited ones are looked up (none on a clean run).
    const cited = ViolationRows.citedKeys(full);
    const ids = new Map<string, number>();
    if (cited.size > 0) {
      held.forEach((h, i) => {
        const k = sampleKey(r3(h.raw.sentAt), h.class, h.status, h.raw.requestId);
        if (cited.has(k)) ids.set(k, base + i);
      });
    }
    this.rows.merge(full, old, ids, { judgedBefore: this.ownedFrom, ownTo: ownToG });
    this.mergeClasses(full, held);

    // Carry the tail: a few windows (and the longest Retry-After wait), at most a third of the buffer (so
    // each chunk is mostly new samples and a sample is analysed about 1.5 times), and at least the part
    // left to the next chunk.
    let from = held.length;
    while (from > 0 && held[from - 1]!.raw.receivedAt >= last - overlapMs) from--;
    from = Math.min(Math.max(from, held.length - Math.floor(size / 3)), ownTo);
    // Nor may the tail start inside requests in flight together: one answered just before the tail but
    // sent after a carried request was would be missing from the next chunk's counts between the two, and
    // a Remaining fall or a refusal there would look unexplained. Bounded: a few connections' worth, and
    // never more than half the bound carried (each chunk stays mostly new, however slow the responses).
    let minSent = Infinity;
    for (let i = from; i < held.length; i++) if (held[i]!.sentAt < minSent) minSent = held[i]!.sentAt;
    const floor = Math.max(0, from - 256, held.length - Math.floor(size / 2));
    while (from > floor && held[from - 1]!.raw.receivedAt > minSent) {
      from--;
      if (held[from]!.sentAt < minSent) minSent = held[from]!.sentAt;
    }
    this.buf = held.slice(from);
    for (let i = 0; i < from; i++) this.spare.push(held[i]!);
    this.bufStart = base + from;
    this.newFrom = this.next;
    this.ownedFrom = Math.max(this.ownedFrom, ownToG);
  }

  private mergeClasses(a: RateLimitAnalysis, held: ParsedSample[]): void {
    // Rows that start before the first new sample belong to the chunk that saw them start.
    const newAt = Math.max(0, this.newFrom - this.bufStart);
    const firstNew = held[newAt]!;
    const cap = this.opts.maxWindowRows ?? 1000;
    for (const c of a.classes) {
      const b = this.budgets.get(budgetId(c.key, c.class));
      if (!b) continue;
      b.models.set(c.model, (b.models.get(c.model) ?? 0) + b.fresh);
      b.spentByOthers += c.spentByOthers ?? 0;
      const { budgetSource, statedLimit, statedWindowSeconds, observedWindowSeconds, dialects, windowSeconds } = c;
      // The window is the widest any chunk inferred, as the whole stream's inference would see the widest Reset.
      const widest = windowSeconds === null ? (b.latest?.windowSeconds ?? null) : Math.max(windowSeconds, b.latest?.windowSeconds ?? 0);
      b.latest = { budgetSource, statedLimit, statedWindowSeconds, observedWindowSeconds, dialects, windowSeconds: widest };
      b.fresh = 0;
      const kept = b.rows.length && b.rowsLeftOut === 0 ? b.rows[b.rows.length - 1] : undefined;
      const lastStart = kept?.start ?? (b.rows.length ? b.rows[b.rows.length - 1]!.start : -Infinity);
      // The first window this chunk adds: new responses sent before it belong to the window listed last.
      let cut = Infinity;
      const added: WindowRow[] = [];
      for (const row of c.windows) {
        if (this.chunks > 1 && (row.start < firstNew.raw.sentAt || row.start <= lastStart)) {
          if (kept && row.end > kept.end && row.start < kept.end) kept.end = row.end;
          continue;
        }
        if (cut === Infinity) cut = row.start;
        if (b.rows.length < cap) b.rows.push(row), added.push(row);
        else b.rowsLeftOut++;
      }
      const key = c.key ?? '';
      // A response an earlier chunk counted (the overlap) that this chunk places in a window it adds, sent
      // after the window began (answered before requests sent earlier: a folded run of refusals can carry a
      // hundred responses), is counted in the earlier chunk's row already: taken out of the new one.
      if (this.chunks > 1 && added.length > 0) {
        for (let i = 0; i < newAt; i++) {
          const s = held[i]!;
          if (s.sentAt < cut || s.class !== c.class || s.key !== key) continue;
          let row = added[0]!;
          for (const r of added) if (r.start <= s.sentAt) row = r;
          if (s.admitted) row.admitted--;
          else row.refused -= s.weight ?? 1;
        }
      }
      // A window listed by an earlier chunk went on into this one: its responses new here are added to its
      // counts (the earlier chunk counted those it held), so every response is counted in one row.
      if (this.chunks > 1 && kept) {
        for (let i = newAt; i < held.length; i++) {
          const s = held[i]!;
          if (s.sentAt >= cut || s.class !== c.class || s.key !== key) continue;
          if (s.admitted) kept.admitted++;
          else kept.refused += s.weight ?? 1;
        }
      }
    }
  }

  /** Analyses what is left and returns the whole stream's analysis. */
  finish(): RateLimitAnalysis {
    this.settle(Infinity);
    this.analyzeChunk(this.maxSamples, true);
    this.buf = [];
    this.bufStart = this.next;
    const classes: ClassSummary[] = [...this.budgets.entries()]
      .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
      .map(([, b]) => this.summary(b));
    const modelOf = new Map(classes.map((c) => [budgetId(c.key, c.class), c.model]));
    const violations = this.rows.list((key, cls) => modelOf.get(budgetId(key, cls)));
    return { classes, violations };
  }

  private summary(b: Budget): ClassSummary {
    let limit: number | null = null;
    let best = 0;
    for (const [v, n] of [...b.limits].sort((p, q) => p[0] - q[0])) {
      if (n > best) {
        limit = v;
        best = n;
      }
    }
    const expected = this.opts.expected?.[b.class];
    const windowSeconds =
      b.latest?.windowSeconds ?? (expected ? expected.windowSeconds : b.maxReset !== null && b.maxReset > 0 ? b.maxReset : null);
    let model: Model = 'unknown';
    let most = -1;
    for (const [m, n] of b.models) {
      if (n > most) {
        model = m;
        most = n;
      }
    }
    const words = Object.fromEntries(Object.entries(b.latest ?? {}).filter(([k, v]) => v !== undefined && k !== 'windowSeconds'));
    const s = {
      ...words,
      class: b.class,
      ...(b.key !== '' ? { key: b.key } : {}),
      samples: b.samples,
      admitted: b.admitted,
      refused: b.samples - b.admitted,
      observedLimit: limit,
      limitConstant: b.limits.size <= 1,
      windowSeconds,
      model,
      windows: b.rows,
      ...(b.spentByOthers > 0 ? { spentByOthers: b.spentByOthers } : {}),
    };
    const note = b.rowsLeftOut > 0 ? `; ${b.rowsLeftOut} more windows not listed` : '';
    return { ...s, explanation: explain(s, { model }) + note };
  }
}
