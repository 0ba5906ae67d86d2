import { useSignal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { client, idempotency, ok, type ApiKey } from '../api/client';
import { go, href } from '../router';
import type { SectionProps } from '../section';
import { Button, CopyButton, Dialog, ErrorBox, fmt, Field, RANK, TableBox, useAction, useFocus } from '../ui';
import { KeyWebhooks } from './webhooks';
import { KeyForm, type KeyBody } from './key-form';

/**
 * API Keys: the list (filter by name and status, revoked hidden unless asked, sorted by created or last
 * used), one key at `#/keys/<id>`, create, edit, roll, revoke. Opening it reads the list once; an action
 * changes the list from its own answer (no re-read).
 */
const SOON_MS = 7 * 86_400_000;
const expiresSoon = (k: ApiKey) => k.status === 'active' && k.expiresAt !== null && Date.parse(k.expiresAt) - Date.now() < SOON_MS;
const prefixOf = (k: ApiKey) => (k.prefix ? `${k.prefix}…` : k.id);

/**
 * A rolled pair: the old key (`replacedBy` set) and the new one (`replaces` set) say so, and each has its own
 * revoke action: revoking the old one ends the grace, revoking the new one leaves only the old one.
 */
type Pair = { role: 'old'; other: ApiKey | undefined } | { role: 'new'; other: ApiKey | undefined } | null;
function pairOf(k: ApiKey, all: readonly ApiKey[]): Pair {
  if (k.replacedBy) return { role: 'old', other: all.find((o) => o.id === k.replacedBy) };
  if (k.replaces) return { role: 'new', other: all.find((o) => o.id === k.replaces) };
  return null;
}
const otherText = (id: string, other: ApiKey | undefined) => (other ? prefixOf(other) : id);
function pairText(k: ApiKey, pair: Pair): string {
  if (!pair) return '';
  if (pair.role === 'old') return `replaced by ${otherText(k.replacedBy ?? '', pair.other)}${k.status === 'revoked' ? '' : `, stops at ${fmt(k.expiresAt)}`}`;
  return `replaces ${otherText(k.replaces ?? '', pair.other)}`;
}
const revokeWord = (pair: Pair) => (pair?.role === 'old' ? 'Revoke old key' : pair?.role === 'new' ? 'Revoke new key' : 'Revoke');

type Panel = { kind: 'create' } | { kind: 'edit'; key: ApiKey } | { kind: 'roll'; key: ApiKey } | { kind: 'revoke'; key: ApiKey; pair: Pair } | null;
type Secret = { key: string; note: string } | null;

export function KeysSection({ workspaceId, role, cfg, id }: SectionProps) {
  const canWrite = RANK[role] >= RANK.admin;
  const keys = useSignal<ApiKey[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [panel, setPanel] = useState<Panel>(null);
  const [secret, setSecret] = useState<Secret>(null);
  const [name, setName] = useState('');
  const [status, setStatus] = useState<'current' | 'active' | 'expired' | 'revoked' | 'all'>('current');
  const [sort, setSort] = useState<'created' | 'lastUsed'>('created');
  const [announce, setAnnounce] = useState('');
  const secretRef = useFocus<HTMLDivElement>(secret);
  const path = { workspaceId };

  useEffect(() => {
    client
      .GET('/console/api/workspaces/{workspaceId}/api-keys', { params: { path } })
      .then((r) => (keys.value = ok(r).items))
      .catch(setLoadError);
  }, [workspaceId]);

  /** Puts a key the server answered with into the list (replacing its old version). */
  const put = (...changed: ApiKey[]) => {
    const list = keys.value ?? [];
    const ids = new Set(changed.map((k) => k.id));
    keys.value = [...changed.filter((k) => !list.some((o) => o.id === k.id)), ...list.map((o) => (ids.has(o.id) ? changed.find((k) => k.id === o.id)! : o))];
  };
  const close = () => setPanel(null);

  const cache = cfg.authorizerCacheSeconds;
  const cacheText = cache >= 60 ? `${Math.round(cache / 60)} minutes` : `${cache} seconds`;
  const all = keys.value;
  const shown = (all ?? [])
    .filter((k) => (status === 'current' ? k.status !== 'revoked' : status === 'all' ? true : k.status === status))
    .filter((k) => !name.trim() || k.name.toLowerCase().includes(name.trim().toLowerCase()))
    .sort((a, b) => (sort === 'created' ? b.createdAt.localeCompare(a.createdAt) : (b.lastUsedAt ?? '').localeCompare(a.lastUsedAt ?? '')));
  const open = id ? all?.find((k) => k.id === id) : undefined;

  return (
    <div>
      <p class="note">Changes reach the gateway within the authorizer cache time ({cacheText}): a revoked or changed key keeps its old answer that long.</p>
      {canWrite ? (
        <p>
          <button type="button" onClick={() => setPanel({ kind: 'create' })}>
            Create key
          </button>
        </p>
      ) : null}
      <p class="sr-only" role="status">
        {announce}
      </p>
      {secret ? (
        <div class="newkey" role="region" aria-label="New key" tabIndex={-1} ref={secretRef}>
          <p>{secret.note}</p>
          <code>{secret.key}</code> <CopyButton text={secret.key} />{' '}
          <button type="button" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      ) : null}
      <ErrorBox error={loadError} />
      {id && all ? (
        open ? (
          <KeyDetail k={open} pair={pairOf(open, all)} canWrite={canWrite} act={setPanel} />
        ) : (
          <ErrorBox error={new Error('No such key in this workspace')} />
        )
      ) : null}
      {all ? (
        <>
          <div class="filters">
            <Field label="Search keys" hint="by name">
              {(a) => <input {...a} type="search" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
            </Field>
            <Field label="Status">
              {(a) => (
                <select {...a} value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
                  <option value="current">Active and expired</option>
                  <option value="active">Active</option>
                  <option value="expired">Expired</option>
                  <option value="revoked">Revoked</option>
                  <option value="all">All, revoked too</option>
                </select>
              )}
            </Field>
            <Field label="Sort by">
              {(a) => (
                <select {...a} value={sort} onChange={(e) => setSort(e.currentTarget.value as typeof sort)}>
                  <option value="created">Created, newest first</option>
                  <option value="lastUsed">Last used, most recent first</option>
                </select>
              )}
            </Field>
          </div>
          {shown.length ? (
            <TableBox label="API keys">
              <thead>
                <tr>
                  {['Name', 'Prefix', 'Scopes', 'Limits', 'Created', 'Expires', 'Last used', 'Status'].map((t) => (
                    <th key={t}>{t}</th>
                  ))}
                  {canWrite ? <th>Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {shown.map((k) => (
                  <tr key={k.id} data-key-id={k.id}>
                    <td>
                      <a href={href('keys', k.id)}>{k.name}</a>
                      {k.replacedBy || k.replaces ? <span class="pair">{pairText(k, pairOf(k, all ?? []))}</span> : null}
                    </td>
                    <td>
                      <code>{k.prefix ?? '—'}</code>
                    </td>
                    <td class="scopes">{k.scopes.join(', ')}</td>
                    <td>
                      {k.perMinute}/min, {k.perHour}/hour
                    </td>
                    <td>
                      {fmt(k.createdAt)}
                      <br />
                      <span class="note">{k.createdBy ?? ''}</span>
                    </td>
                    <td>
                      {fmt(k.expiresAt)}
                      {expiresSoon(k) ? <span class="soon"> (expires within 7 days)</span> : null}
                    </td>
                    <td>{fmt(k.lastUsedAt)}</td>
                    <td class={`status-${k.status}`}>{k.status}</td>
                    {canWrite ? <td class="actions">{k.status !== 'revoked' ? <KeyActions k={k} pair={pairOf(k, all ?? [])} act={setPanel} /> : null}</td> : null}
                  </tr>
                ))}
              </tbody>
            </TableBox>
          ) : (
            <p>{all.length ? 'No key matches the filter.' : 'No keys yet.'}</p>
          )}
          {status === 'current' && all.some((k) => k.status === 'revoked') ? (
            <p class="note">{all.filter((k) => k.status === 'revoked').length} revoked keys hidden (Status: All, revoked too, shows them).</p>
          ) : null}
        </>
      ) : loadError ? null : (
        <p role="status">Loading keys…</p>
      )}

      {panel?.kind === 'create' ? (
        <Dialog title="Create key" onClose={close}>
          <KeyForm
            scopes={cfg.scopes}
            submit="Create"
            onCancel={close}
            onSave={async (body) => {
              const made = ok(
                await client.POST('/console/api/workspaces/{workspaceId}/api-keys', {
                  params: { path },
                  body: { name: body.name ?? '', scopes: body.scopes ?? [], ...withoutNameScopes(body) },
                  headers: idempotency(),
                }),
              );
              put(made.apiKey);
              close();
              // a replayed answer (this submission's Idempotency-Key seen before) carries no secret: it was shown once
              if (made.key === null) setAnnounce(`Key "${made.apiKey.name}" was already created by this submission; its secret cannot be shown again.`);
              else setSecret({ key: made.key, note: `Key "${made.apiKey.name}" created. Copy it now: it is shown only once.` });
            }}
          />
        </Dialog>
      ) : null}
      {panel?.kind === 'edit' ? (
        <Dialog title={`Edit ${panel.key.name}`} onClose={close}>
          <KeyForm
            scopes={cfg.scopes}
            workspaceId={workspaceId}
            current={panel.key}
            submit="Save"
            onCancel={close}
            onSave={async (body) => {
              const saved = ok(await client.PATCH('/console/api/workspaces/{workspaceId}/api-keys/{keyId}', { params: { path: { workspaceId, keyId: panel.key.id } }, body }));
              put(saved);
              close();
              setAnnounce(`Saved ${saved.name}.`);
              focusRow(saved.id);
            }}
          />
        </Dialog>
      ) : null}
      {panel?.kind === 'roll' ? (
        <RollDialog
          k={panel.key}
          onClose={close}
          roll={async (expireOldInSeconds) => {
            const rolled = ok(
              await client.POST('/console/api/workspaces/{workspaceId}/api-keys/{keyId}/roll', {
                params: { path: { workspaceId, keyId: panel.key.id } },
                body: { expireOldInSeconds },
                headers: idempotency(),
              }),
            );
            put(rolled.apiKey, rolled.previous);
            close();
            const note = `Key "${rolled.apiKey.name}" rolled: the old one (${prefixOf(rolled.previous)}) stops at ${fmt(rolled.previous.expiresAt)}.`;
            if (rolled.key === null) setAnnounce(`${note} Its new secret was shown to this submission's first answer and cannot be shown again.`);
            else setSecret({ key: rolled.key, note: `${note} Copy the new key now: it is shown only once.` });
          }}
        />
      ) : null}
      {panel?.kind === 'revoke' ? (
        <RevokeDialog
          k={panel.key}
          pair={panel.pair}
          workspaceId={workspaceId}
          onClose={close}
          revoke={async () => {
            const revoked = ok(await client.DELETE('/console/api/workspaces/{workspaceId}/api-keys/{keyId}', { params: { path: { workspaceId, keyId: panel.key.id } } }));
            put(revoked);
            close();
            setAnnounce(`Revoked ${revoked.name} (${prefixOf(revoked)}).`);
            // The other key of a pair may change too (its replacedBy / replaces): re-read only that one. The revoke
            // is done and shown; a failed re-read leaves the other row as it was (the next visit reads it).
            const other = revoked.replacedBy ?? revoked.replaces;
            if (other)
              await client
                .GET('/console/api/workspaces/{workspaceId}/api-keys/{keyId}', { params: { path: { workspaceId, keyId: other } } })
                .then((r) => put(ok(r)))
                .catch(() => undefined);
            if (status === 'current') setStatus('all');
            focusRow(revoked.id);
          }}
        />
      ) : null}
    </div>
  );
}

function focusRow(keyId: string) {
  setTimeout(() => document.querySelector<HTMLElement>(`tr[data-key-id="${CSS.escape(keyId)}"] a`)?.focus(), 0);
}

const withoutNameScopes = ({ name: _n, scopes: _s, expiresAt, ...rest }: KeyBody) => ({ ...rest, ...(expiresAt ? { expiresAt } : {}) });

function KeyActions({ k, pair, act }: { k: ApiKey; pair: Pair; act: (p: Panel) => void }) {
  const label = `${k.name} (${prefixOf(k)})`;
  const revoke = revokeWord(pair);
  return (
    <>
      <button type="button" aria-label={`Edit ${label}`} onClick={() => act({ kind: 'edit', key: k })}>
        Edit
      </button>{' '}
      {k.status === 'active' && !(pair?.role === 'old' && pair.other?.status === 'active') ? (
        <>
          <button type="button" aria-label={`Roll ${label}`} onClick={() => act({ kind: 'roll', key: k })}>
            Roll
          </button>{' '}
        </>
      ) : null}
      <button type="button" class={pair ? 'danger' : undefined} aria-label={`${revoke} ${label}`} onClick={() => act({ kind: 'revoke', key: k, pair })}>
        {revoke}
      </button>
    </>
  );
}

function KeyDetail({ k, pair, canWrite, act }: { k: ApiKey; pair: Pair; canWrite: boolean; act: (p: Panel) => void }) {
  const ref = useFocus<HTMLDivElement>(k.id);
  return (
    <div class="detail" role="region" aria-label={`Key ${k.name}`} tabIndex={-1} ref={ref}>
      <h3>
        {k.name} <code>{k.prefix ?? ''}</code>
      </h3>
      <dl>
        <dt>Status</dt>
        <dd class={`status-${k.status}`}>{k.status}</dd>
        {pair ? (
          <>
            <dt>Roll</dt>
            <dd>
              {pairText(k, pair)} {pair.other ? <a href={href('keys', pair.other.id)}>{pair.role === 'old' ? 'Open the new key' : 'Open the old key'}</a> : null}
            </dd>
          </>
        ) : null}
        <dt>Scopes</dt>
        <dd>{k.scopes.join(', ')}</dd>
        <dt>Limits</dt>
        <dd>
          {k.perMinute} a minute, {k.perHour} an hour
        </dd>
        <dt>Expires</dt>
        <dd>{k.expiresAt ? fmt(k.expiresAt) : 'Never'}</dd>
        <dt>Created</dt>
        <dd>
          {fmt(k.createdAt)} {k.createdBy ? `by ${k.createdBy}` : ''}
        </dd>
        <dt>Last used</dt>
        <dd>{fmt(k.lastUsedAt)}</dd>
        {k.revokedAt ? (
          <>
            <dt>Revoked</dt>
            <dd>{fmt(k.revokedAt)}</dd>
          </>
        ) : null}
      </dl>
      <p>
        <a href={href('usage', k.id)}>Usage of this key</a>
        {canWrite && k.status !== 'revoked' ? (
          <>
            {' '}
            <KeyActions k={k} pair={pair} act={act} />
          </>
        ) : null}{' '}
        <button type="button" onClick={() => go('keys')}>
          Close
        </button>
      </p>
    </div>
  );
}

function RollDialog({ k, onClose, roll }: { k: ApiKey; onClose: () => void; roll: (seconds: number) => Promise<void> }) {
  const [grace, setGrace] = useState('86400');
  const action = useAction();
  return (
    <Dialog title={`Roll ${k.name} (${prefixOf(k)})`} onClose={onClose}>
      <p>A new key with the same name, scopes, limits and expiry; the old one ({prefixOf(k)}) keeps working for the time you pick, never past its own expiry.</p>
      <Field label="Old key keeps working">
        {(a) => (
          <select {...a} value={grace} onChange={(e) => setGrace(e.currentTarget.value)}>
            <option value="0">Stops now</option>
            <option value="3600">1 hour</option>
            <option value="86400">24 hours</option>
            <option value="604800">7 days</option>
          </select>
        )}
      </Field>
      <ErrorBox error={action.error} />
      <p>
        <Button busy={action.busy} onClick={() => void action.run(() => roll(Number(grace)))}>
          Roll key
        </Button>{' '}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </p>
    </Dialog>
  );
}

function RevokeDialog({ k, pair, workspaceId, onClose, revoke }: { k: ApiKey; pair: Pair; workspaceId: string; onClose: () => void; revoke: () => Promise<void> }) {
  const action = useAction();
  const what = pair?.role === 'old' ? 'the old key' : pair?.role === 'new' ? 'the new key' : 'the key';
  return (
    <Dialog title={`${revokeWord(pair)} ${k.name} (${prefixOf(k)})?`} onClose={onClose}>
      <p>
        Integrations using {what} <code>{prefixOf(k)}</code> will be refused.
      </p>
      {pair?.role === 'old' ? (
        <p>
          Its successor {otherText(k.replacedBy ?? '', pair.other)} keeps working. Without this, {prefixOf(k)} stops by itself at {fmt(k.expiresAt)}.
        </p>
      ) : pair?.role === 'new' && pair.other?.status === 'active' ? (
        <p>
          This is the new key of a roll. The old key {prefixOf(pair.other)} keeps working only until {fmt(pair.other.expiresAt)}: revoking {prefixOf(k)} leaves integrations with no
          key after that.
        </p>
      ) : null}
      <KeyWebhooks workspaceId={workspaceId} keyId={k.id} why="These webhooks, made by this key, stop delivering when it is revoked:" />
      <ErrorBox error={action.error} />
      <p>
        <Button busy={action.busy} class="danger" onClick={() => void action.run(revoke)}>
          Confirm revoke of {prefixOf(k)}
        </Button>{' '}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </p>
    </Dialog>
  );
}
