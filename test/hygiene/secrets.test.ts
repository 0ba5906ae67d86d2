import './debug-logs';
import { createHash, randomBytes } from 'node:crypto';
import { generateApiKey } from '../../shared/domain/apikeys';
import { apiClient, makeKey, useTestTable, type CallResult } from '../support/harness';
import { fullScenario } from '../contract/scenario';

/**
 * Hygiene: a whole scenario over every route (and cross-workspace probes, auth failures) with logs at
 * DEBUG and event logging on. Every line written to stdout, stderr or the console is captured:
 *  - no API key (svc_live_ + 40 characters) and no hash of any key used (hex or base64url SHA-256);
 * and every response body:
 *  - no storage attribute (PK, SK, GSI*PK, GSI*SK, _type, _v, _usedBy*, ttl) at any depth, and no
 *    workspace id of the caller, neither in clear nor inside a base64url token such as a cursor.
 * Workspace ids are distinctive random strings, so a substring check means something.
 */
useTestTable();

const STORAGE_ATTR = /^(PK|SK|GSI\d*PK|GSI\d*SK|_type|_v|_usedBy.*|ttl)$/;
const KEY_SHAPE = /svc_live_[A-Za-z0-9]{40}/;

const captured: string[] = [];
const responses: Array<{ req: string; res: CallResult }> = [];
const api = apiClient(undefined, { onResponse: (req, res) => responses.push({ req: `${req.method} ${req.path}`, res }) });

/** Storage attribute names found at any depth of a JSON value. */
function storageAttributes(v: unknown, path = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => storageAttributes(x, `${path}[${i}]`));
  if (!v || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, x]) => [...(STORAGE_ATTR.test(k) ? [`${path}.${k}`] : []), ...storageAttributes(x, `${path}.${k}`)]);
}
/** The text of a body plus the decoding of every base64url token in it (cursors and the like). */
function withDecodedTokens(text: string): string {
  const decoded = (text.match(/[A-Za-z0-9_-]{16,}/g) ?? []).map((t) => Buffer.from(t, 'base64url').toString('utf8'));
  return [text, ...decoded].join('\n');
}
const sha = (key: string) => [createHash('sha256').update(key).digest('hex'), createHash('sha256').update(key).digest('base64url')];

let restore: Array<() => void> = [];
function capture(): void {
  const grab = (chunk: unknown) => captured.push(typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (grab(chunk), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (grab(chunk), true));
  const cons = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
    jest
      .spyOn(console, m)
      .mockImplementation((...args: unknown[]) => grab(args.map((a) => (a instanceof Error ? `${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '))),
  );
  restore = [out, err, ...cons].map((s) => () => s.mockRestore());
}
beforeAll(capture);
afterAll(() => restore.forEach((r) => r()));

test('a whole scenario logs no key or key hash, and answers no storage attribute or caller workspace id', async () => {
  const ws = `hyg-${randomBytes(8).toString('hex')}`;
  const other = `hyg-${randomBytes(8).toString('hex')}`;
  const result = await fullScenario(api, ws);
  // another workspace probing the first one's records, and authentication failures
  const otherKey = await makeKey(other, { perMinute: 100_000, perHour: 1_000_000 });
  for (const [resource, ids] of Object.entries(result.ids))
    for (const id of ids) await api.get(`/v1/${resource}/${id}`, { key: otherKey, query: resource === 'time-entries' ? { sortKey: `2026-03-01T09:00:00.000Z#${id}` } : {} });
  await api.get('/v1/time-entries', { key: otherKey, query: { limit: '1' } });
  const unknownKey = generateApiKey();
  expect((await api.get('/v1/clients', { key: unknownKey })).status).toBe(401);
  const keys = [...result.keys, otherKey, unknownKey];

  // the capture worked: the handlers and the authorizer logged (about one line per request)
  const lines = captured
    .join('')
    .split('\n')
    .filter((l) => l.trim());
  expect(lines.length).toBeGreaterThan(responses.length * 0.8);
  expect(lines.some((l) => l.includes('Request served') && l.includes(ws))).toBe(true);
  const logText = lines.join('\n');
  const leakedKeys = keys.filter((k) => logText.includes(k)).map((k) => `key ${k.slice(0, 14)}...`);
  const leakedHashes = keys
    .flatMap(sha)
    .filter((h) => logText.includes(h))
    .map((h) => `hash ${h.slice(0, 12)}...`);
  const keyShaped = lines.filter((l) => KEY_SHAPE.test(l)).map((l) => l.slice(0, 200));
  expect({ leakedKeys, leakedHashes, keyShaped }).toEqual({ leakedKeys: [], leakedHashes: [], keyShaped: [] });

  // every response of the run
  expect(responses.length).toBeGreaterThan(100);
  const problems: string[] = [];
  for (const { req, res } of responses) {
    // Redoc's bundle (the reference page's script) is a static file of the package, no data of the API.
    if (req.startsWith('GET /v1/docs/redoc.standalone.js')) continue;
    const attrs = storageAttributes(res.body);
    if (attrs.length) problems.push(`${req} -> ${res.status}: storage attributes ${attrs.join(', ')}`);
    const text = withDecodedTokens(res.text);
    // GET /v1/me names the caller's own workspace by design (the key's workspace is what it reports); never another.
    const own = req.startsWith('GET /v1/me') ? [ws] : [];
    for (const w of [ws, other]) if (text.includes(w) && !own.includes(w)) problems.push(`${req} -> ${res.status}: contains workspace id ${w}`);
    const keyNames = text.match(/"(PK|SK|GSI\d*PK|GSI\d*SK|_type|_v|_usedBy\w*|ttl)"/g);
    if (keyNames) problems.push(`${req} -> ${res.status}: storage attribute names ${[...new Set(keyNames)].join(', ')}`);
    if (KEY_SHAPE.test(res.text)) problems.push(`${req} -> ${res.status}: contains an API key`);
  }
  expect(problems).toEqual([]);
  restore.forEach((r) => r());
  console.log(`hygiene: ${lines.length} log lines scanned, ${responses.length} responses scanned, ${keys.length} keys`);
});

test('webhook secrets: never in a log line (DEBUG, event logging on), in no answer but create and rotate, never stored in clear', async () => {
  captured.length = 0;
  capture(); // the first test restored the streams at its end
  const firstResponse = responses.length;
  const ws = `hyg-${randomBytes(8).toString('hex')}`;
  const key = await makeKey(ws, { perMinute: 100_000, perHour: 1_000_000 });
  const { startWebhookDelivery } = await import('../../local/webhooks');
  const created = await api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['*'] }, { key });
  const rotated = await api.post(`/v1/webhooks/${created.body.id}/rotate-secret`, undefined, { key });
  const secrets = [created.body.secret as string, rotated.body.secret as string];
  expect(secrets.every((s) => /^whsec_/.test(s))).toBe(true);
  // a delivery attempt signs with both secrets (transition) and logs its outcome (port 9: refused)
  expect((await api.post('/v1/clients', { name: 'logged' }, { key })).status).toBe(201);
  const loop = startWebhookDelivery({ pollMs: 20 });
  const { until } = await import('../webhooks/support');
  await until(async () => (await api.get(`/v1/webhooks/${created.body.id}/deliveries`, { key })).body.items.length > 0);
  await loop.stop();
  await api.get(`/v1/webhooks/${created.body.id}`, { key });
  await api.get('/v1/webhooks', { key });
  const logText = captured.join('');
  expect(logText).toContain('Webhook attempt');
  const bare = secrets.map((s) => s.slice('whsec_'.length));
  expect(bare.filter((s) => logText.includes(s))).toEqual([]);
  expect(logText.includes('whsec_')).toBe(false);
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db, tableName } = await import('../../shared/data/db');
  const stored = JSON.stringify((await db().send(new ScanCommand({ TableName: tableName() }))).Items);
  expect(bare.filter((s) => stored.includes(s))).toEqual([]);
  restore.forEach((r) => r());
  const answers = responses
    .slice(firstResponse)
    .filter(({ req }) => req.includes('/v1/webhooks'))
    .map(({ req, res }) => ({ req, secret: res.text.includes('whsec_') }));
  expect(answers.filter((a) => a.secret).map((a) => a.req)).toEqual(['POST /v1/webhooks', `POST /v1/webhooks/${created.body.id}/rotate-secret`]);
  expect(answers.length).toBeGreaterThan(4);
});
