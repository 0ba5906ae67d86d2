import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import * as settings from '../platform/settings';

/**
 * Webhook rules that do no I/O: the signing secret's format, which addresses a delivery may reach,
 * and the retry schedule (docs/webhooks.md). Delivery itself is shared/webhooks/delivery.ts.
 */

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The event a `POST /v1/webhooks/{id}/test` sends. */
export const PING_TYPE = 'webhook.ping';

/**
 * Which addresses a delivery may reach, classified by `ipaddr.js` (its special-purpose ranges, kept with
 * the IANA registries) rather than a hand list: only ordinary unicast is allowed. Refused, wherever it runs:
 * private (RFC 1918), shared/CGNAT (100.64/10), link-local (169.254/16: the metadata service), benchmark
 * (198.18/15), "this network" (0/8), reserved (240/4), broadcast, multicast, documentation, unique-local and
 * link-local IPv6 (fc00::/7 holds fd00:ec2::254), site-local (fec0::/10), discard, and every IPv6 form
 * that carries or reaches an IPv4 address: IPv4-mapped (::ffff:0:0/96) and IPv4-translated
 * (::ffff:0:0:0/96) are unwrapped and the IPv4 address checked; IPv4-compatible (::/96), NAT64
 * (64:ff9b::/96, 64:ff9b:1::/48: in a VPC they reach private IPv4), 6to4 (2002::/16) and Teredo
 * (2001::/32) are refused outright (issue 22 item 9).
 */
const IPV4_COMPATIBLE: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('::'), 96];

/**
 * Why a delivery may not connect to this IP address, or undefined when it may. Loopback is allowed
 * only when `allowLoopback` (a local run); the refused ranges above never.
 */
export function refusedAddress(address: string, allowLoopback: boolean): string | undefined {
  const raw = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(raw) || isIP(raw.replace(/%.*$/, '')) === 0) return 'is not an IP address';
  let ip: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(raw);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const range = v6.range();
    if (range === 'ipv4Mapped' || range === 'rfc6145') ip = ipaddr.IPv4.parse(v6.toByteArray().slice(-4).join('.'));
    else if (range === 'unspecified' || range === 'loopback') {
      // checked below as they are
    } else if (v6.match(IPV4_COMPATIBLE)) return refusal(raw, 'IPv4-compatible');
  }
  const range = ip.range();
  const shown = ip.toString();
  if (range === 'loopback') return allowLoopback ? undefined : `resolves to a loopback address (${shown})`;
  if (range !== 'unicast') return refusal(shown, range);
  return undefined;
}
const refusal = (ip: string, range: string) => `resolves to a private, link-local, metadata or reserved address (${ip}: ${range})`;

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
export function retrySchedule(value = settings.webhookRetrySchedule()): number[] {
  if (value === undefined || value.trim() === '') return [...DEFAULT_RETRY_SCHEDULE];
  const out = value.split(',').map((v) => Number(v.trim()));
  if (out.some((n) => !Number.isFinite(n) || n < 0)) throw new Error(`WEBHOOK_RETRY_SCHEDULE must be a comma list of seconds, got "${value}"`);
  return out;
}
