/**
 * A signed URL (a temporary credential, 4.6) held out of sight. Code outside the client can pass it around
 * but never read it: it prints, serialises and inspects as `<redacted>`, and only the client's fetchSigned
 * sends it. Exchanges of that fetch record only `redactedForm`.
 */
import { inspect } from 'node:util';
import { REDACTED } from './redact.js';

const hidden = new WeakMap<SignedUrl, URL>();

export class SignedUrl {
  /** The URL's origin and `/<redacted>`: what an exchange, a finding or a report may show. */
  readonly redactedForm: string;

  private constructor(url: URL) {
    hidden.set(this, url);
    this.redactedForm = `${url.origin}/${REDACTED}`;
  }

  /** Wraps an absolute http(s) URL; undefined for anything else. */
  static from(value: unknown): SignedUrl | undefined {
    if (typeof value !== 'string') return undefined;
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? new SignedUrl(url) : undefined;
    } catch {
      return undefined;
    }
  }

  toString(): string {
    return this.redactedForm;
  }

  toJSON(): string {
    return this.redactedForm;
  }

  [inspect.custom](): string {
    return `SignedUrl(${this.redactedForm})`;
  }
}

/** The URL itself: for the client's fetchSigned only. */
export function revealSignedUrl(u: SignedUrl): URL {
  return new URL(hidden.get(u)!.href);
}
