import { clients, projects } from '../../shared/data/repositories';
import { deriveTimeEntry, type TimeEntry } from '../../shared/domain/entities/time-entries';
import { ulid } from '../../shared/domain/ids';
import { createFromTime } from '../../shared/invoicing/service';
import { unbilledTime } from '../../shared/invoicing/views';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';
import { writeEntries } from '../invoicing/support';
import { consoleClient, person, startOidc, type Oidc } from './support';

/**
 * Issue 32, item 7: GET /console/api/workspaces/{ws}/invoices/unbilled equals a brute force over /v1 (every
 * time entry and project paged through with an API key, the sums computed here in integer cents) on a random
 * workspace: several clients, projects and rates (half cents), currencies from the project or the client,
 * a project without a rate; entries on a draft, a running timer, non-billable time and time without a client
 * are not counted; another workspace's time never is. The amount is also what the preview of "Invoice this"
 * (that client, oldest..newest) totals before tax. The read's bound: past it, exactly the entries starting at
 * or after `countedFrom` are counted.
 */
useTestTable();
jest.setTimeout(300_000);
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
let oidc: Oidc;
const api = consoleClient();
const v1 = apiClient();

/** A small seeded PRNG (mulberry32): the seed is printed on failure through the test's name. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const SEED = Number(process.env.UNBILLED_SEED ?? Date.now() % 1_000_000);

/** A random workspace: 4 clients, 2-3 projects each (random 2-decimal rates; one project of the last client has none), ~40 entries per client. */
async function randomWorkspace(ws: string, rnd: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const clientIds: string[] = [];
  const projectIds: string[][] = [];
  for (let c = 0; c < 4; c++) {
    const client = await clients.create(ws, { name: `Client ${String.fromCharCode(65 + c)} ${ulid().slice(-4)}`, ...(c === 2 ? {} : { currency: c === 1 ? 'USD' : 'EUR' }) });
    clientIds.push(client.id);
    const mine: string[] = [];
    for (let p = 0; p < 2 + (c % 2); p++) {
      const noRate = c === 3 && p === 1;
      const rate = Math.round((10 + rnd() * 190) * 100) / 100;
      const project = await projects.create(ws, {
        name: `P${c}${p}`,
        clientId: client.id,
        billable: true,
        ...(noRate ? {} : { hourlyRate: rate }),
        // client 2 has no currency: its projects carry one
        ...(c === 2 ? { currency: 'GBP' } : {}),
      });
      mine.push(project.id);
    }
    projectIds.push(mine);
  }
  const now = new Date().toISOString();
  const entries: TimeEntry[] = [];
  for (let i = 0; i < 160; i++) {
    const c = i % 4;
    const start = Date.UTC(2026, 0, 1) + Math.floor(rnd() * 180 * 86_400_000);
    const minutes = 1 + Math.floor(rnd() * 600);
    const billable = rnd() < 0.8;
    // a few entries of no client (billable, but no invoice can take them)
    const orphan = rnd() < 0.04;
    entries.push(
      deriveTimeEntry({
        id: ulid(),
        userId: pick(['u1', 'u2', 'u3']),
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + minutes * 60_000).toISOString(),
        ...(orphan ? {} : { projectId: pick(projectIds[c]!), clientId: clientIds[c]! }),
        billable,
        notes: `entry ${i}`,
        createdAt: now,
        updatedAt: now,
      }) as TimeEntry,
    );
  }
  await writeEntries(ws, entries);
  return { clientIds, projectIds, entries };
}

interface Expected {
  clientId: string;
  entries: number;
  minutes: number;
  amount: number | null;
  currency: string | null;
  oldestDate: string;
  newestDate: string;
}

/** Every record of a /v1 list, paged through with the key. */
async function all<T>(path: string, key: string, query: Record<string, string> = {}): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const r = await v1.get(path, { key, query: { ...query, ...(cursor ? { cursor } : {}) } });
    expect(r.status).toBe(200);
    out.push(...(r.body.items as T[]));
    cursor = r.body.nextCursor;
  } while (cursor);
  return out;
}

/** The brute force: from /v1 alone, per client, in integer cents (half up per project line). */
async function bruteForce(ws: string, key: string, keep: (e: { startTime: string }) => boolean = () => true): Promise<Expected[]> {
  type E = { clientId?: string; projectId?: string; billable?: boolean; durationMinutes?: number; invoiceId?: string; startTime: string };
  type P = { id: string; hourlyRate?: number; currency?: string };
  type C = { id: string; currency?: string };
  const [entries, projectList, clientList] = await Promise.all([all<E>('/v1/time-entries', key, { limit: '200' }), all<P>('/v1/projects', key), all<C>('/v1/clients', key)]);
  const unbilled = entries.filter((e) => e.billable === true && (e.durationMinutes ?? 0) > 0 && !e.invoiceId && e.clientId && keep(e));
  const byClient = new Map<string, E[]>();
  for (const e of unbilled) byClient.set(e.clientId!, [...(byClient.get(e.clientId!) ?? []), e]);
  return [...byClient].map(([clientId, list]) => {
    const perProject = new Map<string, number>();
    for (const e of list) perProject.set(e.projectId ?? '', (perProject.get(e.projectId ?? '') ?? 0) + e.durationMinutes!);
    let cents = 0;
    let currency: string | null = null;
    let ok = true;
    for (const [pid, minutes] of perProject) {
      const p = projectList.find((x) => x.id === pid);
      if (p?.hourlyRate === undefined) {
        ok = false;
        continue;
      }
      const rateCents = Math.round(p.hourlyRate * 100);
      cents += Math.floor((2 * rateCents * minutes + 60) / 120); // rateCents x minutes / 60, half up, once per line
      currency = p.currency ?? clientList.find((c) => c.id === clientId)?.currency ?? null;
    }
    const dates = list.map((e) => e.startTime.slice(0, 10)).sort();
    return {
      clientId,
      entries: list.length,
      minutes: list.reduce((s, e) => s + e.durationMinutes!, 0),
      amount: ok ? cents / 100 : null,
      currency: ok ? currency : null,
      oldestDate: dates[0]!,
      newestDate: dates[dates.length - 1]!,
    };
  });
}
const shape = (items: ReadonlyArray<Expected & Record<string, unknown>>) =>
  items
    .map(({ clientId, entries, minutes, amount, currency, oldestDate, newestDate }) => ({ clientId, entries, minutes, amount, currency, oldestDate, newestDate }))
    .sort((a, b) => a.clientId.localeCompare(b.clientId));

let ws: string;
let other: string;
let viewer: { token: string };
let key: string;
let seeded: Awaited<ReturnType<typeof randomWorkspace>>;
let draftEntries: number;

beforeAll(async () => {
  oidc = await startOidc();
  ws = newWorkspace('unbilled');
  other = newWorkspace('unbilled-other');
  viewer = await person(oidc.issuer, ws, 'viewer', 'unbilled');
  key = await makeKey(ws);
  const rnd = prng(SEED);
  seeded = await randomWorkspace(ws, rnd);
  // another workspace of the same shape: none of it may be counted
  await randomWorkspace(other, prng(SEED + 1));
  // a draft of client 0 over February: its entries are on an invoice (not counted)
  const draft = await createFromTime({ workspaceId: ws, clientId: seeded.clientIds[0]!, startDate: '2026-02-01', endDate: '2026-02-28' }).catch(() => undefined);
  draftEntries = draft ? seeded.entries.filter((e) => e.clientId === seeded.clientIds[0] && e.billable && e.startTime.startsWith('2026-02')).length : 0;
  // a running timer on a billable project of client 1 (through /v1: no endTime)
  const timer = await v1.post('/v1/time-entries', { userId: 'u-timer', projectId: seeded.projectIds[1]![0], startTime: '2026-03-03T09:00:00Z', billable: true }, { key });
  expect([timer.status, timer.body.durationMinutes]).toEqual([201, undefined]);
});
afterAll(async () => {
  await oidc.stop();
});

test(`unbilled per client = a brute force over /v1 (seed ${SEED}); drafts, timers, non-billable, no client and another workspace not counted`, async () => {
  expect(draftEntries).toBeGreaterThan(0); // the seed put billable time of client 0 in February: a draft holds it
  const r = await api.call('GET', `/console/api/workspaces/${ws}/invoices/unbilled`, { token: viewer.token });
  expect(r.status).toBe(200);
  expect(r.body.complete).toBe(true);
  expect(r.body.countedFrom).toBeUndefined();
  const expected = await bruteForce(ws, key);
  expect(expected.length).toBe(4);
  expect(shape(r.body.items)).toEqual(shape(expected as Array<Expected & Record<string, unknown>>));
  // by client name; each names its client; the one with a project without a rate says why it cannot be invoiced
  expect(r.body.items.map((i: { clientName: string }) => i.clientName)).toEqual([...r.body.items.map((i: { clientName: string }) => i.clientName)].sort());
  const noRate = r.body.items.find((i: { clientId: string }) => i.clientId === seeded.clientIds[3]);
  expect(noRate).toMatchObject({ amount: null, currency: null, problem: expect.stringContaining('hourly rate') });
  expect(r.body.items.find((i: { clientId: string }) => i.clientId === seeded.clientIds[2]).currency).toBe('GBP');
  // none of the other workspace's clients
  const theirs = await api.call('GET', `/console/api/workspaces/${other}/invoices/unbilled`, { token: viewer.token });
  expect(theirs.status).toBe(404);

  // "Invoice this": the preview of that client over oldest..newest totals the same before tax, with the same entries
  const admin = await person(oidc.issuer, ws, 'admin', 'unbilled-admin');
  for (const item of r.body.items as Array<Expected & { problem?: string }>) {
    if (item.amount === null) continue;
    const preview = await api.call('POST', `/console/api/workspaces/${ws}/invoices/preview`, {
      token: admin.token,
      body: { clientId: item.clientId, startDate: item.oldestDate, endDate: item.newestDate },
    });
    expect([item.clientId, preview.status, preview.body.subtotal, preview.body.entryCount, preview.body.currency]).toEqual([
      item.clientId,
      200,
      item.amount,
      item.entries,
      item.currency,
    ]);
  }
});

test('a period: only entries starting in it; bad query: 400 naming the field', async () => {
  const r = await api.call('GET', `/console/api/workspaces/${ws}/invoices/unbilled`, { token: viewer.token, query: { startDate: '2026-03-01', endDate: '2026-04-30' } });
  expect(r.status).toBe(200);
  const expected = await bruteForce(ws, key, (e) => e.startTime >= '2026-03-01' && e.startTime < '2026-05-01');
  expect(shape(r.body.items)).toEqual(shape(expected as Array<Expected & Record<string, unknown>>));
  for (const [query, field] of [
    [{ startDate: '2026-13-01' }, 'startDate'],
    [{ startDate: '2026-05-01', endDate: '2026-04-01' }, 'endDate'],
    [{ colour: 'red' }, 'colour'],
  ] as const) {
    const bad = await api.call('GET', `/console/api/workspaces/${ws}/invoices/unbilled`, { token: viewer.token, query });
    expect([field, bad.status, bad.body.error.code, bad.body.error.details?.[0]?.field]).toEqual([field, 400, 'VALIDATION_ERROR', field]);
  }
});

test('the bound: a read that stops early says so, and counts exactly the entries starting at or after countedFrom', async () => {
  // 3 Query pages of 11 items each: the 160 entries are not all read
  const r = await unbilledTime(ws, {}, { maxPages: 3, pageItems: 11 });
  expect(r.complete).toBe(false);
  expect(r.countedFrom).toMatch(/^2026-/);
  const expected = await bruteForce(ws, key, (e) => e.startTime >= r.countedFrom!);
  expect(expected.length).toBeGreaterThan(0);
  expect(shape(r.items as unknown as Array<Expected & Record<string, unknown>>)).toEqual(shape(expected as Array<Expected & Record<string, unknown>>));
  // with room for all: complete
  expect((await unbilledTime(ws, {}, { maxPages: 100, pageItems: 11 })).complete).toBe(true);
});
