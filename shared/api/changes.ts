import { CHANGE_RETENTION_DAYS, CHANGE_RETENTION_MS, changeTypeFilter, entityOfChange, type ChangeEvent } from '../domain/changes';
import { cursorExpired, invalidField } from '../domain/errors';
import { changesNow, positionAt, readChanges } from '../data/changes';
import { decodeCursor, encodeCursor, type CursorBinding } from '../data/cursor';
import { pageMaxBytes } from '../data/paging';
import type { AuthContext } from './auth';

/**
 * GET /v1/changes: the change feed of the caller's workspace (shared/data/changes.ts keeps it). The
 * cursor is signed, encrypted and bound to the workspace like every page cursor (shared/data/cursor.ts);
 * it holds the feed position to resume after and when it was issued. 410 CURSOR_EXPIRED when the cursor
 * (or since) is older than the retention, or when a poller fell so far behind that events after its
 * position expired unseen (a gap older than the retention).
 */
export interface ChangesQuery {
  cursor?: string;
  limit?: number;
  since?: string;
  types?: string;
}
export interface ChangesPage {
  items: ChangeEvent[];
  nextCursor: string;
  hasMore: boolean;
}

const DEFAULT_LIMIT = 50;
/** The position to resume after, when that position was taken, and when the cursor was issued (ms). */
const CURSOR_FIELDS = ['position', 'positionAt', 'issuedAt'] as const;
const bindingOf = (workspaceId: string): CursorBinding => ({ workspaceId, query: { feed: 'changes' } });
const expired = (what: string) =>
  cursorExpired(`This ${what} is older than the ${CHANGE_RETENTION_DAYS} days the change feed keeps events; resynchronise from the lists, then follow the feed from a new cursor`);

/** The resources whose events a key may read: those it holds the read scope of. */
function readableBy(auth: AuthContext): (event: ChangeEvent) => boolean {
  const readable = new Set<string>(auth.scopes.filter((s) => s.endsWith(':read')).map((s) => s.slice(0, -':read'.length)));
  return (event) => readable.has(entityOfChange(event.resource)?.resource ?? '');
}

export async function listChanges(auth: AuthContext, q: ChangesQuery): Promise<ChangesPage> {
  const { workspaceId } = auth;
  if (q.cursor !== undefined && q.since !== undefined) throw invalidField('since', 'cannot be combined with cursor (the cursor already says where to resume)');
  const typeOk = changeTypeFilter(q.types);
  const now = changesNow();
  let after = 0;
  let afterAt: number | undefined;
  if (q.cursor !== undefined) {
    const k = await decodeCursor(q.cursor, bindingOf(workspaceId), CURSOR_FIELDS);
    const [position, positionAt, issuedAt] = [Number(k.position), Number(k.positionAt), Number(k.issuedAt)];
    if (![position, positionAt, issuedAt].every((n) => Number.isSafeInteger(n) && n >= 0)) throw invalidField('cursor', 'is not a valid cursor');
    if (now - issuedAt > CHANGE_RETENTION_MS) throw expired('cursor');
    after = position;
    // 0: not known (a cursor issued before any event was read)
    if (positionAt > 0) afterAt = positionAt;
  } else if (q.since !== undefined) {
    const since = Date.parse(q.since);
    if (now - since > CHANGE_RETENTION_MS) throw expired('since');
    after = await positionAt(workspaceId, since);
  }
  const readable = readableBy(auth);
  const read = await readChanges(workspaceId, {
    after,
    ...(afterAt !== undefined ? { afterAt } : {}),
    limit: q.limit ?? DEFAULT_LIMIT,
    // Under Lambda's 6 MB response limit, however large the records (shared/data/paging.ts).
    maxBytes: pageMaxBytes(),
    accept: (e) => typeOk(e.type) && readable(e),
    // After a cursor or since, a gap older than the retention may be events that expired unseen.
    ...(after > 0 ? { expired: () => expired(q.cursor !== undefined ? 'cursor' : 'since') } : {}),
  });
  const nextCursor = await encodeCursor(bindingOf(workspaceId), { position: String(read.position), positionAt: String(read.positionAt ?? 0), issuedAt: String(now) });
  return { items: read.events, nextCursor, hasMore: read.hasMore };
}
