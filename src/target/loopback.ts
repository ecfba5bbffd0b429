/**
 * Loopback detection. Loopback targets (the embedded reference server, a local build) need no caps;
 * anything else is someone's shared system and must state its limits.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** True for localhost, 127.0.0.0/8, ::1 and IPv4-mapped 127.x addresses (URL hostnames may be bracketed). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIPv4(host)) return host.startsWith('127.');
  if (isIPv6(host)) {
    if (host === '::1' || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(host)) return true;
    const mapped = /^::ffff:(.+)$/.exec(host);
    if (!mapped?.[1]) return false;
    const rest = mapped[1];
    if (isIPv4(rest)) return rest.startsWith('127.');
    // The URL parser rewrites ::ffff:127.0.0.1 as ::ffff:7f00:1.
    const hex = /^([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(rest);
    return hex !== null && parseInt(hex[1] ?? '0', 16) >> 8 === 127;
  }
  return false;
}
