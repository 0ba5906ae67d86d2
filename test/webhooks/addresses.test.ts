import { post, setWebhookResolver } from '../../shared/webhooks/delivery';
import { localQueueDepth } from '../../local/queue';
import { refusedAddress } from '../../shared/domain/webhooks';
import { startWebhookDelivery, type DeliveryLoop } from '../../local/webhooks';
import { err, fields, workspaceWithKey } from '../resources/support';
import { apiClient, tableSnapshot, useTestTable } from '../support/harness';
import { until } from './support';

/**
 * Issue 22 item 9: every special-purpose range is refused, classified by ipaddr.js with embedded IPv4
 * unwrapped, at create (400 naming url, nothing stored) and at delivery (the attempt is refused before any
 * connection, whatever the name resolved to at create). One address per range, from its first and its
 * last block where they differ.
 */
process.env.WEBHOOK_RETRY_SCHEDULE = '0.05';
useTestTable();
const api = apiClient();
let loop: DeliveryLoop | undefined;
afterEach(async () => {
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  setWebhookResolver();
  await loop?.stop();
  loop = undefined;
});

const REFUSED: ReadonlyArray<[string, string]> = [
  // IPv4
  ['0.0.0.0/8', '0.1.2.3'],
  ['10.0.0.0/8', '10.255.0.1'],
  ['100.64.0.0/10 (CGNAT)', '100.127.255.254'],
  ['169.254.0.0/16 (metadata)', '169.254.169.254'],
  ['172.16.0.0/12', '172.31.0.1'],
  ['192.0.0.0/24', '192.0.0.8'],
  ['192.0.2.0/24', '192.0.2.1'],
  ['192.168.0.0/16', '192.168.1.20'],
  ['198.18.0.0/15 (benchmarking)', '198.19.255.1'],
  ['198.51.100.0/24', '198.51.100.7'],
  ['203.0.113.0/24', '203.0.113.9'],
  ['224.0.0.0/4 (multicast)', '239.255.255.250'],
  ['240.0.0.0/4 (reserved)', '250.1.2.3'],
  ['255.255.255.255 (broadcast)', '255.255.255.255'],
  // IPv6
  ['::/128', '::'],
  ['::/96 (IPv4-compatible)', '::a00:1'],
  ['::/96 (IPv4-compatible, public inside)', '::808:808'],
  ['::ffff:0:0/96 (IPv4-mapped private)', '::ffff:10.0.0.1'],
  ['::ffff:0:0/96 (IPv4-mapped metadata)', '::ffff:a9fe:a9fe'],
  ['::ffff:0:0:0/96 (IPv4-translated)', '::ffff:0:a00:1'],
  ['64:ff9b::/96 (NAT64)', '64:ff9b::a00:1'],
  ['64:ff9b::/96 (NAT64, public inside)', '64:ff9b::808:808'],
  ['64:ff9b:1::/48 (local NAT64)', '64:ff9b:1::a9fe:a9fe'],
  ['2002::/16 (6to4 of 10.0.0.1)', '2002:a00:1::1'],
  ['2001::/32 (Teredo)', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['fc00::/7 (unique-local, AWS metadata)', 'fd00:ec2::254'],
  ['fe80::/10 (link-local)', 'fe80::1'],
  ['fec0::/10 (site-local)', 'fec0::1'],
  ['ff00::/8 (multicast)', 'ff02::1'],
  ['100::/64 (discard)', '100::1'],
  ['2001:db8::/32 (documentation)', '2001:db8::1'],
];
const PUBLIC = ['93.184.215.14', '8.8.8.8', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '2a00:1450:4001:80b::200e'];
const literal = (ip: string) => (ip.includes(':') ? `[${ip}]` : ip);

test.each(REFUSED)('refused by the address rule: %s (%s)', (_range, ip) => {
  expect(refusedAddress(ip, true)).toMatch(/private, link-local, metadata or reserved/);
  expect(refusedAddress(ip, false)).toMatch(/private, link-local, metadata or reserved/);
});

test('public unicast is allowed; loopback only on a local run, IPv4-mapped loopback included', () => {
  for (const ip of PUBLIC) expect([ip, refusedAddress(ip, false)]).toEqual([ip, undefined]);
  for (const ip of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) {
    expect([ip, refusedAddress(ip, true)]).toEqual([ip, undefined]);
    expect([ip, refusedAddress(ip, false)]).toEqual([ip, expect.stringMatching(/loopback/)]);
  }
  expect(refusedAddress('not-an-ip', false)).toBe('is not an IP address');
});

test('at create: a literal address and a name resolving to it are both 400 naming url, for every range; nothing is stored', async () => {
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
  const { key } = await workspaceWithKey('ranges');
  const before = await tableSnapshot();
  let target = '';
  setWebhookResolver(async (host) => {
    if (host === 'hook.example.com') return [{ address: target, family: target.includes(':') ? 6 : 4 }];
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  });
  for (const [range, ip] of REFUSED) {
    target = ip;
    for (const url of [`https://${literal(ip)}/hook`, 'https://hook.example.com/hook']) {
      const res = await api.post('/v1/webhooks', { url, events: ['*'] }, { key });
      expect({ range, url, ...err(res), fields: fields(res) }).toEqual({
        range,
        url,
        status: 400,
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/reserved address/),
        fields: ['url'],
      });
    }
  }
  expect(await tableSnapshot()).toEqual(before);
});

test('at delivery: every range is refused before connecting (the sender\u2019s one POST path), and end to end the attempt log says why', async () => {
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
  let target = PUBLIC[0]!;
  setWebhookResolver(async () => [{ address: target, family: target.includes(':') ? 6 : 4 }]);
  for (const [range, ip] of REFUSED) {
    target = ip;
    const outcome = await post('https://rebinding.example.com/hook', '{}', {});
    expect({ range, statusCode: outcome.statusCode, error: outcome.error }).toEqual({ range, statusCode: undefined, error: expect.stringMatching(/^refused: .*reserved address/) });
  }
  // end to end: accepted at create (public), the name then points at NAT64 and 6to4 forms of private addresses
  const { key } = await workspaceWithKey('ranges-e2e');
  target = PUBLIC[0]!;
  const hook = await api.post('/v1/webhooks', { url: 'https://rebinding.example.com/hook', events: ['client.*'] }, { key });
  expect(hook.status).toBe(201);
  loop = startWebhookDelivery({ pollMs: 20, onError: () => undefined });
  for (const ip of ['64:ff9b::a9fe:a9fe', '2002:a00:1::1', '::ffff:0:a00:1']) {
    target = ip;
    expect((await api.post('/v1/clients', { name: `c ${ip}` }, { key })).status).toBe(201);
  }
  await until(async () => (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items.length === 6);
  await until(async () => (await localQueueDepth()) === 0);
  const log = (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items as Array<{ statusCode?: number; error?: string }>;
  expect(log.every((a) => a.statusCode === undefined && /^refused: .*(rfc6052|6to4|10\.0\.0\.1|169\.254)/.test(a.error ?? ''))).toBe(true);
});
