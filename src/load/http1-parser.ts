/**
 * The load engines' HTTP/1.1 response parser: bytes in, one verdict out (more wanted, a complete response,
 * or an error naming what is wrong), no I/O, so a test can feed it any bytes split anywhere and compare it
 * with Node's llhttp (test/load/framing-differential.test.ts).
 *
 * It reads what RFC 9112 lets a client rely on and refuses, at once and with the reason, what it cannot
 * delimit: a leading CRLF before a status line is skipped (§2.2) and a bare LF ends a line (§2.2 allows it,
 * llhttp does not: the one deliberate difference); whitespace before a header's colon (§5.1), both
 * Content-Length and Transfer-Encoding (§6.3: "ought to be handled as an error"), a status that is not three
 * digits, a Content-Length that is not digits or exceeds 2^53, a chunk size that is not hex digits
 * (optionally followed by `;` extensions), chunk data not followed by its line end, and a head over
 * MAX_HEAD_BYTES are errors. A body is skipped undecoded unless `keepBody(status)` says keep it.
 *
 * The head is converted to one latin1 string once it is complete (one allocation per response, as before);
 * everything else works on the socket's Buffers. A head or chunk-size line split across chunks is the only
 * case that copies bytes (the part so far is kept and joined with the next chunk).
 */
import {
  CONNECTION,
  CONTENT_LENGTH,
  LIMIT,
  NONE,
  REMAINING,
  REQUEST_ID,
  RESET,
  RETRY_AFTER,
  TRANSFER_ENCODING,
  headerSlot,
} from './header-slot.js';
import { LOAD_BODY_LIMIT } from './request-bounds.js';

/** The most bytes of a response head (status line and headers) before the response is refused. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** The most bytes of a chunk-size line (size and extensions). */
const MAX_CHUNK_LINE = 4096;

/** What a response carried, as the engine records it (header values exactly as sent, repeats joined). */
export interface Http1Head {
  status: number;
  limit: string | undefined;
  remaining: string | undefined;
  reset: string | undefined;
  retryAfter: string | undefined;
  requestId: string | undefined;
}

/** execute(): more bytes are wanted. */
export const MORE = 0;
/** execute(): a response is complete; `buf` from `off` holds the bytes after it. */
export const DONE = 1;
/** execute(): the response is malformed; `error` says why (one line). */
export const FAIL = 2;

const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_CR = 4;
const CHUNK_LF = 5;
const TRAILER = 6;
const UNTIL_CLOSE = 7;

/** One connection's response parser (pipelining 1: one response at a time). */
export class Http1Parser {
  head: Http1Head = blankHead();
  /** The connection must not be reused after this response (Connection: close, HTTP/1.0, body read to the close or cut short). */
  closeAfter = false;
  /** The server's `Keep-Alive: timeout=N` in ms, or -1. */
  keepAliveMs = -1;
  /** The body was longer than LOAD_BODY_LIMIT: the response counts, the rest is not read (closeAfter is set). */
  truncated = false;
  /** The body, when kept. */
  body: string | undefined;
  error = '';
  /** After DONE: the buffer parsed and the offset of the first byte after the response. */
  buf: Buffer = EMPTY;
  off = 0;
  /** Bytes of the current response consumed so far (leading CRLFs and interim responses included). */
  consumed = 0;
  /** Some byte of the current response has been seen (a leading CRLF does not count). */
  started = false;
  private phase = HEAD;
  private noBody = false;
  private keep = false;
  private left = 0;
  private chunked = false;
  private bodyBytes = 0;
  private parts: Buffer[] = [];
  private pending: Buffer | undefined;
  /** The last Keep-Alive header value seen and its timeout. */
  private hintText = '';
  private hintMs = -1;

  constructor(private readonly keepBody: (status: number) => boolean) {}

  /** Readies the parser for the answer to the next request; `noBody` for a HEAD request. */
  reset(noBody: boolean): void {
    this.noBody = noBody;
    this.phase = HEAD;
    this.pending = undefined;
    if (this.parts.length > 0) this.parts = [];
    this.body = undefined;
    this.consumed = 0;
    this.started = false;
    this.truncated = false;
    this.keepAliveMs = -1;
    this.error = '';
  }

  /** Parses the next chunk of the socket's bytes: MORE, DONE or FAIL. */
  execute(input: Buffer): number {
    let buf = input;
    if (this.pending) {
      buf = Buffer.concat([this.pending, input]);
      this.pending = undefined;
    }
    this.buf = buf;
    let off = 0;
    const len = buf.length;
    while (off < len) {
      switch (this.phase) {
        case HEAD: {
          if (!this.started) {
            // A CRLF (or LF) before the status line is skipped (RFC 9112 §2.2).
            while (off < len && (buf[off] === 13 || buf[off] === 10)) off++;
            if (off === len) break;
            this.started = true;
          }
          // The usual head ends in CRLF CRLF: one search in the bytes, then the head as one string (needed
          // anyway), where a bare-LF empty line before it is looked for without another native call.
          let end = buf.indexOf(LF_CRLF, off);
          let text = '';
          if (end >= 0 && end - off <= MAX_HEAD_BYTES) {
            end += 3;
            text = buf.toString('latin1', off, end);
            const bare = text.indexOf('\n\n');
            if (bare >= 0) {
              end = off + bare + 2;
              text = text.slice(0, bare + 2);
            }
          } else {
            const bare = buf.indexOf(LF_LF, off);
            if (bare >= 0 && (end < 0 || bare < end)) end = bare + 2;
            else if (end >= 0) end += 3;
            if (end < 0) {
              if (len - off > MAX_HEAD_BYTES) return this.fail(`response head longer than ${MAX_HEAD_BYTES} bytes`);
              this.consumed += off;
              this.pending = buf.subarray(off);
              return MORE;
            }
            if (end - off > MAX_HEAD_BYTES) return this.fail(`response head longer than ${MAX_HEAD_BYTES} bytes`);
            text = buf.toString('latin1', off, end);
          }
          const error = this.parseHead(text);
          if (error) return this.fail(error);
          off = end;
          const st = this.head.status;
          if (st < 200) {
            // An interim response (100 Continue, 103 Early Hints): the real one follows.
            this.head = blankHead();
            continue;
          }
          this.keep = this.keepBody(st);
          this.bodyBytes = 0;
          if (this.noBody || st === 204 || st === 304) return this.done(off);
          if (this.chunked) {
            this.phase = CHUNK_SIZE;
            continue;
          }
          if (this.left < 0) {
            this.phase = UNTIL_CLOSE;
            this.closeAfter = true;
            continue;
          }
          if (this.left > LOAD_BODY_LIMIT) return this.cut(off);
          if (this.left === 0) return this.done(off);
          this.phase = BODY;
          continue;
        }
        case BODY:
        case CHUNK_DATA:
        case UNTIL_CLOSE: {
          const n = this.phase === UNTIL_CLOSE ? len - off : Math.min(this.left, len - off);
          this.bodyBytes += n;
          if (this.bodyBytes > LOAD_BODY_LIMIT) return this.cut(off);
          if (this.keep) this.parts.push(buf.subarray(off, off + n));
          off += n;
          if (this.phase === UNTIL_CLOSE) continue;
          this.left -= n;
          if (this.left === 0) {
            if (this.phase === BODY) return this.done(off);
            this.phase = CHUNK_CR;
          }
          continue;
        }
        case CHUNK_CR: {
          const c = buf[off++];
          if (c === 13) this.phase = CHUNK_LF;
          else if (c === 10) this.phase = CHUNK_SIZE;
          else return this.fail('chunk data not followed by CRLF');
          continue;
        }
        case CHUNK_LF: {
          if (buf[off++] !== 10) return this.fail('chunk data not followed by CRLF');
          this.phase = CHUNK_SIZE;
          continue;
        }
        case CHUNK_SIZE:
        case TRAILER: {
          const lf = buf.indexOf(10, off);
          if (lf < 0) {
            if (len - off > MAX_CHUNK_LINE)
              return this.fail(this.phase === TRAILER ? 'chunked trailer line too long' : 'chunk size line too long');
            this.consumed += off;
            this.pending = buf.subarray(off);
            return MORE;
          }
          const lineEnd = lf > off && buf[lf - 1] === 13 ? lf - 1 : lf;
          const start = off;
          off = lf + 1;
          if (this.phase === TRAILER) {
            if (lineEnd === start) return this.done(off);
            continue;
          }
          const size = chunkSize(buf, start, lineEnd);
          if (size < 0)
            return this.fail(`invalid chunk size: ${JSON.stringify(buf.toString('latin1', start, Math.min(lineEnd, start + 20)))}`);
          if (size === 0) this.phase = TRAILER;
          else {
            this.phase = CHUNK_DATA;
            this.left = size;
          }
          continue;
        }
      }
    }
    this.consumed += off;
    return MORE;
  }

  /** The connection ended: DONE for a body read to the close, FAIL (with `error`) for anything cut short. */
  finish(): number {
    if (this.phase === UNTIL_CLOSE) {
      this.buf = EMPTY;
      this.off = 0;
      this.phase = HEAD;
      this.body = this.keep ? Buffer.concat(this.parts).toString('utf8') : undefined;
      this.parts = [];
      return DONE;
    }
    return this.fail(this.started ? 'socket closed before the response ended' : 'socket closed before any byte of the response');
  }

  private fail(error: string): number {
    this.error = error;
    this.parts = [];
    this.pending = undefined;
    return FAIL;
  }

  /** A body over LOAD_BODY_LIMIT is not worth reading (as undici's dump() decides): the response counts, the connection goes. */
  private cut(off: number): number {
    this.keep = false;
    this.truncated = true;
    this.closeAfter = true;
    return this.done(off);
  }

  private done(off: number): number {
    this.off = off;
    this.consumed += off;
    this.phase = HEAD;
    if (this.keep) {
      this.body = Buffer.concat(this.parts).toString('utf8');
      this.parts = [];
    } else this.body = undefined;
    return DONE;
  }

  /** Reads the status line and the headers that matter; sets the body framing. An error is one line. */
  private parseHead(text: string): string | undefined {
    const h = (this.head = blankHead());
    let eol = text.indexOf('\n');
    if (eol < 0) eol = text.length;
    const lineEnd = eol > 0 && text.charCodeAt(eol - 1) === 13 ? eol - 1 : eol;
    if (
      !text.startsWith('HTTP/1.') ||
      (text.charCodeAt(7) !== 48 && text.charCodeAt(7) !== 49) ||
      text.charCodeAt(8) !== 32 ||
      (lineEnd > 12 && text.charCodeAt(12) !== 32) ||
      lineEnd < 12
    ) {
      return `malformed status line: ${JSON.stringify(text.slice(0, Math.min(lineEnd, 40)))}`;
    }
    const status = digit(text, 9) * 100 + digit(text, 10) * 10 + digit(text, 11);
    if (!(status >= 100)) return `malformed status line: ${JSON.stringify(text.slice(0, Math.min(lineEnd, 40)))}`;
    h.status = status;
    this.closeAfter = text.charCodeAt(7) === 48; // HTTP/1.0 closes unless it says keep-alive
    this.left = -1;
    let chunked = false;
    let te = false;
    let cl = false;
    let i = eol;
    while (i < text.length) {
      const s = i + 1;
      let e = text.indexOf('\n', s);
      if (e < 0) e = text.length;
      i = e;
      if (e > s && text.charCodeAt(e - 1) === 13) e--;
      if (e === s) continue;
      const first = text.charCodeAt(s);
      if (first === 32 || first === 9) continue; // obs-fold: a continuation of a header we do not read
      const colon = text.indexOf(':', s);
      if (colon < 0 || colon >= e || colon === s) return `malformed header line: ${JSON.stringify(text.slice(s, Math.min(e, s + 40)))}`;
      const before = text.charCodeAt(colon - 1);
      if (before === 32 || before === 9)
        return `whitespace before the colon of header ${JSON.stringify(text.slice(s, Math.min(colon, s + 40)).trim())}`;
      const name = text.slice(s, colon);
      const slot = headerSlot(name);
      if (slot === NONE) {
        if (name.length === 10 && isKeepAlive(name)) {
          // The same hint on every response of a server: parsed once, not per response.
          const v = text.slice(colon + 1, e);
          if (v !== this.hintText) {
            this.hintText = v;
            this.hintMs = keepAliveTimeout(v);
          }
          this.keepAliveMs = this.hintMs;
        }
        continue;
      }
      const v = text.slice(colon + 1, e).trim();
      switch (slot) {
        case LIMIT:
          h.limit = h.limit === undefined ? v : `${h.limit}, ${v}`;
          break;
        case REMAINING:
          h.remaining = h.remaining === undefined ? v : `${h.remaining}, ${v}`;
          break;
        case RESET:
          h.reset = h.reset === undefined ? v : `${h.reset}, ${v}`;
          break;
        case RETRY_AFTER:
          h.retryAfter = h.retryAfter === undefined ? v : `${h.retryAfter}, ${v}`;
          break;
        case REQUEST_ID:
          h.requestId = h.requestId === undefined ? v : `${h.requestId}, ${v}`;
          break;
        case CONTENT_LENGTH: {
          const n = v.length > 0 && v.length <= 16 && /^\d+$/.test(v) ? Number(v) : NaN;
          if (!(n <= Number.MAX_SAFE_INTEGER) || (cl && this.left !== n))
            return `invalid content-length: ${JSON.stringify(v.slice(0, 24))}`;
          this.left = n;
          cl = true;
          break;
        }
        case TRANSFER_ENCODING:
          // Only the final coding decides (RFC 9112 §6.3): "gzip, chunked" is chunked, "chunked, gzip" reads to the close.
          te = true;
          chunked = /(^|,)[ \t]*chunked$/i.test(v);
          break;
        case CONNECTION: {
          const lower = v.toLowerCase();
          if (lower.includes('close')) this.closeAfter = true;
          else if (lower.includes('keep-alive')) this.closeAfter = false;
          break;
        }
      }
    }
    if (te && cl) return 'both content-length and transfer-encoding (RFC 9112 §6.3)';
    // A final coding other than chunked: the body runs to the close (left stays -1).
    this.chunked = chunked;
    return undefined;
  }
}

const EMPTY = Buffer.alloc(0);

function blankHead(): Http1Head {
  return { status: 0, limit: undefined, remaining: undefined, reset: undefined, retryAfter: undefined, requestId: undefined };
}

/** A line end then an empty CRLF line, and two bare LFs: the two ways a head ends. */
const LF_CRLF = Buffer.from('\n\r\n');
const LF_LF = Buffer.from('\n\n');

/** The decimal digit at `i`, or NaN. */
function digit(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

/** The chunk size of the line buf[s, e): hex digits, then nothing or `;` extensions; -1 when it is not that. */
function chunkSize(buf: Buffer, s: number, e: number): number {
  let size = 0;
  let i = s;
  for (; i < e; i++) {
    const c = buf[i]!;
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) break;
    size = size * 16 + d;
  }
  if (i === s || size > Number.MAX_SAFE_INTEGER) return -1;
  return i === e || buf[i] === 59 ? size : -1;
}

/** `name` is Keep-Alive in any case. */
function isKeepAlive(name: string): boolean {
  return name === 'Keep-Alive' || name === 'keep-alive' || name.toLowerCase() === 'keep-alive';
}

/** The `timeout=N` of a Keep-Alive header value, in ms, or -1. */
function keepAliveTimeout(value: string): number {
  const m = /(?:^|[,;\s])timeout\s*=\s*(\d{1,9})/i.exec(value);
  return m ? Number(m[1]) * 1000 : -1;
}
