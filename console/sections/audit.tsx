import { useEffect, useState } from 'preact/hooks';
import { client, ok, type AuditEntry } from '../api/client';
import type { SectionProps } from '../section';
import { Button, ErrorBox, fmt, TableBox, useAction } from '../ui';

/** The audit log (owners and admins), newest first, 25 at a time; each change as "field: before -> after". */
const show = (v: unknown): string =>
  v === undefined ? '' : v === null ? 'none' : typeof v === 'string' ? v : Array.isArray(v) ? v.map(show).join(', ') || '(none)' : JSON.stringify(v);
export const changeText = (changes: AuditEntry['changes']) =>
  Object.entries(changes).map(([field, c]) => `${field}: ${c.from === undefined ? '' : `${show(c.from)} -> `}${c.to === undefined ? '(removed)' : show(c.to)}`);

export function AuditSection({ workspaceId }: SectionProps) {
  const [items, setItems] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const more = useAction();
  const load = async (from: string | null) => {
    const page = ok(
      await client.GET('/console/api/workspaces/{workspaceId}/audit-log', { params: { path: { workspaceId }, query: { limit: 25, ...(from ? { cursor: from } : {}) } } }),
    );
    setItems((old) => [...(from ? (old ?? []) : []), ...page.items]);
    setCursor(page.nextCursor);
    setHasMore(page.hasMore);
  };
  useEffect(() => void more.run(() => load(null)), [workspaceId]);
  if (!items) return more.error ? <ErrorBox error={more.error} /> : <p role="status">Loading the audit log…</p>;
  return (
    <div>
      <TableBox label="Audit log">
        <thead>
          <tr>
            {['When', 'Who', 'Action', 'Target', 'Changes'].map((t) => (
              <th key={t}>{t}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((e) => (
            <tr key={e.id}>
              <td>{fmt(e.at)}</td>
              <td>{e.actor}</td>
              <td>{e.action}</td>
              <td>
                {e.target.type} <code>{e.target.id}</code>
              </td>
              <td>
                <ul class="changes">
                  {changeText(e.changes).map((t) => (
                    <li key={t}>{t}</li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {items.length ? null : <p>Nothing recorded yet.</p>}
      <ErrorBox error={more.error} />
      {hasMore ? (
        <Button busy={more.busy} onClick={() => void more.run(() => load(cursor))}>
          More
        </Button>
      ) : null}
    </div>
  );
}
