import { listAudit } from '../../shared/data/audit';
import { useTestTable } from '../support/harness';
import { consoleClient, person, startOidc, type Oidc } from './support';

/**
 * The billing profile (issue 32 item 6) through the console's routes, signed in at the real OpenID Provider:
 * GET .../billing-profile (every member), PUT (owners; 403 ROLE for admins and viewers; 404 for another
 * workspace), 400 naming the field for every bad input with nothing changed, Idempotency-Key (replay,
 * reuse with another body 422), the audit entry with its diff (and none for a PUT that changes nothing), and
 * concurrent PUTs applied one after the other: each audit entry names the profile it replaced.
 */
useTestTable();
jest.setTimeout(120_000);
let oidc: Oidc;
const api = consoleClient();
const WS = 'ws-console-profile';
const OTHER = 'ws-console-profile-b';
const path = (ws = WS) => `/console/api/workspaces/${ws}/billing-profile`;
let owner: { email: string; token: string };
let admin: { email: string; token: string };
let viewer: { email: string; token: string };

const EMPTY = {
  displayName: null,
  address: null,
  taxId: null,
  email: null,
  defaultCurrency: null,
  defaultTaxRate: null,
  paymentTermsDays: null,
  invoiceFooter: null,
  updatedAt: null,
  updatedBy: null,
};
const FULL = {
  displayName: 'Studio North GmbH',
  address: 'Harbour 5\n20457 Hamburg\nGermany',
  taxId: 'DE123456789',
  email: 'billing@studio-north.test',
  defaultCurrency: 'EUR',
  defaultTaxRate: 19,
  paymentTermsDays: 14,
  invoiceFooter: 'Bank transfer to DE02 1203 0000 0000 2020 51 within 14 days.\nThank you!',
};

beforeAll(async () => {
  oidc = await startOidc();
  owner = await person(oidc.issuer, WS, 'owner', 'bp-owner');
  admin = await person(oidc.issuer, WS, 'admin', 'bp-admin');
  viewer = await person(oidc.issuer, WS, 'viewer', 'bp-viewer');
});
afterAll(async () => {
  await oidc.stop();
});

const profileEntries = async (ws = WS) => (await listAudit(ws, { limit: 200, filter: { action: 'billing-profile.updated' } })).items;

test('every field null before it is set; an owner sets it (200, the whole profile), every member reads it, the audit log has the diff', async () => {
  for (const who of [owner, admin, viewer]) {
    const r = await api.call('GET', path(), { token: who.token });
    expect([r.status, r.body, r.headers['Cache-Control']]).toEqual([200, EMPTY, 'no-store']);
  }
  const put = await api.call('PUT', path(), { token: owner.token, body: FULL });
  expect(put.status).toBe(200);
  expect(put.body).toEqual({ ...FULL, updatedAt: expect.any(String), updatedBy: owner.email });
  for (const who of [admin, viewer]) expect((await api.call('GET', path(), { token: who.token })).body).toEqual(put.body);

  const [entry, ...rest] = await profileEntries();
  expect(rest).toEqual([]);
  expect(entry).toMatchObject({
    actor: owner.email,
    target: { type: 'workspace', id: WS },
    changes: { displayName: { from: null, to: FULL.displayName }, taxId: { from: null, to: 'DE123456789' } },
  });
  const log = await api.call('GET', `/console/api/workspaces/${WS}/audit-log`, { token: admin.token, query: { action: 'billing-profile.updated' } });
  expect(log.body.items[0]).toMatchObject({
    targetName: `Workspace ${WS}`,
    summary: expect.arrayContaining([`displayName: none -> ${FULL.displayName}`, 'paymentTermsDays: none -> 14']),
  });

  // the whole profile: a field left out is no longer set; a PUT that changes nothing writes nothing
  const smaller = await api.call('PUT', path(), { token: owner.token, body: { ...FULL, taxId: null, invoiceFooter: undefined } });
  expect([smaller.status, smaller.body.taxId, smaller.body.invoiceFooter, smaller.body.address]).toEqual([200, null, null, FULL.address]);
  const latest = (await profileEntries())[0]!;
  expect(latest.changes).toEqual({ taxId: { from: 'DE123456789', to: null }, invoiceFooter: { from: FULL.invoiceFooter, to: null } });
  const same = await api.call('PUT', path(), { token: owner.token, body: { ...FULL, taxId: null, invoiceFooter: null } });
  expect([same.status, same.body.updatedAt]).toEqual([200, smaller.body.updatedAt]);
  expect(await profileEntries()).toHaveLength(2);
  // restore
  expect((await api.call('PUT', path(), { token: owner.token, body: FULL })).status).toBe(200);
});

test("admins and viewers may not write (403 ROLE), another workspace's profile is 404, a missing token 401; nothing changes", async () => {
  await api.call('PUT', path(), { token: owner.token, body: FULL });
  const before = (await api.call('GET', path(), { token: owner.token })).body;
  for (const who of [admin, viewer]) {
    const r = await api.call('PUT', path(), { token: who.token, body: { ...FULL, displayName: 'Taken over' } });
    expect([r.status, r.body.error.code, r.body.error.details]).toEqual([403, 'FORBIDDEN', [{ reason: 'ROLE', required: 'owner' }]]);
  }
  const outsider = await person(oidc.issuer, OTHER, 'owner', 'bp-other');
  for (const method of ['GET', 'PUT']) {
    const r = await api.call(method, path(), { token: outsider.token, ...(method === 'PUT' ? { body: FULL } : {}) });
    expect([method, r.status, r.body.error.code]).toEqual([method, 404, 'NOT_FOUND']);
  }
  expect((await api.call('GET', path(OTHER), { token: outsider.token })).body).toEqual(EMPTY);
  expect((await api.call('PUT', path(), { body: FULL })).status).toBe(401);
  expect((await api.call('GET', path(), { token: owner.token })).body).toEqual(before);
});

test('bad input: 400 naming the field (control, zero-width and bidi characters, lengths, lines, ranges, unknown fields), nothing changed', async () => {
  await api.call('PUT', path(), { token: owner.token, body: FULL });
  const before = (await api.call('GET', path(), { token: owner.token })).body;
  const audits = (await profileEntries()).length;
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ ...FULL, displayName: undefined }, 'displayName'],
    [{ ...FULL, displayName: '   ' }, 'displayName'],
    [{ ...FULL, displayName: 'Studio\u0000North' }, 'displayName'],
    [{ ...FULL, displayName: 'Studio\nNorth' }, 'displayName'],
    [{ ...FULL, displayName: 'Studio\u200bNorth' }, 'displayName'],
    [{ ...FULL, displayName: 'x'.repeat(101) }, 'displayName'],
    [{ ...FULL, address: 'Harbour 5\u202eHamburg' }, 'address'],
    [{ ...FULL, address: 'Harbour 5\u0007' }, 'address'],
    [{ ...FULL, address: '1\n2\n3\n4\n5\n6\n7' }, 'address'],
    [{ ...FULL, address: 'a'.repeat(501) }, 'address'],
    [{ ...FULL, taxId: 'DE\u2066123' }, 'taxId'],
    [{ ...FULL, taxId: 'DE\t123' }, 'taxId'],
    [{ ...FULL, email: 'not an address' }, 'email'],
    [{ ...FULL, defaultCurrency: 'eur' }, 'defaultCurrency'],
    [{ ...FULL, defaultTaxRate: 100.5 }, 'defaultTaxRate'],
    [{ ...FULL, defaultTaxRate: 7.12345 }, 'defaultTaxRate'],
    [{ ...FULL, paymentTermsDays: -1 }, 'paymentTermsDays'],
    [{ ...FULL, paymentTermsDays: 1.5 }, 'paymentTermsDays'],
    [{ ...FULL, paymentTermsDays: 366 }, 'paymentTermsDays'],
    [{ ...FULL, invoiceFooter: 'Than\ufeffks' }, 'invoiceFooter'],
    [{ ...FULL, invoiceFooter: 'x'.repeat(2001) }, 'invoiceFooter'],
    [{ ...FULL, logo: 'data:' }, 'logo'],
  ];
  for (const [body, field] of cases) {
    const r = await api.call('PUT', path(), { token: owner.token, body });
    expect([field, r.status, r.body.error?.code, r.body.error?.details?.map((d: { field: string }) => d.field)]).toEqual([
      field,
      400,
      'VALIDATION_ERROR',
      expect.arrayContaining([field]),
    ]);
    expect(r.body.error.message).toContain(field);
  }
  const notJson = await api.call('PUT', path(), { token: owner.token, rawBody: '{"displayName":', headers: { 'Content-Type': 'application/json' } });
  expect(notJson.status).toBe(400);
  expect((await api.call('GET', path(), { token: owner.token })).body).toEqual(before);
  expect(await profileEntries()).toHaveLength(audits);
});

test('Idempotency-Key: the same key and body answer the first answer again (Idempotent-Replayed), another body 422; one audit entry', async () => {
  const audits = (await profileEntries()).length;
  const body = { ...FULL, displayName: 'Keyed Studio' };
  const headers = { 'Idempotency-Key': `bp-${Date.now()}` };
  const first = await api.call('PUT', path(), { token: owner.token, body, headers });
  expect(first.status).toBe(200);
  const again = await api.call('PUT', path(), { token: owner.token, body, headers });
  expect([again.status, again.headers['Idempotent-Replayed'], again.body]).toEqual([200, 'true', first.body]);
  const reused = await api.call('PUT', path(), { token: owner.token, body: { ...body, displayName: 'Other' }, headers });
  expect([reused.status, reused.body.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  expect((await api.call('GET', path(), { token: owner.token })).body.displayName).toBe('Keyed Studio');
  expect(await profileEntries()).toHaveLength(audits + 1);
});

test('concurrent PUTs by owners apply one after the other: all 200, the last one stays, each audit entry replaced the one before', async () => {
  const ws = `ws-console-profile-c-${Date.now().toString(36)}`;
  const owners = await Promise.all([0, 1, 2].map((i) => person(oidc.issuer, ws, 'owner', `bp-c${i}`)));
  const names = Array.from({ length: 8 }, (_, i) => `Writer ${i}`);
  const answers = await Promise.all(names.map((displayName, i) => api.call('PUT', path(ws), { token: owners[i % owners.length]!.token, body: { ...FULL, displayName } })));
  expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));
  const entries = (await profileEntries(ws)).reverse(); // oldest first
  expect(entries).toHaveLength(names.length);
  // a chain: the first replaced nothing, each next one replaced the name the one before wrote, every name once
  expect(entries[0]!.changes.displayName!.from).toBeNull();
  entries.slice(1).forEach((e, i) => expect(e.changes.displayName!.from).toBe(entries[i]!.changes.displayName!.to));
  expect(entries.map((e) => e.changes.displayName!.to).sort()).toEqual([...names].sort());
  const final = (await api.call('GET', path(ws), { token: owners[0]!.token })).body;
  expect(final.displayName).toBe(entries.at(-1)!.changes.displayName!.to);
  expect(final.updatedBy).toBe(entries.at(-1)!.actor);
});
