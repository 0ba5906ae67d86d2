import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/data/db';
import { keys } from '../../shared/data/keys';
import { workspaceWithKey } from '../resources/support';
import { apiClient, useTestTable } from '../support/harness';
import type { FeedEvent } from './support';

/**
 * The feed's guarantee under concurrency, against DynamoDB Local: 20 writers make random creates,
 * updates, moves and deletes of clients, tags and time entries, sharing the records (so writes of one
 * record race each other), while a poller follows the feed with small pages. Then:
 * - the events the poller saw equal, one for one, the writes that were acknowledged (2xx): none missing,
 *   none extra (a refused or lost write has no event), none twice;
 * - the events of each record come in the order its writes committed: its revisions (ETags) strictly
 *   increase along the feed, created first, deleted last.
 * Run twice: with the default gap timeout (readers wait for writes in flight) and with a 30 ms one and 3
 * pollers (readers void positions of writes still in flight, racing their commits, and each other): the
 * void-vs-commit race must decide each position once, and a writer whose position was voided writes again.
 */
useTestTable();
const api = apiClient();

const WRITERS = 20;
const OPS_PER_WRITER = 25;

type Live = { kind: 'clients' | 'tags' | 'time-entries'; id: string; sortKey?: string };
const TYPE = { clients: 'client', tags: 'tag', 'time-entries': 'time-entry' } as const;

const RUNS = [
  { name: 'default gap timeout, 1 poller', gapTimeoutMs: undefined, pollers: 1 },
  { name: '30 ms gap timeout (voids race commits), 3 pollers', gapTimeoutMs: '30', pollers: 3 },
];
afterEach(() => delete process.env.CHANGES_GAP_TIMEOUT_MS);

test.each(RUNS)(
  '20 concurrent writers, $name: every acknowledged write is seen once by each poller, in commit order per record',
  async ({ gapTimeoutMs, pollers }) => {
    if (gapTimeoutMs) process.env.CHANGES_GAP_TIMEOUT_MS = gapTimeoutMs;
    const { ws, key } = await workspaceWithKey('feed-race');
    const live: Live[] = [];
    const acked: string[] = [];
    let seq = 0;
    const rnd = (n: number) => Math.floor(Math.random() * n);
    const pick = () => (live.length ? live[rnd(live.length)] : undefined);
    const startTime = () => new Date(Date.UTC(2026, 2, 1 + rnd(20), rnd(23), rnd(60))).toISOString();

    async function writer(w: number) {
      for (let i = 0; i < OPS_PER_WRITER; i++) {
        const op = rnd(10);
        const target = pick();
        if (op < 4 || !target) {
          const kind = (['clients', 'tags', 'time-entries'] as const)[rnd(3)]!;
          // half the time entries are running timers: starting one stops the user's running one in the same
          // write (an implicit time-entry.updated of that entry), or is refused (409) if that one started later
          const start = startTime();
          const body =
            kind === 'time-entries'
              ? { userId: `u${w % 3}`, startTime: start, ...(rnd(2) === 0 ? { endTime: new Date(Date.parse(start) + 30 * 60_000).toISOString() } : {}) }
              : { name: `${kind}-${w}-${i}-${++seq}`, ...(kind === 'clients' ? { currency: 'EUR' } : {}) };
          const res = await api.post(`/v1/${kind}`, body, { key });
          if (kind === 'time-entries' && res.status === 409) continue;
          if (res.status === 503) continue; // contention: retryable, and nothing was written (checked by the comparison)
          if (res.status !== 201) throw new Error(`create ${kind}: ${res.status} ${res.text}`);
          live.push({ kind, id: res.body.id, ...(res.body.sortKey ? { sortKey: res.body.sortKey } : {}) });
          acked.push(`${TYPE[kind]}.created ${res.body.id} ${res.body.etag}`);
        } else if (op < 8) {
          // an update; for a time entry, half of them move it (a new startTime)
          const move = target.kind === 'time-entries' && rnd(2) === 0;
          const body =
            target.kind === 'time-entries'
              ? move
                ? { startTime: startTime() }
                : { notes: `n${w}-${i}` }
              : target.kind === 'clients'
                ? { notes: `n${w}-${i}` }
                : { archived: rnd(2) === 0 };
          const res = await api.put(`/v1/${target.kind}/${target.id}`, body, { key, ...(target.sortKey ? { query: { sortKey: target.sortKey } } : {}) });
          if (res.status === 200) {
            if (res.body.sortKey) target.sortKey = res.body.sortKey;
            acked.push(`${TYPE[target.kind]}.updated ${target.id} ${res.body.etag}`);
          } else if (![404, 409, 503].includes(res.status) && !(move && res.status === 400)) throw new Error(`update: ${res.status} ${res.text}`); // a move past its endTime: 400
        } else {
          const res = await api.del(`/v1/${target.kind}/${target.id}`, { key, ...(target.sortKey ? { query: { sortKey: target.sortKey } } : {}) });
          if (res.status === 200) {
            live.splice(live.indexOf(target), 1);
            acked.push(`${TYPE[target.kind]}.deleted ${target.id}`);
          } else if (![404, 409, 503].includes(res.status)) throw new Error(`delete: ${res.status} ${res.text}`);
        }
      }
    }

    /** A poller: follows the feed with its own cursor, small pages. */
    const makePoller = () => {
      const p = { seen: [] as FeedEvent[], cursor: undefined as string | undefined };
      const poll = async () => {
        const res = await api.get('/v1/changes', { key, query: { limit: '20', ...(p.cursor ? { cursor: p.cursor } : {}) } });
        if (res.status !== 200) throw new Error(`poll: ${res.status} ${res.text}`);
        p.seen.push(...(res.body.items as FeedEvent[]));
        p.cursor = res.body.nextCursor;
        return res.body.hasMore as boolean;
      };
      return {
        ...p,
        get seen() {
          return p.seen;
        },
        poll,
      };
    };
    const all = Array.from({ length: pollers }, makePoller);
    let writing = true;
    const polling = all.map(async (p) => {
      while (writing) if (!(await p.poll())) await new Promise((r) => setTimeout(r, 20));
    });
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writing = false;
    await Promise.all(polling);
    // Catch up: keep following the cursor until the feed has given as many events as were acknowledged
    // (or 30 s passed; a missing event then shows in the comparison below).
    for (const p of all) {
      const until = Date.now() + 30_000;
      while (p.seen.length < acked.length && Date.now() < until) if (!(await p.poll())) await new Promise((r) => setTimeout(r, 50));
      await p.poll();
    }

    expect(acked.length).toBeGreaterThan(WRITERS * OPS_PER_WRITER * 0.5);
    // Every poller saw the same feed, in the same order.
    for (const p of all) expect(p.seen.map((e) => e.id)).toEqual(all[0]!.seen.map((e) => e.id));
    const seen = all[0]!.seen;
    const described = seen.map((e) => (e.type.endsWith('.deleted') ? `${e.type} ${e.resourceId}` : `${e.type} ${e.resourceId} ${e.data.etag}`));
    // Events no request acknowledged directly: the running timers stopped by a start. Each is followed at
    // once by the acknowledged write that stopped it (same transaction, next position): a time entry of the
    // same user starting where the stopped one now ends.
    const ackedSet = new Set(acked);
    let implicit = 0;
    const direct: string[] = [];
    described.forEach((d, i) => {
      if (ackedSet.has(d)) return direct.push(d);
      const stopped = seen[i]!;
      const by = seen[i + 1];
      expect({ d, type: stopped.type, by: by && ackedSet.has(described[i + 1]!), user: by?.data.userId, start: by?.data.startTime }).toEqual({
        d,
        type: 'time-entry.updated',
        by: true,
        user: stopped.data.userId,
        start: stopped.data.endTime,
      });
      implicit++;
    });
    expect([...direct].sort()).toEqual([...acked].sort());
    expect(implicit).toBeGreaterThan(0);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);

    // Per record, in feed order: created with revision 1 first, revisions strictly increasing, deleted last.
    const byRecord = new Map<string, FeedEvent[]>();
    for (const e of seen) byRecord.set(e.resourceId, [...(byRecord.get(e.resourceId) ?? []), e]);
    let contended = 0;
    for (const [id, events] of byRecord) {
      const revisions = events.map((e) => Number(String(e.data.etag).replace(/"/g, '')));
      const deletedAt = events.findIndex((e) => e.type.endsWith('.deleted'));
      expect({ id, first: events[0]!.type.endsWith('.created'), revision: revisions[0] }).toEqual({ id, first: true, revision: 1 });
      const live = deletedAt < 0 ? revisions : revisions.slice(0, deletedAt);
      expect({ id, increasing: live.every((r, i) => i === 0 || r > live[i - 1]!) }).toEqual({ id, increasing: true });
      if (deletedAt >= 0)
        expect({ id, deletedLast: deletedAt === events.length - 1, lastState: revisions[deletedAt] }).toEqual({ id, deletedLast: true, lastState: live[live.length - 1] });
      if (events.length > 2) contended++;
    }
    // The run did exercise records written more than twice (the order claim is about them).
    expect(contended).toBeGreaterThan(10);
    const feed = await db().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.changeLogPartition(ws) } }),
    );
    const voids = (feed.Items ?? []).filter((i) => i._type === 'CHANGEVOID').length;
    console.log(
      `feed race (${pollers} pollers, gap timeout ${gapTimeoutMs ?? 'default'} ms): ${acked.length} acknowledged writes, ${seen.length} events, ${voids} voided positions, ${contended} records written 3+ times`,
    );
  },
  240_000,
);
