import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, client, idempotency, ok, type Invoice } from '../../api/client';
import { Button, ErrorBox, Field, TableBox, useAction, useFocus } from '../../ui';
import { money } from './lines';

/** The payments recorded and what is still due (focused when a payment is added: the action's result). */
export function Payments({ inv }: { inv: Invoice }) {
  const payments = inv.payments ?? [];
  const ref = useFocus<HTMLDivElement>(payments.length > 0 ? payments.length : undefined);
  if (inv.status === 'draft' || inv.status === 'void') return null;
  return (
    <div role="region" aria-label="Payments" tabIndex={-1} ref={ref}>
      <p data-testid="amount-due">Amount due: {money(inv.amountDue ?? inv.total, inv.currency)}</p>
      {payments.length > 0 ? (
        <TableBox label="Payments" cards>
          <thead>
            <tr>
              {['Paid on', 'Amount', 'Reference'].map((t) => (
                <th key={t}>{t}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {payments.map((p) => (
              <tr key={p.id}>
                <td data-label="Paid on">{p.paidAt}</td>
                <td data-label="Amount">{money(p.amount, inv.currency)}</td>
                {/* no label on a narrow screen when there is no reference */}
                <td data-label={p.reference ? 'Reference' : undefined} class="wrap">
                  {p.reference ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      ) : null}
    </div>
  );
}

/** "Record payment": the day (today), the amount (what is due), a reference; busy while it is recorded. */
export function PayForm({ workspaceId, inv, paid }: { workspaceId: string; inv: Invoice; paid: (next: Invoice) => void }) {
  const [paidAt, setPaidAt] = useState(new Date().toISOString().slice(0, 10));
  const [amount, setAmount] = useState(String(inv.amountDue ?? inv.total));
  const [reference, setReference] = useState('');
  const paying = useAction();
  const fields = paying.error instanceof ApiFailure ? paying.error.fields : {};
  useEffect(() => setAmount(String(inv.amountDue ?? inv.total)), [inv.amountDue]);
  // a refused field takes the focus (its error is beside it); nothing was recorded
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (paying.error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [paying.error]);
  return (
    <form
      ref={form}
      class="stack"
      aria-label="Record payment"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void paying.run(async () => {
          const body = { paidAt, amount: Number(amount), ...(reference.trim() ? { reference: reference.trim() } : {}) };
          paid(
            ok(
              await client.POST('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/pay', {
                params: { path: { workspaceId, invoiceId: inv.id } },
                body,
                headers: idempotency(),
              }),
            ),
          );
          setReference('');
        });
      }}
    >
      <div class="row">
        <Field label="Paid on" error={fields.paidAt}>
          {(a) => <input {...a} type="date" value={paidAt} onInput={(e) => setPaidAt(e.currentTarget.value)} />}
        </Field>
        <Field label={`Amount (${inv.currency})`} error={fields.amount}>
          {(a) => <input {...a} type="number" min={0.01} step="0.01" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />}
        </Field>
        <Field label="Reference" error={fields.reference}>
          {(a) => <input {...a} type="text" maxLength={200} value={reference} onInput={(e) => setReference(e.currentTarget.value)} />}
        </Field>
      </div>
      <div>
        <Button type="submit" busy={paying.busy}>
          Record payment
        </Button>
      </div>
      <ErrorBox error={paying.error} />
    </form>
  );
}
