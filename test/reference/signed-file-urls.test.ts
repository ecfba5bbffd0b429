/**
 * The reference server's signed attachment URLs (4.6): a download descriptor's URL points back at the server
 * (loopback, /files), serves the described file until expiresAt and is refused once expired, tampered with
 * or its message deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const download = async (messageId: string, index: number) => (await h.api(`/messages/${messageId}/attachments/${index}/download`)).json;

describe('signed attachment URLs', () => {
  it("serve the described bytes and content type on the server's own loopback origin", async () => {
    const m = h.ids.message;
    const d = await download(m.messageId, m.storedIndex);
    const url = new URL(d.url);
    expect(url.origin).toBe(new URL(h.server.baseUrl).origin);
    const file = await raw(d.url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe(d.contentType);
    expect(Buffer.byteLength(file.text)).toBe(d.sizeBytes);
    // no key is needed: the signature is the credential, and a key would not replace it
    expect((await raw(`${url.origin}${url.pathname}`, { auth: `Bearer ${h.key('admin')}` })).status).toBe(403);
  });

  it('refuse a tampered signature, expiry or file', async () => {
    const m = h.ids.message;
    const d = await download(m.messageId, m.storedIndex);
    const url = new URL(d.url);
    const sig = url.searchParams.get('signature')!;
    const tampered = (name: string, value: string): string => {
      const u = new URL(d.url);
      u.searchParams.set(name, value);
      return u.href;
    };
    expect((await raw(tampered('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)))).status).toBe(403);
    expect((await raw(tampered('expires', String(Number(url.searchParams.get('expires')) + 3600)))).status).toBe(403);
    const other = new URL(d.url);
    other.pathname = other.pathname.replace(/[^/]+$/, 'file_other');
    expect((await raw(other.href)).status).toBe(403);
  });

  it('refuse an expired URL (the fixtures API issues one that expired a minute ago)', async () => {
    const m = h.ids.message;
    const r = await h.fx(`/messages/${m.messageId}/expired-url`, 'POST', { index: m.storedIndex });
    expect(r.status).toBe(200);
    expect(Date.parse(r.json.data.expiresAt)).toBeLessThan(Date.now());
    const file = await raw(r.json.data.url);
    expect(file.status).toBe(403);
    expect(file.json.error.code).toBe('files.url_expired');
  });

  it('refuse the URL once its message is deleted (deleted messages are not downloadable)', async () => {
    const conv = (await h.fx('/conversations', 'POST', {})).json.data.id;
    const msg = (await h.fx('/messages', 'POST', { conversationId: conv, attachments: ['stored'] })).json.data;
    const d = await download(msg.id, 0);
    expect((await raw(d.url)).status).toBe(200);
    await h.fx(`/messages/${msg.id}/delete`, 'POST');
    expect((await raw(d.url)).status).toBe(404);
  });
});
