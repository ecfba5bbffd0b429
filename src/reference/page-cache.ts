/**
 * Rendered list pages, reused while nothing that could change them has happened. A page is the same bytes
 * for the same query as long as the data is the same, so the reference server keeps the bytes it rendered
 * and serves them again instead of filtering, signing a cursor and assembling 12 KB per request.
 *
 * Safety rests on one number, the store's version: every change to the data that a list can show bumps it
 * (store mutators, and server.ts after every write request and every fixtures call), and a lookup under a
 * version other than the one the pages were rendered at empties the cache. Callers key the pages on
 * everything else that shapes the answer and do not cache at all while faults are on.
 */

/** More distinct queries than this between two writes are rare; past it the cache starts over. */
const MAX_PAGES = 512;
/** And it never holds more than this many bytes (100-item pages are about 50 KB each). */
const MAX_BYTES = 8 << 20;

export class PageCache {
  private pages = new Map<string, Buffer>();
  private version = -1;
  private bytes = 0;

  /** The page rendered for a key at this version, if any. */
  get(key: string, version: number): Buffer | undefined {
    if (version !== this.version) return undefined;
    return this.pages.get(key);
  }

  /** Keeps a page rendered for a key at a version (pages of older versions are dropped). */
  set(key: string, version: number, page: Buffer): void {
    if (version !== this.version || this.pages.size >= MAX_PAGES || this.bytes + page.length > MAX_BYTES) {
      this.pages.clear();
      this.bytes = 0;
      this.version = version;
    }
    if (page.length > MAX_BYTES || this.pages.has(key)) return;
    this.pages.set(key, page);
    this.bytes += page.length;
  }
}
