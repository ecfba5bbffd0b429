/**
 * The engines' response parser (src/load/http1-parser.ts) against Node's own llhttp, response by response:
 * fast-check generates responses — valid and invalid framings, split at random points across writes — and
 * each is sent over a loopback socket to `node:http`'s client and fed, with the same splits, to the parser.
 * The verdict (complete or malformed), the status, the body and the bytes the parser consumed must agree,
 * so any disagreement shrinks to a minimal byte sequence.
 *
 * Two differences are deliberate and left out of the generator (each has its own test below): a bare LF as
 * a line end (RFC 9112 §2.2 lets a client accept it; llhttp refuses it), and a second response in the
 * same write as the first (llhttp takes the first and drops the rest; the engines charge the extra bytes to
 * the answer that carried them, so nothing is read as another request's answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import http from 'node:http';
import net from 'node:net';
import { DONE, FAIL, Http1Parser, MORE } from '../../src/load/http1-parser.js';

interface Verdict {
  ok: boolean;
  status?: number;
  body?: string;
  /** Parser only: bytes consumed by the response. */
  consumed?: number;
}

interface Case {
  bytes: string;
  /** Where the response ends (for a delimited body); the rest is stray. */
  end: number;
  splits: number[];
}

let server: net.Server;
let port = 0;
let current: Case | undefined;

beforeAll(async () => {
  server = net.createServer((sock) => {
    sock.on('error', () => undefined);
    const c = current!;
    sock.once('data', () => {
      const pieces = cut(c.bytes, c.splits);
      const step = (i: number): void => {
        if (sock.destroyed) return;
        if (i === pieces.length) return void sock.end();
        sock.write(pieces[i]!, 'latin1');
        setImmediate(() => step(i + 1));
      };
      step(0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** `bytes` cut at the (sorted, deduplicated) split points. */
function cut(bytes: string, splits: number[]): string[] {
  const at = [...new Set(splits.map((s) => s % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const s of at) {
    if (s > prev) out.push(bytes.slice(prev, s));
    prev = Math.max(prev, s);
  }
  if (prev < bytes.length) out.push(bytes.slice(prev));
  return out;
}

/** What node:http's client (llhttp) makes of the case's bytes. */
function oracle(c: Case): Promise<Verdict> {
  current = c;
  return new Promise((resolve) => {
    let failed = false;
    let status = 0;
    let body = '';
    let ended = false;
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('latin1');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => (ended = res.complete));
      res.on('aborted', () => (failed = true));
      res.on('error', () => (failed = true));
    });
    req.on('error', () => (failed = true));
    req.on('close', () => setImmediate(() => resolve(!failed && ended ? { ok: true, status, body } : { ok: false })));
  });
}

/** What the engines' parser makes of the same bytes in the same pieces, then the close. */
function parse(c: Case): Verdict {
  const p = new Http1Parser(() => true);
  p.reset(false);
  let done = false;
  for (const piece of cut(c.bytes, c.splits)) {
    const buf = Buffer.from(piece, 'latin1');
    if (done) {
      // Bytes after the complete response (not line ends) fail it, as the connection does.
      if (!/^[\r\n]*$/.test(piece)) return { ok: false };
      continue;
    }
    const v = p.execute(buf);
    if (v === FAIL) return { ok: false };
    if (v === DONE) {
      if (!/^[\r\n]*$/.test(p.buf.toString('latin1', p.off))) return { ok: false };
      done = true;
    }
  }
  if (!done && p.finish() !== DONE) return { ok: false };
  return { ok: true, status: p.head.status, body: p.body ?? '', consumed: p.consumed };
}

const token = fc
  .stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,8}$/)
  .filter((n) => !/^(content-length|transfer-encoding|connection|keep-alive|upgrade|proxy-connection|trailer)$/i.test(n));
const text = fc.stringMatching(/^[a-zA-Z0-9{}":,. ]{0,24}$/);

/** A response: its bytes and where it ends. */
const response = fc.record({
  version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0'),
  status: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 200, max: 599 }) },
    { weight: 1, arbitrary: fc.constantFrom(204, 304, 1000, 2000, 20) },
  ),
  interim: fc.boolean(),
  leadingCrlf: fc.constantFrom('', '', '\r\n'),
  headers: fc.array(fc.tuple(token, text, fc.constantFrom('', '', '', ' ')), { maxLength: 4 }),
  body: text,
  framing: fc.constantFrom(
    'cl',
    'cl',
    'chunked',
    'chunked',
    'close',
    'cl-short',
    'cl-long-number',
    'cl-junk',
    'both',
    'chunk-0x',
    'chunk-junk',
    'chunk-no-crlf',
    'te-gzip-final',
    'te-chunked-final',
  ),
  chunks: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 4 }),
  chunkExt: fc.boolean(),
  trailer: fc.boolean(),
  after: fc.constantFrom('', '', '\r\n', 'XYZ'),
});

type R = typeof response extends fc.Arbitrary<infer T> ? T : never;

/** The case's bytes (status line, headers, framing, body, then any stray bytes) and where the response ends. */
function bytesOf(r: R): { bytes: string; end: number } {
  let out = r.leadingCrlf + (r.interim ? 'HTTP/1.1 100 Continue\r\n\r\n' : '');
  out += `${r.version} ${r.status} Reason\r\n`;
  for (const [name, value, ws] of r.headers) out += `${name}${ws}: ${value}\r\n`;
  const noBody = r.status === 204 || r.status === 304;
  const body = noBody ? '' : r.body;
  let payload = body;
  const chunked = (first = (n: number): string => n.toString(16)): string => {
    let s = '';
    let i = 0;
    for (const n of r.chunks) {
      const piece = body.slice(i, i + n);
      if (!piece) break;
      s += `${i === 0 ? first(piece.length) : piece.length.toString(16)}${r.chunkExt ? ';x=1' : ''}\r\n${piece}\r\n`;
      i += piece.length;
    }
    if (i < body.length) s += `${(body.length - i).toString(16)}\r\n${body.slice(i)}\r\n`;
    return `${s}0\r\n${r.trailer ? 'X-Trailer: t\r\n' : ''}\r\n`;
  };
  switch (r.framing) {
    case 'cl':
      out += `Content-Length: ${body.length}\r\n`;
      break;
    case 'cl-short':
      out += `Content-Length: ${body.length + 5}\r\n`;
      break;
    case 'cl-long-number':
      out += `Content-Length: 12345678901234567890123\r\n`;
      break;
    case 'cl-junk':
      out += `Content-Length: ${body.length}x\r\n`;
      break;
    case 'both':
      out += `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n`;
      payload = chunked();
      break;
    case 'chunked':
      out += 'Transfer-Encoding: chunked\r\n';
      payload = chunked();
      break;
    case 'te-chunked-final':
      out += 'Transfer-Encoding: gzip, chunked\r\n';
      payload = chunked();
      break;
    case 'te-gzip-final':
      out += 'Transfer-Encoding: chunked, gzip\r\n';
      break;
    case 'chunk-0x':
      out += 'Transfer-Encoding: chunked\r\n';
      payload = body ? chunked((n) => `0x${n.toString(16)}`) : '0x0\r\n\r\n';
      break;
    case 'chunk-junk':
      out += 'Transfer-Encoding: chunked\r\n';
      payload = body ? chunked((n) => `${n.toString(16)}zz`) : '0zz\r\n\r\n';
      break;
    case 'chunk-no-crlf':
      out += 'Transfer-Encoding: chunked\r\n';
      payload = body ? `${body.length.toString(16)}\r\n${body}XX0\r\n\r\n` : chunked();
      break;
    case 'close':
      break;
  }
  out += '\r\n';
  if (noBody) payload = '';
  out += payload;
  return { bytes: out + r.after, end: out.length };
}

describe("the engines' response parser agrees with llhttp (node:http), response by response", () => {
  it('on generated framings split at random points', async () => {
    await fc.assert(
      fc.asyncProperty(response, fc.array(fc.nat({ max: 400 }), { maxLength: 6 }), async (r, splits) => {
        const { bytes, end } = bytesOf(r);
        const c: Case = { bytes, end, splits };
        const mine = parse(c);
        const theirs = await oracle(c);
        expect({ ok: mine.ok, status: mine.status, body: mine.body }).toEqual(theirs);
        // A delimited response is consumed exactly to its end; one read to the close takes every byte.
        if (mine.ok) expect(mine.consumed).toBe(r.framing === 'close' || r.framing === 'te-gzip-final' ? bytes.length : end);
      }),
      { numRuns: 150, seed: 32 },
    );
  });

  it('parses in pieces as in one: a valid response split at every point gives the same result', () => {
    const bytes = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Request-Id: r\r\n\r\n3;a=b\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n';
    for (let i = 0; i <= bytes.length; i++) {
      const v = parse({ bytes, end: bytes.length, splits: [i] });
      expect(v).toEqual({ ok: true, status: 200, body: 'abcde', consumed: bytes.length });
    }
  });
});

describe('where the engines differ from llhttp on purpose', () => {
  it('a bare LF ends a line (RFC 9112 §2.2), in the head and in chunk framing', () => {
    expect(parse({ bytes: 'HTTP/1.1 200 OK\nContent-Length: 2\n\nhi', end: 0, splits: [] })).toMatchObject({
      ok: true,
      status: 200,
      body: 'hi',
    });
    expect(parse({ bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\n\n2\nhi\n0\n\n', end: 0, splits: [3, 30] })).toMatchObject({
      ok: true,
      body: 'hi',
    });
  });

  it('a second response in the write of the first fails the first (llhttp would take the first and drop the second)', () => {
    expect(
      parse({ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhiHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', end: 0, splits: [] }),
    ).toEqual({ ok: false });
  });
});

describe('each framing error names its reason', () => {
  const reason = (bytes: string): string => {
    const p = new Http1Parser(() => false);
    p.reset(false);
    const v = p.execute(Buffer.from(bytes.replace('<70 KiB>', 'x'.repeat(70 * 1024)), 'latin1'));
    expect(v === MORE ? p.finish() : v).toBe(FAIL);
    return p.error;
  };
  it.each([
    ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', /both content-length and transfer-encoding/],
    ['HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n', /malformed status line/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\nhi\r\n0\r\n\r\n', /invalid chunk size: "0x2"/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2zz\r\nhi\r\n0\r\n\r\n', /invalid chunk size: "2zz"/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 12345678901234567890123\r\n\r\n', /invalid content-length/],
    ['HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n', /whitespace before the colon/],
    ['HTTP/1.1 200 OK\r\nX-Big: <70 KiB>\r\n\r\n', /response head longer than 65536 bytes/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhi', /closed before the response ended/],
    ['', /closed before any byte/],
  ])('%#: %s', (bytes, message) => {
    expect(reason(bytes)).toMatch(message);
  });
});
