import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, client, currentToken, idempotency, ok, type Invoice, type Schemas } from '../api/client';
import { go, href } from '../router';
import type { SectionProps } from '../section';
import { Button, ErrorBox, fmt, Field, RANK, TableBox, useAction, useFocus } from '../ui';

/**
 * Invoices: the list (with the clients it names), one invoice at `#/invoices/<id>` (itself and its time
 * entries: two requests), "New invoice" (preview, create in steps), send, pay, void, delete, PDF. An action
 * puts the invoice the server answered into the list; nothing else is re-read.
 */
type Line = Invoice['lineItems'][number];
type Client = { id: string; name: string };
type Entry = Schemas['TimeEntry'];
type Preview = Schemas['ConsoleInvoicePreview'];

const money = (amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
};
/** How the page names an invoice: its number, or "Draft" (a draft has none until it is sent). */
const numberOf = (inv: { number?: string | null }) => inv.number ?? 'Draft';
/** The tax row's label with its rate: "Tax (19 %)". */
const taxLabel = (rate: number | undefined) => `Tax (${new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(rate ?? 0)} %)`;

export function InvoicesSection({ workspaceId, role, id }: SectionProps) {
  const canWrite = RANK[role] >= RANK.admin;
  const [clients, setClients] = useState<Client[]>([]);
  const [list, setList] = useState<{ items: Invoice[]; hasMore: boolean } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  const path = { workspaceId };
  useEffect(() => {
    Promise.all([
      client.GET('/console/api/workspaces/{workspaceId}/clients', { params: { path } }),
      client.GET('/console/api/workspaces/{workspaceId}/invoices', { params: { path, query: { limit: 100 } } }),
    ])
      .then(([c, i]) => {
        setClients(ok(c).items);
        const page = ok(i);
        setList({ items: page.items, hasMore: page.hasMore });
      })
      .catch(setError);
  }, [workspaceId]);
  const clientName = (cid: string) => clients.find((c) => c.id === cid)?.name ?? cid;
  const put = (inv: Invoice) => setList((l) => (l ? { ...l, items: [inv, ...l.items.filter((o) => o.id !== inv.id)].sort((a, b) => b.issueDate.localeCompare(a.issueDate)) } : l));
  const drop = (invoiceId: string) => setList((l) => (l ? { ...l, items: l.items.filter((o) => o.id !== invoiceId) } : l));

  return (
    <div>
      {canWrite ? (
        <p>
          <button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
            New invoice
          </button>
        </p>
      ) : null}
      {creating ? (
        <InvoiceForm
          workspaceId={workspaceId}
          clients={clients}
          made={(inv) => {
            put(inv);
            setCreating(false);
            go('invoices', inv.id);
          }}
        />
      ) : null}
      {id ? <InvoiceDetail key={id} workspaceId={workspaceId} invoiceId={id} canWrite={canWrite} clientName={clientName} changed={put} deleted={drop} /> : null}
      <h3 id="invoice-list-heading">Invoice list</h3>
      <ErrorBox error={error} />
      {list ? (
        list.items.length ? (
          <TableBox label="Invoices">
            <thead>
              <tr>
                {['Number', 'Client', 'Issued', 'Due', 'Status', 'Total'].map((t) => (
                  <th key={t}>{t}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.items.map((inv) => (
                <tr key={inv.id} data-invoice-id={inv.id} aria-current={inv.id === id ? 'true' : undefined}>
                  <td>
                    <a href={href('invoices', inv.id)} aria-label={`Open ${inv.number ?? `draft for ${clientName(inv.clientId)}, issued ${inv.issueDate}`}`}>
                      {numberOf(inv)}
                    </a>
                  </td>
                  <td>{clientName(inv.clientId)}</td>
                  <td>{inv.issueDate}</td>
                  <td>{inv.dueDate}</td>
                  <td class={`status-${inv.status}`}>{inv.status}</td>
                  <td>{money(inv.total, inv.currency)}</td>
                </tr>
              ))}
            </tbody>
          </TableBox>
        ) : (
          <p>No invoices yet.</p>
        )
      ) : error ? null : (
        <p role="status">Loading invoices…</p>
      )}
      {list?.hasMore ? <p class="note">The 100 newest are shown.</p> : null}
    </div>
  );
}

function LinesTable({
  lines,
  currency,
  totals,
  label,
}: {
  lines: Line[];
  currency: string;
  totals: { subtotal: number; tax: number; total: number; taxRate?: number | undefined };
  label: string;
}) {
  return (
    <TableBox label={label}>
      <thead>
        <tr>
          {['Description', 'Hours', 'Rate', 'Amount'].map((t) => (
            <th key={t}>{t}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {lines.map((li, n) => (
          <tr key={n}>
            <td>{li.description}</td>
            <td>{li.quantity}</td>
            <td>{money(li.unitPrice, currency)}</td>
            <td>{money(li.amount, currency)}</td>
          </tr>
        ))}
        <tr>
          <td colSpan={3}>Subtotal</td>
          <td>{money(totals.subtotal, currency)}</td>
        </tr>
        <tr class="tax">
          <td colSpan={3}>{taxLabel(totals.taxRate)}</td>
          <td>{money(totals.tax, currency)}</td>
        </tr>
        <tr class="total">
          <td colSpan={3}>Total</td>
          <td>{money(totals.total, currency)}</td>
        </tr>
      </tbody>
    </TableBox>
  );
}

function InvoiceDetail(props: {
  workspaceId: string;
  invoiceId: string;
  canWrite: boolean;
  clientName: (id: string) => string;
  changed: (i: Invoice) => void;
  deleted: (id: string) => void;
}) {
  const { workspaceId, invoiceId, canWrite, clientName } = props;
  const [inv, setInv] = useState<Invoice | null>(null);
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const action = useAction();
  const [announce, setAnnounce] = useState('');
  const ref = useFocus<HTMLDivElement>(inv?.id);
  const path = { workspaceId, invoiceId };
  // one more step of a void's or delete's release (or of a create): the invoice, or the progress
  const releaseStep = async (id: string) => {
    const next = ok(await client.POST('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/continue', { params: { path: { workspaceId, invoiceId: id } } }));
    if ('locked' in next) setAnnounce(`Releasing the invoice's time entries: ${next.locked} of ${next.entryCount} still locked…`);
    return next;
  };
  useEffect(() => {
    Promise.all([
      client.GET('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}', { params: { path } }),
      client.GET('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/entries', { params: { path } }),
    ])
      .then(([i, e]) => {
        setInv(ok(i));
        setEntries(ok(e).items);
      })
      .catch(setError);
  }, [invoiceId]);
  if (error) return <ErrorBox error={error} />;
  if (!inv || !entries) return <p role="status">Loading the invoice…</p>;
  const done = (next: Invoice, what: string) => {
    setInv(next);
    props.changed(next);
    setAnnounce(`Invoice ${numberOf(next)} ${what}.`);
  };
  const transition = (label: string, what: string, call: () => Promise<Invoice>) => (
    <Button busy={action.busy} onClick={() => void action.run(async () => done(await call(), what))}>
      {label}
    </Button>
  );
  const actions = [];
  if (canWrite) {
    if (inv.status === 'draft')
      actions.push(
        transition('Send invoice', 'sent', async () =>
          ok(await client.POST('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/send', { params: { path }, headers: idempotency() })),
        ),
      );
    if (inv.status === 'draft' || inv.status === 'sent')
      actions.push(
        transition('Void invoice', 'voided', async () => {
          // a large invoice's entries are released in steps: 202 with the progress, then .../continue until it is void
          let answer = ok(await client.POST('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/void', { params: { path }, headers: idempotency() }));
          while ('locked' in answer) answer = await releaseStep(answer.id);
          return answer;
        }),
      );
    if (inv.status === 'draft' || inv.status === 'void')
      actions.push(
        <Button
          busy={action.busy}
          onClick={() =>
            void action.run(async () => {
              const answer = ok(await client.DELETE('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}', { params: { path } }));
              // a large invoice's entries are released in steps: .../continue until it is gone
              for (let a: Awaited<ReturnType<typeof releaseStep>> | typeof answer = answer; 'locked' in a;) a = await releaseStep(a.id);
              props.deleted(inv.id);
              go('invoices');
            })
          }
        >
          Delete invoice
        </Button>,
      );
  }
  return (
    <div role="region" aria-label={`Invoice ${numberOf(inv)}`} class="stack invoice-detail" tabIndex={-1} ref={ref}>
      <h3>{inv.number ? `Invoice ${inv.number}` : 'Draft invoice (numbered when sent)'}</h3>
      <p>
        {clientName(inv.clientId)} · issued {inv.issueDate} · due {inv.dueDate} ·{' '}
        <span class={`status-${inv.status}`} data-testid="invoice-status">
          {inv.status}
        </span>
        {inv.paidAt ? ` · paid ${fmt(inv.paidAt)}` : ''}
      </p>
      <LinesTable lines={inv.lineItems} currency={inv.currency} totals={inv} label="Invoice lines" />
      {inv.notes ? <p class="note">{inv.notes}</p> : null}
      <Payments inv={inv} />
      {canWrite && (inv.status === 'sent' || inv.status === 'partially_paid') ? (
        <PayForm
          workspaceId={workspaceId}
          inv={inv}
          paid={(next) => done(next, next.status === 'paid' ? 'paid in full' : `partially paid: ${money(next.amountDue ?? 0, next.currency)} still due`)}
        />
      ) : null}
      <div class="actions">
        <Button busy={action.busy} onClick={() => void action.run(() => openPdf(workspaceId, inv.id))}>
          Open PDF
        </Button>
        {actions.map((a, n) => (
          <span key={n}> {a}</span>
        ))}{' '}
        <button type="button" onClick={() => go('invoices')}>
          Close
        </button>
      </div>
      <p class="sr-only" role="status">
        {announce}
      </p>
      <ErrorBox error={action.error} />
      <h4>Time entries ({entries.length})</h4>
      <TableBox label="Invoice time entries">
        <thead>
          <tr>
            {['Start', 'Minutes', 'User', 'Work'].map((t) => (
              <th key={t}>{t}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-entry-id={e.id}>
              <td>{fmt(e.startTime)}</td>
              <td>{e.durationMinutes ?? ''}</td>
              <td>{e.userId}</td>
              <td>{e.notes ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </TableBox>
    </div>
  );
}

async function openPdf(workspaceId: string, invoiceId: string) {
  const r = await client.GET('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/pdf', {
    params: { path: { workspaceId, invoiceId } },
    headers: { Accept: 'application/pdf', Authorization: `Bearer ${currentToken() ?? ''}` },
    parseAs: 'blob',
  });
  if (!r.response.ok || !r.data) throw new ApiFailure(r.response.status, undefined);
  const url = URL.createObjectURL(r.data);
  window.open(url, '_blank');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function InvoiceForm({ workspaceId, clients, made }: { workspaceId: string; clients: Client[]; made: (inv: Invoice) => void }) {
  const now = new Date();
  const [clientId, setClientId] = useState(clients[0]?.id ?? '');
  const [startDate, setStart] = useState(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10));
  const [endDate, setEnd] = useState(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10));
  const [lines, setLines] = useState<'project' | 'task' | 'entry'>('project');
  const [tax, setTax] = useState('0');
  const [due, setDue] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [progress, setProgress] = useState('');
  const previewing = useAction();
  const creating = useAction();
  const path = { workspaceId };
  const fields = { ...(previewing.error instanceof ApiFailure ? previewing.error.fields : {}), ...(creating.error instanceof ApiFailure ? creating.error.fields : {}) };
  const body = () => ({ clientId, startDate, endDate, lines, taxRate: Number(tax || 0), ...(due ? { dueDate: due } : {}) });
  const ref = useFocus<HTMLDivElement>(preview);
  return (
    <form
      class="stack"
      aria-label="New invoice"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void creating.run(async () => {
          // A large invoice is made in steps: 202 with its progress, then .../continue until the draft is there.
          let answer = ok(await client.POST('/console/api/workspaces/{workspaceId}/invoices', { params: { path }, body: body(), headers: idempotency() }));
          while ('locked' in answer) {
            setProgress(`Making the invoice: ${answer.locked} of ${answer.entryCount} time entries locked…`);
            answer = ok(await client.POST('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/continue', { params: { path: { workspaceId, invoiceId: answer.id } } }));
          }
          made(answer);
        });
      }}
    >
      <h3>New invoice</h3>
      <Field label="Client" error={fields.clientId}>
        {(a) => (
          <select {...a} value={clientId} onChange={(e) => setClientId(e.currentTarget.value)}>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="row">
        <Field label="Period start" error={fields.startDate}>
          {(a) => <input {...a} type="date" value={startDate} onInput={(e) => setStart(e.currentTarget.value)} />}
        </Field>
        <Field label="Period end" error={fields.endDate}>
          {(a) => <input {...a} type="date" value={endDate} onInput={(e) => setEnd(e.currentTarget.value)} />}
        </Field>
      </div>
      <Field label="Group lines by" error={fields.lines}>
        {(a) => (
          <select {...a} value={lines} onChange={(e) => setLines(e.currentTarget.value === 'task' ? 'task' : e.currentTarget.value === 'entry' ? 'entry' : 'project')}>
            <option value="project">Project</option>
            <option value="task">Task</option>
            <option value="entry">Entry</option>
          </select>
        )}
      </Field>
      <div class="row">
        <Field label="Tax rate (%)" error={fields.taxRate}>
          {(a) => <input {...a} type="number" min={0} max={100} step="0.01" value={tax} onInput={(e) => setTax(e.currentTarget.value)} />}
        </Field>
        <Field label="Due date" error={fields.dueDate}>
          {(a) => <input {...a} type="date" value={due} onInput={(e) => setDue(e.currentTarget.value)} />}
        </Field>
      </div>
      <p class="note">The client's billable, stopped, not yet invoiced time starting in the period (days inclusive, UTC). Due date: 30 days after issue unless set.</p>
      <div>
        <Button
          busy={previewing.busy}
          onClick={() =>
            void previewing.run(async () => setPreview(ok(await client.POST('/console/api/workspaces/{workspaceId}/invoices/preview', { params: { path }, body: body() }))))
          }
        >
          Preview
        </Button>{' '}
        <Button type="submit" busy={creating.busy}>
          Create invoice
        </Button>
      </div>
      <ErrorBox error={previewing.error ?? creating.error} />
      <p role="status">{creating.busy ? progress || 'Making the invoice…' : ''}</p>
      {preview ? (
        <div role="region" aria-label="Invoice preview" tabIndex={-1} ref={ref}>
          <p>
            {preview.number ?? 'Draft (numbered when sent)'}: {preview.entryCount} time entries, issued {preview.issueDate}, due {preview.dueDate}.
          </p>
          <LinesTable lines={preview.lineItems} currency={preview.currency} totals={preview} label="Preview lines" />
        </div>
      ) : null}
    </form>
  );
}

/** The payments recorded and what is still due (focused when a payment is added: the action's result). */
function Payments({ inv }: { inv: Invoice }) {
  const payments = inv.payments ?? [];
  const ref = useFocus<HTMLDivElement>(payments.length > 0 ? payments.length : undefined);
  if (inv.status === 'draft' || inv.status === 'void') return null;
  return (
    <div role="region" aria-label="Payments" tabIndex={-1} ref={ref}>
      <p data-testid="amount-due">Amount due: {money(inv.amountDue ?? inv.total, inv.currency)}</p>
      {payments.length > 0 ? (
        <TableBox label="Payments">
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
                <td>{p.paidAt}</td>
                <td>{money(p.amount, inv.currency)}</td>
                <td>{p.reference ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      ) : null}
    </div>
  );
}

/** "Record payment": the day (today), the amount (what is due), a reference; busy while it is recorded. */
function PayForm({ workspaceId, inv, paid }: { workspaceId: string; inv: Invoice; paid: (next: Invoice) => void }) {
  const [paidAt, setPaidAt] = useState(new Date().toISOString().slice(0, 10));
  const [amount, setAmount] = useState(String(inv.amountDue ?? inv.total));
  const [reference, setReference] = useState('');
  const paying = useAction();
  const fields = paying.error instanceof ApiFailure ? paying.error.fields : {};
  useEffect(() => setAmount(String(inv.amountDue ?? inv.total)), [inv.amountDue]);
  return (
    <form
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
