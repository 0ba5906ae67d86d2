import type { apiClient } from '../support/harness';

type Api = ReturnType<typeof apiClient>;

export interface FeedEvent {
  id: string;
  type: string;
  resource: string;
  resourceId: string;
  occurredAt: string;
  data: Record<string, any>;
  previousSortKey?: string;
}

/**
 * Follows the feed from `cursor` (or its start) until a page says hasMore: false, as a poller does.
 * Returns the events and the cursor to resume from.
 */
export async function drain(api: Api, key: string, opts: { cursor?: string; query?: Record<string, string> } = {}): Promise<{ events: FeedEvent[]; cursor: string }> {
  const events: FeedEvent[] = [];
  let cursor = opts.cursor;
  for (;;) {
    const res = await api.get('/v1/changes', { key, query: { ...opts.query, ...(cursor ? { cursor } : {}) } });
    if (res.status !== 200) throw new Error(`GET /v1/changes: ${res.status} ${res.text}`);
    events.push(...(res.body.items as FeedEvent[]));
    cursor = res.body.nextCursor as string;
    if (!res.body.hasMore) return { events, cursor };
  }
}
