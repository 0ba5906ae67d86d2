import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, client, currentToken, idempotency, ok, type Invoice, type Schemas } from '../api/client';
import { go, href, route } from '../router';
import type { SectionProps } from '../section';
import { Button, ErrorBox, fmt, RANK, TableBox, useAction, useFocus } from '../ui';
import { InvoiceForm } from './invoices/create-form';
import { DraftEditor } from './invoices/draft-editor';
import { LinesTable, money } from './invoices/lines';
import { newInvoiceHref, UnbilledList, type Unbilled } from './invoices/unbilled';
import { Payments, PayForm } from './invoices/payments';

/**
 * Invoices: the unbilled time per client first ("Invoice this" opens the form prefilled), the list (with the
 * clients it names), one invoice at `#/invoices/<id>` (itself and the first page of its time entries: two
 * requests; "Show more entries" pages on), a draft's editor at `#/invoices/<id>?edit=1`, "New invoice" at
 * `#/invoices?new=<clientId|1>&from=&to=` (preview, create in steps), finalize, pay, void, delete, PDF. An
 * action puts the invoice the server answered into the list; the unbilled time is read again after a create,
 * a void or a delete (they lock or release entries).
 */
type Client = { id: string; name: string };
type Entry = Schemas['TimeEntry'];
/** How the page names an invoice: its number, or "Draft" (a draft has none until it is sent). */
const numberOf = (inv: { number?: string | null }) => inv.number ?? 'Draft';
/** A status as the page writes it: "partially paid" (the API's `partially_paid`). */
const statusText = (status: string) => status.replace(/_/g, ' ');

export function InvoicesSection({ workspaceId, role, id }: SectionProps) {
  const canWrite = RANK[role] >= RANK.admin;
  const [clients, setClients] = useState<Client[]>([]);
  const [list, setList] = useState<{ items: Invoice[]; hasMore: boolean } | null>(null);
  const [unbilled, setUnbilled] = useState<Unbilled | null>(null);
  const [error, setError] = useState<unknown>(null);
  // the view's address: `?new=<clientId|1>&from=&to=` opens "New invoice" (prefilled), `?edit=1` a draft's editor
  const query = route.value.query;
  const creating = query.new !== undefined;
  const path = { workspaceId };
  const loadUnbilled = () =>
    client
      .GET('/console/api/workspaces/{workspaceId}/invoices/unbilled', { params: { path } })
      .then((u) => setUnbilled(ok(u)))
      .catch(setError);
  useEffect(() => {
    Promise.all([
      client.GET('/console/api/workspaces/{workspaceId}/clients', { params: { path } }),
      client.GET('/console/api/workspaces/{workspaceId}/invoices', { params: { path, query: { limit: 100 } } }),
      client.GET('/console/api/workspaces/{workspaceId}/invoices/unbilled', { params: { path } }),
    ])
      .then(([c, i, u]) => {
        setClients(ok(c).items);
        const page = ok(i);
        setList({ items: page.items, hasMore: page.hasMore });
        setUnbilled(ok(u));
      })
      .catch(setError);
  }, [workspaceId]);
  const clientName = (cid: string) => clients.find((c) => c.id === cid)?.name ?? cid;
  const put = (inv: Invoice) => setList((l) => (l ? { ...l, items: [inv, ...l.items.filter((o) => o.id !== inv.id)].sort((a, b) => b.issueDate.localeCompare(a.issueDate)) } : l));
  const drop = (invoiceId: string) => setList((l) => (l ? { ...l, items: l.items.filter((o) => o.id !== invoiceId) } : l));

  return (
    <div>
      <h3 id="unbilled-heading">Unbilled time</h3>
      {unbilled ? <UnbilledList unbilled={unbilled} canWrite={canWrite} /> : error ? null : <p role="status">Loading the unbilled time…</p>}
      {canWrite ? (
        <p>
          <button type="button" aria-expanded={creating} onClick={() => (location.hash = creating ? href('invoices', id) : newInvoiceHref())}>
            New invoice
          </button>
        </p>
      ) : null}
      {creating && canWrite && unbilled ? (
        <InvoiceForm
          key={`${query.new}/${query.from}/${query.to}`}
          workspaceId={workspaceId}
          clients={clients}
          unbilled={unbilled}
          prefill={{ clientId: query.new, from: query.from, to: query.to }}
          made={(inv) => {
            put(inv);
            void loadUnbilled();
            go('invoices', inv.id);
          }}
        />
      ) : null}
      {id ? (
        <InvoiceDetail
          key={id}
          workspaceId={workspaceId}
          invoiceId={id}
          canWrite={canWrite}
          editing={query.edit === '1'}
          clientName={clientName}
          changed={put}
          released={() => void loadUnbilled()}
          deleted={drop}
        />
      ) : null}
      <h3 id="invoice-list-heading">Invoice list</h3>
      <ErrorBox error={error} />
      {list ? (
        list.items.length ? (
          <TableBox label="Invoices" cards>
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
                  <td class="card-title">
                    <a href={href('invoices', inv.id)} aria-label={`Open ${inv.number ?? `draft for ${clientName(inv.clientId)}, issued ${inv.issueDate}`}`}>
                      {numberOf(inv)}
                    </a>
                  </td>
                  <td data-label="Client">{clientName(inv.clientId)}</td>
                  <td data-label="Issued">{inv.issueDate}</td>
                  <td data-label="Due">{inv.dueDate}</td>
                  <td data-label="Status" class={`status-${inv.status}`}>
                    {statusText(inv.status)}
                  </td>
                  <td data-label="Total">{money(inv.total, inv.currency)}</td>
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

function InvoiceDetail(props: {
  workspaceId: string;
  invoiceId: string;
  canWrite: boolean;
  /** `?edit=1`: the draft's editor is open. */
  editing: boolean;
  clientName: (id: string) => string;
  changed: (i: Invoice) => void;
  /** A void or delete released the invoice's entries. */
  released: () => void;
  deleted: (id: string) => void;
}) {
  const { workspaceId, invoiceId, canWrite, clientName } = props;
  const [inv, setInv] = useState<Invoice | null>(null);
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [more, setMore] = useState<string | undefined>(undefined);
  const paging = useAction();
  // "Show more entries": the first row of the page it added takes the focus (the button may be gone: the last page)
  const [firstNew, setFirstNew] = useState<string | undefined>(undefined);
  const entryRows = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    if (firstNew) entryRows.current?.querySelector<HTMLElement>(`tr[data-entry-id="${CSS.escape(firstNew)}"]`)?.focus();
  }, [firstNew]);
  const [error, setError] = useState<unknown>(null);
  const action = useAction();
  const [announce, setAnnounce] = useState('');
  // the invoice takes the focus when it opens and after an action, except a payment: its result is the payments (Payments focuses them)
  const [focusKey, setFocusKey] = useState<string | undefined>(undefined);
  const ref = useFocus<HTMLDivElement>(focusKey);
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
      client.GET('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/entries', { params: { path, query: { limit: ENTRY_PAGE } } }),
    ])
      .then(([i, e]) => {
        const opened = ok(i);
        setInv(opened);
        setFocusKey(`${opened.id}/${opened.etag}`);
        const page = ok(e);
        setEntries(page.items);
        setMore(page.nextCursor);
      })
      .catch(setError);
  }, [invoiceId]);
  if (error) return <ErrorBox error={error} />;
  if (!inv || !entries) return <p role="status">Loading the invoice…</p>;
  const moreEntries = (cursor: string) =>
    paging.run(async () => {
      const page = ok(await client.GET('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/entries', { params: { path, query: { limit: ENTRY_PAGE, cursor } } }));
      const shown = entries.length + page.items.length;
      setEntries((all) => [...(all ?? []), ...page.items]);
      setMore(page.nextCursor);
      setFirstNew(page.items[0]?.id);
      setAnnounce(`${page.items.length} more time entries shown: ${shown}${page.nextCursor ? ' so far' : ', all of them'}.`);
    });
  const done = (next: Invoice, what: string, payment = false) => {
    if (!payment) setFocusKey(`${next.id}/${next.etag}`);
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
        transition('Finalize and mark sent', 'finalized and marked sent (nothing was e-mailed)', async () =>
          ok(await client.POST('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/send', { params: { path }, headers: idempotency() })),
        ),
      );
    if (inv.status === 'draft' || inv.status === 'sent')
      actions.push(
        transition('Void invoice', 'voided', async () => {
          // a large invoice's entries are released in steps: 202 with the progress, then .../continue until it is void
          let answer = ok(await client.POST('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/void', { params: { path }, headers: idempotency() }));
          while ('locked' in answer) answer = await releaseStep(answer.id);
          props.released();
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
              props.released();
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
        {clientName(inv.clientId)} · issued <span class="nowrap">{inv.issueDate}</span> · due <span class="nowrap">{inv.dueDate}</span> ·{' '}
        <span class={`status-${inv.status}`} data-testid="invoice-status">
          {statusText(inv.status)}
        </span>
        {inv.paidAt ? ` · paid ${fmt(inv.paidAt)}` : ''}
      </p>
      {props.editing && canWrite && inv.status === 'draft' ? (
        <DraftEditor
          workspaceId={workspaceId}
          invoice={inv}
          saved={(next) => {
            done(next, 'saved');
            go('invoices', next.id);
          }}
          cancel={() => go('invoices', inv.id)}
        />
      ) : (
        <>
          <LinesTable lines={inv.lineItems} currency={inv.currency} totals={inv} label="Invoice lines" />
          {inv.notes ? <p class="note">{inv.notes}</p> : null}
        </>
      )}
      <Payments inv={inv} />
      {canWrite && (inv.status === 'sent' || inv.status === 'partially_paid') ? (
        <PayForm
          workspaceId={workspaceId}
          inv={inv}
          paid={(next) => done(next, next.status === 'paid' ? 'paid in full' : `partially paid: ${money(next.amountDue ?? 0, next.currency)} still due`, true)}
        />
      ) : null}
      <div class="actions">
        {canWrite && inv.status === 'draft' && !props.editing ? (
          <>
            <a href={href('invoices', inv.id, undefined, { edit: '1' })}>Edit draft</a>{' '}
          </>
        ) : null}
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
      {more ? <p class="note">The first {entries.length} entries are shown.</p> : null}
      <TableBox label="Invoice time entries" cards>
        <thead>
          <tr>
            {['Start', 'Minutes', 'User', 'Work'].map((t) => (
              <th key={t}>{t}</th>
            ))}
          </tr>
        </thead>
        <tbody ref={entryRows}>
          {entries.map((e) => (
            <tr key={e.id} data-entry-id={e.id} tabIndex={e.id === firstNew ? -1 : undefined}>
              <td data-label="Start">{fmt(e.startTime)}</td>
              <td data-label="Minutes">{e.durationMinutes ?? ''}</td>
              <td data-label="User">{e.userId}</td>
              <td data-label="Work" class="wrap">
                {e.notes ?? ''}
              </td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {more ? (
        <p>
          <Button busy={paging.busy} onClick={() => void moreEntries(more)}>
            Show more entries
          </Button>
        </p>
      ) : null}
      <ErrorBox error={paging.error} />
    </div>
  );
}
/** Time entries per page of the detail view (the console's entries route pages like /v1). */
const ENTRY_PAGE = 100;

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
