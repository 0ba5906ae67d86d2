import { useEffect, useState } from 'preact/hooks';
import { client, ok, type AuditEntry } from '../api/client';
import { go, href, route } from '../router';
import type { SectionProps } from '../section';
import { Button, ErrorBox, fmt, Field, TableBox, useAction } from '../ui';

/**
 * The audit log (owners and admins), newest first, 25 at a time: each entry with its target's name beside its
 * id and its changes as "field: before -> after" (the server's `summary`). Filters by action, actor and
 * target are part of the address (`#/audit?action=api-key.rolled&actor=...&targetId=...`).
 */
const ACTIONS = [
  'api-key.created',
  'api-key.updated',
  'api-key.rolled',
  'api-key.revoked',
  'member.added',
  'member.updated',
  'member.removed',
  'invoice.created',
  'invoice.updated',
  'invoice.sent',
  'invoice.paid',
  'invoice.voided',
  'invoice.deleted',
  'webhook.enabled',
  'webhook.disabled',
  'webhook.deleted',
  'billing-profile.updated',
];
type Filter = { action: string; actor: string; targetId: string };
const filterOf = (q: Record<string, string>): Filter => ({ action: q.action ?? '', actor: q.actor ?? '', targetId: q.targetId ?? '' });

export function AuditSection({ workspaceId }: SectionProps) {
  const applied = filterOf(route.value.query);
  const [items, setItems] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const more = useAction();
  const load = async (from: string | null) => {
    const query = { limit: 25, ...(from ? { cursor: from } : {}), ...Object.fromEntries(Object.entries(applied).filter(([, v]) => v)) };
    const page = ok(await client.GET('/console/api/workspaces/{workspaceId}/audit-log', { params: { path: { workspaceId }, query } }));
    setItems((old) => [...(from ? (old ?? []) : []), ...page.items]);
    setCursor(page.nextCursor);
    setHasMore(page.hasMore);
  };
  useEffect(() => {
    setItems(null);
    void more.run(() => load(null));
  }, [workspaceId, applied.action, applied.actor, applied.targetId]);
  const filtered = Boolean(applied.action || applied.actor || applied.targetId);
  return (
    <div>
      <Filters key={`${applied.action}|${applied.actor}|${applied.targetId}`} applied={applied} />
      {!items ? (
        more.error ? (
          <ErrorBox error={more.error} />
        ) : (
          <p role="status">Loading the audit log…</p>
        )
      ) : (
        <>
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
                  <td>
                    <a href={href('audit', null, undefined, { actor: e.actor })} title={`Only what ${e.actor} did`}>
                      {e.actor}
                    </a>
                  </td>
                  <td>{e.action}</td>
                  <td class="target">
                    {e.target.type} {e.targetName ? <strong>{e.targetName}</strong> : <span class="note">(since deleted)</span>}
                    <br />
                    <a href={href('audit', null, undefined, { targetId: e.target.id })} title="Only this target's entries">
                      <code>{e.target.id}</code>
                    </a>
                  </td>
                  <td>
                    <ul class="changes">
                      {e.summary.map((t) => (
                        <li key={t}>{t}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </TableBox>
          {items.length ? null : <p>{filtered ? 'No entry matches the filter.' : 'Nothing recorded yet.'}</p>}
          <ErrorBox error={more.error} />
          {hasMore ? (
            <Button busy={more.busy} onClick={() => void more.run(() => load(cursor))}>
              More
            </Button>
          ) : null}
        </>
      )}
    </div>
  );
}

/** The filter form: applying it changes the address (back and forward move between filters). */
function Filters({ applied }: { applied: Filter }) {
  const [f, setF] = useState<Filter>(applied);
  const set = (k: keyof Filter) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setF({ ...f, [k]: e.currentTarget.value });
  return (
    <form
      class="filters"
      aria-label="Filter the audit log"
      onSubmit={(e) => {
        e.preventDefault();
        location.hash = href('audit', null, undefined, { action: f.action, actor: f.actor.trim(), targetId: f.targetId.trim() });
      }}
    >
      <Field label="Action">
        {(a) => (
          <select {...a} value={f.action} onChange={set('action')}>
            <option value="">Any action</option>
            {ACTIONS.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Actor" hint="an e-mail or admin-cli">
        {(a) => <input {...a} value={f.actor} onInput={set('actor')} />}
      </Field>
      <Field label="Target id">{(a) => <input {...a} value={f.targetId} onInput={set('targetId')} />}</Field>
      <div class="filter-buttons">
        <button type="submit">Apply filters</button>{' '}
        <button type="button" onClick={() => go('audit')}>
          Clear
        </button>
      </div>
    </form>
  );
}
