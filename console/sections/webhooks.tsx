import { useEffect, useState } from 'preact/hooks';
import { client, ok, type Schemas } from '../api/client';
import { go, href } from '../router';
import type { SectionProps } from '../section';
import { Button, Dialog, ErrorBox, fmt, RANK, TableBox, useAction, useFocus } from '../ui';

/**
 * Webhooks: the workspace's webhooks (`#/webhooks`), with the key that made each and its last delivery; one
 * webhook's recent delivery attempts at `#/webhooks/<id>`. Owners and admins disable, enable and delete (delete
 * asks first); viewers read. An action changes the list from its own answer (no re-read).
 */
export type Webhook = Schemas['ConsoleWebhook'];
type Attempt = Schemas['WebhookAttempt'];

const keyText = (w: Webhook) => (w.key ? `${w.key.name} (${w.key.prefix ? `${w.key.prefix}…` : w.key.id})` : '—');
const lastText = (w: Webhook) => (w.lastDelivery ? `${w.lastDelivery.statusCode ?? w.lastDelivery.error ?? 'no answer'} at ${fmt(w.lastDelivery.at)}` : 'none yet');
const stateText = (w: Webhook) => (w.enabled ? 'enabled' : `disabled${w.disabledReason ? `: ${w.disabledReason}` : ''}`);

export function WebhooksSection({ workspaceId, role, id }: SectionProps) {
  const canWrite = RANK[role] >= RANK.admin;
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [announce, setAnnounce] = useState('');
  const announceRef = useFocus<HTMLParagraphElement>(announce);
  useEffect(() => {
    client
      .GET('/console/api/workspaces/{workspaceId}/webhooks', { params: { path: { workspaceId } } })
      .then((r) => setHooks(ok(r).items))
      .catch(setError);
  }, [workspaceId]);
  const put = (w: Webhook) => setHooks((list) => (list ?? []).map((o) => (o.id === w.id ? w : o)));
  const toggle = async (w: Webhook) => {
    const saved = ok(
      await client.PATCH('/console/api/workspaces/{workspaceId}/webhooks/{webhookId}', { params: { path: { workspaceId, webhookId: w.id } }, body: { enabled: !w.enabled } }),
    );
    put(saved);
    setAnnounce(`${saved.url} is ${saved.enabled ? 'enabled' : 'disabled'}.`);
  };

  if (error) return <ErrorBox error={error} />;
  if (!hooks) return <p role="status">Loading webhooks…</p>;
  const open = id ? hooks.find((w) => w.id === id) : undefined;
  return (
    <div>
      <p class="note">Integrations make webhooks with an API key (POST /v1/webhooks); a webhook delivers only events its key may read.</p>
      <p class="result" role="status" tabIndex={-1} ref={announceRef}>
        {announce}
      </p>
      {id ? open ? <WebhookDetail workspaceId={workspaceId} w={open} /> : <ErrorBox error={new Error('No such webhook in this workspace')} /> : null}
      {hooks.length ? (
        <TableBox label="Webhooks">
          <thead>
            <tr>
              {['URL', 'Events', 'State', 'Made by key', 'Last delivery'].map((t) => (
                <th key={t}>{t}</th>
              ))}
              {canWrite ? <th>Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {hooks.map((w) => (
              <tr key={w.id} data-webhook-id={w.id}>
                <td class="url">
                  <a href={href('webhooks', w.id)}>{w.url}</a>
                  {w.description ? <span class="note"> {w.description}</span> : null}
                </td>
                <td class="scopes">{w.events.join(', ')}</td>
                <td class={w.enabled ? 'status-active' : 'status-revoked'}>{stateText(w)}</td>
                <td>{w.key ? <a href={href('keys', w.key.id)}>{keyText(w)}</a> : '—'}</td>
                <td>{lastText(w)}</td>
                {canWrite ? (
                  <td class="actions">
                    <Toggle w={w} toggle={toggle} />{' '}
                    <button type="button" class="danger" aria-label={`Delete webhook ${w.url}`} onClick={() => setDeleting(w)}>
                      Delete
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </TableBox>
      ) : (
        <p>No webhooks yet.</p>
      )}
      {deleting ? (
        <DeleteDialog
          w={deleting}
          onClose={() => setDeleting(null)}
          remove={async () => {
            ok(await client.DELETE('/console/api/workspaces/{workspaceId}/webhooks/{webhookId}', { params: { path: { workspaceId, webhookId: deleting.id } } }));
            setHooks((list) => (list ?? []).filter((o) => o.id !== deleting.id));
            setDeleting(null);
            setAnnounce(`Deleted the webhook to ${deleting.url}.`);
            if (id === deleting.id) go('webhooks');
          }}
        />
      ) : null}
    </div>
  );
}

function Toggle({ w, toggle }: { w: Webhook; toggle: (w: Webhook) => Promise<void> }) {
  const action = useAction();
  const word = w.enabled ? 'Disable' : 'Enable';
  return (
    <>
      <Button busy={action.busy} aria-label={`${word} webhook ${w.url}`} onClick={() => void action.run(() => toggle(w))}>
        {word}
      </Button>
      <ErrorBox error={action.error} />
    </>
  );
}

/** One webhook and its recent delivery attempts, newest first, 25 at a time. */
function WebhookDetail({ workspaceId, w }: { workspaceId: string; w: Webhook }) {
  const ref = useFocus<HTMLDivElement>(w.id);
  const [attempts, setAttempts] = useState<Attempt[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const more = useAction();
  const load = async (from: string | null) => {
    const page = ok(
      await client.GET('/console/api/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries', {
        params: { path: { workspaceId, webhookId: w.id }, query: { limit: 25, ...(from ? { cursor: from } : {}) } },
      }),
    );
    setAttempts((old) => [...(from ? (old ?? []) : []), ...page.items]);
    setCursor(page.nextCursor);
    setHasMore(page.hasMore);
  };
  useEffect(() => {
    setAttempts(null);
    void more.run(() => load(null));
  }, [w.id]);
  return (
    <div class="detail" role="region" aria-label={`Webhook ${w.url}`} tabIndex={-1} ref={ref}>
      <h3 class="url">{w.url}</h3>
      <dl>
        <dt>Events</dt>
        <dd>{w.events.join(', ')}</dd>
        <dt>State</dt>
        <dd>{stateText(w)}</dd>
        <dt>Made by key</dt>
        <dd>{keyText(w)}</dd>
        <dt>Created</dt>
        <dd>{fmt(w.createdAt)}</dd>
      </dl>
      <h4>Recent delivery attempts</h4>
      {attempts === null ? (
        more.error ? null : (
          <p role="status">Loading attempts…</p>
        )
      ) : attempts.length ? (
        <TableBox label="Delivery attempts">
          <thead>
            <tr>
              {['When', 'Event', 'Attempt', 'Answer', 'Took', 'Next retry'].map((t) => (
                <th key={t}>{t}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {attempts.map((a) => (
              <tr key={`${a.eventId}/${a.attempt}`}>
                <td>{fmt(a.at)}</td>
                <td>
                  {a.type} <code>{a.eventId}</code>
                </td>
                <td>{a.attempt}</td>
                <td>{a.statusCode ?? a.error ?? '—'}</td>
                <td>{a.durationMs} ms</td>
                <td>{fmt(a.nextRetryAt)}</td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      ) : (
        <p>No delivery attempts in the last 31 days.</p>
      )}
      <ErrorBox error={more.error} />
      <p>
        {hasMore ? (
          <>
            <Button busy={more.busy} onClick={() => void more.run(() => load(cursor))}>
              More attempts
            </Button>{' '}
          </>
        ) : null}
        <button type="button" onClick={() => go('webhooks')}>
          Close
        </button>
      </p>
    </div>
  );
}

function DeleteDialog({ w, onClose, remove }: { w: Webhook; onClose: () => void; remove: () => Promise<void> }) {
  const action = useAction();
  return (
    <Dialog title={`Delete the webhook to ${w.url}?`} onClose={onClose}>
      <p>Nothing more is sent to {w.url}. This cannot be undone: an integration makes a new webhook with its key.</p>
      <ErrorBox error={action.error} />
      <p>
        <Button busy={action.busy} class="danger" onClick={() => void action.run(remove)}>
          Confirm delete
        </Button>{' '}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </p>
    </Dialog>
  );
}

/**
 * In a key's revoke or narrowing confirmation: the webhooks that key made (the list filtered by key id), which
 * stop delivering or deliver less.
 */
export function KeyWebhooks({ workspaceId, keyId, why }: { workspaceId: string; keyId: string; why: string }) {
  const [made, setMade] = useState<Webhook[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    client
      .GET('/console/api/workspaces/{workspaceId}/webhooks', { params: { path: { workspaceId } } })
      .then((r) => setMade(ok(r).items.filter((w) => w.key?.id === keyId)))
      .catch(setError);
  }, [workspaceId, keyId]);
  if (error) return <ErrorBox error={error} />;
  if (!made) return <p class="note">Looking for webhooks this key made…</p>;
  if (!made.length) return <p class="note">This key made no webhooks.</p>;
  return (
    <div class="key-webhooks">
      <p>{why}</p>
      <ul>
        {made.map((w) => (
          <li key={w.id} class="url">
            {w.url} ({w.events.join(', ')})
          </li>
        ))}
      </ul>
    </div>
  );
}
