import { useState } from 'preact/hooks';
import { ApiFailure, type ApiKey, type Scope } from '../api/client';
import { Button, ErrorBox, fmt, Field, useAction } from '../ui';
import { ScopeGrid } from './scope-grid';
import { KeyWebhooks } from './webhooks';

/**
 * The API-key form of the Keys section (console/sections/keys.tsx): create and edit, with the scopes, the
 * limits and the expiry; what it sends is a KeyBody.
 */

/** What the key form sends: on an edit, only the fields the person changed. */
export type KeyBody = { name?: string; scopes?: Scope[]; perMinute?: number; perHour?: number; expiresAt?: string | null };

/** How the form's expiry starts: the key's own (unchanged unless picked), never, or in N days. */
const EXPIRY_CHOICES = [
  ['30', '30 days from now'],
  ['90', '90 days from now'],
  ['365', '365 days from now'],
  ['date', 'On a date'],
  ['never', 'Never'],
] as const;

/**
 * Create and edit: starts from the key's current values (name, scopes, limits, expiry) and, for an edit,
 * sends only the fields the person changed; the server's field errors show at their fields.
 */
export function KeyForm({
  scopes,
  workspaceId,
  current,
  submit,
  onSave,
  onCancel,
}: {
  scopes: string[];
  workspaceId?: string;
  current?: ApiKey;
  submit: string;
  onSave: (body: KeyBody) => Promise<void>;
  onCancel: () => void;
}) {
  const known = (s: string): s is Scope => scopes.includes(s);
  const initial = {
    name: current?.name ?? '',
    scopes: current?.scopes ?? [],
    perMinute: String(current?.perMinute ?? 60),
    perHour: String(current?.perHour ?? 1000),
    expiry: current ? (current.expiresAt ? 'keep' : 'never') : 'never',
  };
  const [name, setName] = useState(initial.name);
  const [chosen, setChosen] = useState<Scope[]>(initial.scopes);
  const [perMinute, setPerMinute] = useState(initial.perMinute);
  const [perHour, setPerHour] = useState(initial.perHour);
  const [expiry, setExpiry] = useState<string>(initial.expiry);
  const [date, setDate] = useState('');
  const action = useAction();
  const fields = action.error instanceof ApiFailure ? action.error.fields : {};
  const sameScopes = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s) => b.includes(s));

  const body = (): KeyBody => {
    const out: KeyBody = {};
    if (!current || name !== initial.name) out.name = name;
    if (!current || !sameScopes(chosen, initial.scopes)) out.scopes = chosen.filter(known);
    if (!current || perMinute !== initial.perMinute) out.perMinute = Number(perMinute);
    if (!current || perHour !== initial.perHour) out.perHour = Number(perHour);
    if (expiry !== initial.expiry || (expiry === 'date' && date)) {
      if (expiry === 'never') out.expiresAt = null;
      else if (expiry === 'date') out.expiresAt = date ? new Date(`${date}T23:59:59Z`).toISOString() : '';
      else if (expiry !== 'keep') out.expiresAt = new Date(Date.now() + Number(expiry) * 86_400_000).toISOString();
    }
    return out;
  };
  return (
    <form
      class="stack"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(() => onSave(body()));
      }}
    >
      <Field label="Name" error={fields.name}>
        {(a) => <input {...a} name="name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <ScopeGrid scopes={scopes} value={chosen} onChange={setChosen} error={fields.scopes} />
      {current && workspaceId && initial.scopes.some((s) => !chosen.includes(s)) ? (
        <KeyWebhooks
          workspaceId={workspaceId}
          keyId={current.id}
          why="Narrowing its scopes: these webhooks, made by this key, stop delivering events of what it can no longer read:"
        />
      ) : null}
      <div class="row">
        <Field label="Per minute" error={fields.perMinute}>
          {(a) => <input {...a} type="number" min={1} value={perMinute} onInput={(e) => setPerMinute(e.currentTarget.value)} />}
        </Field>
        <Field label="Per hour" error={fields.perHour}>
          {(a) => <input {...a} type="number" min={1} value={perHour} onInput={(e) => setPerHour(e.currentTarget.value)} />}
        </Field>
      </div>
      <Field label="Expires" error={fields.expiresAt}>
        {(a) => (
          <select {...a} value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
            {current?.expiresAt ? <option value="keep">Unchanged: {fmt(current.expiresAt)}</option> : null}
            {EXPIRY_CHOICES.map(([v, t]) => (
              <option key={v} value={v}>
                {t}
              </option>
            ))}
          </select>
        )}
      </Field>
      {expiry === 'date' ? <Field label="Expiry date">{(a) => <input {...a} type="date" value={date} onInput={(e) => setDate(e.currentTarget.value)} />}</Field> : null}
      <ErrorBox error={action.error} />
      <div>
        <Button type="submit" busy={action.busy}>
          {submit}
        </Button>{' '}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
