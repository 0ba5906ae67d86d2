import { useState } from 'preact/hooks';
import { ApiFailure, client, idempotency, ok, type Invoice, type Schemas } from '../../api/client';
import { Button, ErrorBox, Field, useAction, useFocus } from '../../ui';
import { LinesTable } from './lines';
import type { Unbilled } from './unbilled';

/** "New invoice": client, period, grouping, tax, due date; Preview (writes nothing), then Create (in steps: 202, continue). */
type Client = { id: string; name: string };
type Preview = Schemas['ConsoleInvoicePreview'];

/**
 * The period the form offers for a client: its unbilled time's (oldest..newest entry date), so the form never
 * says "Nothing to invoice" while the client has unbilled time; last month for a client without any.
 */
function periodOf(unbilled: Unbilled, clientId: string): { from: string; to: string } {
  const row = unbilled.items.find((r) => r.clientId === clientId);
  if (row) return { from: row.oldestDate, to: row.newestDate };
  const now = new Date();
  return {
    from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10),
    to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10),
  };
}

export function InvoiceForm({
  workspaceId,
  clients,
  unbilled,
  prefill,
  made,
}: {
  workspaceId: string;
  clients: Client[];
  unbilled: Unbilled;
  /** From the address (`?new=<clientId>&from=&to=`): "Invoice this" of the unbilled list. */
  prefill: { clientId?: string | undefined; from?: string | undefined; to?: string | undefined };
  made: (inv: Invoice) => void;
}) {
  // the prefilled client, else the first client with unbilled time, else the first client
  const first = clients.find((c) => c.id === prefill.clientId)?.id ?? unbilled.items[0]?.clientId ?? clients[0]?.id ?? '';
  const [clientId, setClientId] = useState(first);
  const [startDate, setStart] = useState(prefill.from ?? periodOf(unbilled, first).from);
  const [endDate, setEnd] = useState(prefill.to ?? periodOf(unbilled, first).to);
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
  // opened (by "New invoice" or "Invoice this"): the form takes the focus
  const formRef = useFocus<HTMLFormElement>(true);
  return (
    <form
      ref={formRef}
      tabIndex={-1}
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
          <select
            {...a}
            value={clientId}
            onChange={(e) => {
              const next = e.currentTarget.value;
              const period = periodOf(unbilled, next);
              setClientId(next);
              setStart(period.from);
              setEnd(period.to);
            }}
          >
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
      <p class="note">
        The client's billable, stopped, not yet invoiced time starting in the period (days inclusive, UTC); the period starts as that of the client's unbilled time. Due date: 30
        days after issue unless set.
      </p>
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
