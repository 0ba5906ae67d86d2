import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, client, idempotency, ok, type Schemas } from '../api/client';
import type { SectionProps } from '../section';
import { Button, ErrorBox, fmt, Field, useAction, useFocus } from '../ui';

/**
 * Settings (`#/settings`): the workspace's billing profile, the invoices' sender ("From") and a new invoice's
 * defaults. Owners edit it (one form, Save sends the whole profile with an Idempotency-Key; the result is
 * announced and focused); admins and viewers read it.
 */
type Profile = Schemas['ConsoleBillingProfile'];
type Form = Record<(typeof TEXTS)[number]['key'] | 'defaultTaxRate' | 'paymentTermsDays' | 'invoiceFooter', string>;

const TEXTS = [
  { key: 'displayName', label: 'Display name', hint: 'The sender the invoices show ("From"); required' },
  { key: 'address', label: 'Address', hint: 'Up to 6 lines', multi: true },
  { key: 'taxId', label: 'Tax ID' },
  { key: 'email', label: 'Billing e-mail' },
  { key: 'defaultCurrency', label: 'Default currency', hint: 'ISO code such as EUR: used when neither the project nor the client sets one' },
] as const;

const formOf = (p: Profile): Form => ({
  displayName: p.displayName ?? '',
  address: p.address ?? '',
  taxId: p.taxId ?? '',
  email: p.email ?? '',
  defaultCurrency: p.defaultCurrency ?? '',
  defaultTaxRate: p.defaultTaxRate === null ? '' : String(p.defaultTaxRate),
  paymentTermsDays: p.paymentTermsDays === null ? '' : String(p.paymentTermsDays),
  invoiceFooter: p.invoiceFooter ?? '',
});

/** The form as the PUT body: an empty field is not set (null); numbers as typed (the server names a bad one). */
const bodyOf = (f: Form) => {
  const text = (v: string) => (v.trim() === '' ? null : v);
  const num = (v: string) => (v.trim() === '' ? null : Number(v));
  return {
    displayName: f.displayName,
    address: text(f.address),
    taxId: text(f.taxId),
    email: text(f.email),
    defaultCurrency: text(f.defaultCurrency.trim().toUpperCase()),
    defaultTaxRate: num(f.defaultTaxRate),
    paymentTermsDays: num(f.paymentTermsDays),
    invoiceFooter: text(f.invoiceFooter),
  };
};

export function SettingsSection({ workspaceId, role }: SectionProps) {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    client
      .GET('/console/api/workspaces/{workspaceId}/billing-profile', { params: { path: { workspaceId } } })
      .then((r) => setProfile(ok(r)))
      .catch(setError);
  }, [workspaceId]);
  if (error) return <ErrorBox error={error} />;
  if (!profile) return <p role="status">Loading the billing profile…</p>;
  return (
    <div>
      <h3>Billing profile</h3>
      <p class="note">
        Invoices show it as their sender. A sent invoice keeps the profile it was sent with; drafts and new invoices use the current one. New invoices take their tax rate, payment
        terms and notes from here unless they are given.
      </p>
      {role === 'owner' ? <ProfileForm workspaceId={workspaceId} profile={profile} saved={setProfile} /> : <ProfileView profile={profile} />}
    </div>
  );
}

function ProfileView({ profile }: { profile: Profile }) {
  const rows: Array<[string, string | null]> = [
    ['Display name', profile.displayName],
    ['Address', profile.address],
    ['Tax ID', profile.taxId],
    ['Billing e-mail', profile.email],
    ['Default currency', profile.defaultCurrency],
    ['Default tax rate', profile.defaultTaxRate === null ? null : `${profile.defaultTaxRate} %`],
    ['Payment terms', profile.paymentTermsDays === null ? null : `${profile.paymentTermsDays} days`],
    ['Invoice footer', profile.invoiceFooter],
  ];
  return (
    <>
      <p class="note">Only owners can change it.</p>
      <dl class="profile" aria-label="Billing profile">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value ?? 'not set'}</dd>
          </div>
        ))}
      </dl>
      <p class="note">
        {profile.updatedAt ? `Last changed ${fmt(profile.updatedAt)} by ${profile.updatedBy ?? '—'}.` : 'Not set yet: invoices show the workspace id as their sender.'}
      </p>
    </>
  );
}

function ProfileForm({ workspaceId, profile, saved }: { workspaceId: string; profile: Profile; saved: (p: Profile) => void }) {
  const [form, setForm] = useState<Form>(() => formOf(profile));
  const [result, setResult] = useState('');
  const resultRef = useFocus<HTMLParagraphElement>(result);
  const action = useAction();
  const fields = action.error instanceof ApiFailure ? action.error.fields : {};
  const set = (key: keyof Form) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setForm((f) => ({ ...f, [key]: value }));
  };
  return (
    <form
      class="stack"
      aria-label="Billing profile"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setResult('');
        void action.run(async () => {
          const next = ok(
            await client.PUT('/console/api/workspaces/{workspaceId}/billing-profile', { params: { path: { workspaceId } }, body: bodyOf(form), headers: idempotency() }),
          );
          saved(next);
          setForm(formOf(next));
          setResult(`Billing profile saved at ${fmt(next.updatedAt)}.`);
        });
      }}
    >
      {TEXTS.map((t) => (
        <Field key={t.key} label={t.label} error={fields[t.key]} {...('hint' in t ? { hint: t.hint } : {})}>
          {(a) =>
            'multi' in t ? (
              <textarea {...a} rows={4} value={form[t.key]} onInput={set(t.key)} />
            ) : t.key === 'email' ? (
              <input {...a} type="email" value={form[t.key]} onInput={set(t.key)} />
            ) : (
              <input {...a} type="text" value={form[t.key]} onInput={set(t.key)} />
            )
          }
        </Field>
      ))}
      <div class="row">
        <Field label="Default tax rate (%)" error={fields.defaultTaxRate}>
          {(a) => <input {...a} type="text" inputMode="decimal" value={form.defaultTaxRate} onInput={set('defaultTaxRate')} />}
        </Field>
        <Field label="Payment terms (days)" error={fields.paymentTermsDays} hint="Due date = issue date + these days (30 when empty)">
          {(a) => <input {...a} type="text" inputMode="numeric" value={form.paymentTermsDays} onInput={set('paymentTermsDays')} />}
        </Field>
      </div>
      <Field label="Invoice footer" error={fields.invoiceFooter} hint="A new invoice's notes unless it is given others">
        {(a) => <textarea {...a} rows={3} value={form.invoiceFooter} onInput={set('invoiceFooter')} />}
      </Field>
      <ErrorBox error={action.error} />
      <div>
        <Button type="submit" busy={action.busy}>
          Save billing profile
        </Button>
      </div>
      <p class="result" role="status" tabIndex={-1} ref={resultRef}>
        {result}
      </p>
    </form>
  );
}
