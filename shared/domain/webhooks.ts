import { randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';

/**
 * Webhook rules that do no I/O: the signing secret's format, which addresses a delivery may reach,
 * and the retry schedule (docs/webhooks.md). Delivery itself is shared/api/webhook-delivery.ts.
 */

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The event a `POST /v1/webhooks/{id}/test` sends. */
export const PING_TYPE = 'webhook.ping';

/**
 * Addresses no delivery may reach, wherever it runs: private (RFC 1918), shared (CGNAT), link-local
 * (169.254/16, which holds the cloud metadata service 169.254.169.254), unique-local and link-local
 * IPv6 (fc00::/7 holds AWS's fd00:ec2::254), unspecified, multicast, reserved and benchmark ranges.
 * IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are checked as the IPv4 address they carry.
 */
const REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** `::ffff:10.0.0.1` -> `10.0.0.1`; other addresses unchanged. */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : address;
}

/**
 * Why a delivery may not connect to this IP address, or undefined when it may. Loopback is allowed
 * only when `allowLoopback` (a local run); the refused ranges above never.
 */
export function refusedAddress(address: string, allowLoopback: boolean): string | undefined {
  const ip = unmapped(address.replace(/^\[|\]$/g, ''));
  const family = isIP(ip);
  if (family === 0) return 'is not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(ip, type)) return allowLoopback ? undefined : `resolves to a loopback address (${ip})`;
  if (REFUSED.check(ip, type)) return `resolves to a private, link-local, metadata or reserved address (${ip})`;
  return undefined;
}

/**
 * The syntactic checks of a webhook URL (before DNS): an absolute http(s) URL, https unless
 * `allowHttp`, no user name or password. Returns the parsed URL, or the reason it is refused.
 */
export function parseWebhookUrl(raw: string, allowHttp: boolean): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL, e.g. https://example.com/hooks';
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return allowHttp ? 'must be an http or https URL' : 'must be an https URL';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (!url.hostname) return 'must name a host';
  return url;
}

/**
 * Seconds between attempts: `WEBHOOK_RETRY_SCHEDULE` (comma list; decimals allowed), by default
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over about 27.6 hours.
 */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
export function retrySchedule(value = process.env.WEBHOOK_RETRY_SCHEDULE): number[] {
  if (value === undefined || value.trim() === '') return [...DEFAULT_RETRY_SCHEDULE];
  const out = value.split(',').map((v) => Number(v.trim()));
  if (out.some((n) => !Number.isFinite(n) || n < 0)) throw new Error(`WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds, got "${value}"`);
  return out;
}
