import { type apiClient, makeKey, tableSnapshot } from '../support/harness';

export type Api = ReturnType<typeof apiClient>;
export interface Entry {
  id: string;
  sortKey: string;
  userId: string;
  startTime: string;
  endTime?: string;
  durationMinutes?: number;
  projectId?: string;
  clientId?: string;
  taskId?: string;
  tagIds?: string[];
  [k: string]: unknown;
}

/** Newest first: sortKey descending (startTime, then id). */
export const newestFirst = (a: { sortKey: string }, b: { sortKey: string }) => (a.sortKey < b.sortKey ? 1 : a.sortKey > b.sortKey ? -1 : 0);

export async function created<T = any>(p: Promise<{ status: number; body: T; text: string }>, status = 201): Promise<T> {
  const res = await p;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  return res.body;
}

/** Every page of a listing, with the page sizes and hasMore flags seen. */
export async function pageAll(api: Api, key: string, query: Record<string, string | undefined>, maxPages = 10_000) {
  const items: Entry[] = [];
  const sizes: number[] = [];
  const hasMore: boolean[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const res = await api.get('/v1/time-entries', { key, query: { ...query, ...(cursor ? { cursor } : {}) } });
    if (res.status !== 200) throw new Error(`page ${i + 1}: ${res.status} ${res.text}`);
    items.push(...res.body.items);
    sizes.push(res.body.items.length);
    hasMore.push(res.body.hasMore);
    if (res.body.hasMore !== (res.body.nextCursor !== undefined)) throw new Error('hasMore and nextCursor disagree');
    cursor = res.body.nextCursor;
    if (!res.body.hasMore) break;
  }
  return { items, sizes, hasMore };
}

/** Creates a small catalog through the API: 2 clients, projects (one without client), tasks, tags. */
export async function makeCatalog(api: Api, key: string) {
  const c1 = await created(api.post('/v1/clients', { name: 'Client One' }, { key }));
  const c2 = await created(api.post('/v1/clients', { name: 'Client Two' }, { key }));
  const p1 = await created(api.post('/v1/projects', { name: 'Project One', clientId: c1.id }, { key }));
  const p2 = await created(api.post('/v1/projects', { name: 'Project Two', clientId: c2.id }, { key }));
  const p3 = await created(api.post('/v1/projects', { name: 'Internal' }, { key }));
  const t1 = await created(api.post('/v1/tasks', { projectId: p1.id, name: 'Build' }, { key }));
  const t2 = await created(api.post('/v1/tasks', { projectId: p2.id, name: 'Build' }, { key }));
  const tag1 = await created(api.post('/v1/tags', { name: 'red' }, { key }));
  const tag2 = await created(api.post('/v1/tags', { name: 'blue' }, { key }));
  return { c1, c2, p1, p2, p3, t1, t2, tag1, tag2 };
}

/** A key whose rate limits never get in the way of tests that make hundreds of requests. */
export const testKey = (workspaceId: string, opts: Parameters<typeof makeKey>[1] = {}) => makeKey(workspaceId, { perMinute: 1_000_000, perHour: 10_000_000, ...opts });

/** The table's data (rate-limit counters, which every request updates, left out). */
export async function snapshot(): Promise<string[]> {
  return (await tableSnapshot()).filter((s) => !s.includes('"PK":"RATE#'));
}
