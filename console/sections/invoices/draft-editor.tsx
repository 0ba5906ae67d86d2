import { useState } from 'preact/hooks';
import { ApiFailure, client, ok, type Invoice } from '../../api/client';
import { Button, ErrorBox, Field, useAction } from '../../ui';
import { LinesTable, totalsAt } from './lines';

/**
 * A draft's editor (`#/invoices/<id>?edit=1`): issue and due date, tax rate, notes and each line's description,
 * with a live preview of the lines and totals as they would be saved (tax from the entered rate, rounded as the
 * server rounds it). "Save draft" sends only what changed (PATCH .../invoices/{id}); the server's answer is
 * the result; a refusal names its field.
 */
export function DraftEditor({ workspaceId, invoice, saved, cancel }: { workspaceId: string; invoice: Invoice; saved: (inv: Invoice) => void; cancel: () => void }) {
  const [issueDate, setIssue] = useState(invoice.issueDate);
  const [dueDate, setDue] = useState(invoice.dueDate);
  const [tax, setTax] = useState(String(invoice.taxRate ?? 0));
  const [notes, setNotes] = useState(invoice.notes ?? '');
  const [descriptions, setDescriptions] = useState(invoice.lineItems.map((li) => li.description));
  const saving = useAction();
  const fields = saving.error instanceof ApiFailure ? saving.error.fields : {};
  const rate = Number(tax);
  const rateOk = tax.trim() !== '' && Number.isFinite(rate) && rate >= 0 && rate <= 100;
  const lines = invoice.lineItems.map((li, i) => ({ ...li, description: descriptions[i] ?? li.description }));
  const changes = {
    ...(issueDate !== invoice.issueDate ? { issueDate } : {}),
    ...(dueDate !== invoice.dueDate ? { dueDate } : {}),
    ...(rateOk && rate !== (invoice.taxRate ?? 0) ? { taxRate: rate } : {}),
    ...(notes !== (invoice.notes ?? '') ? { notes: notes === '' ? null : notes } : {}),
    ...(descriptions.some((d, i) => d !== invoice.lineItems[i]?.description) ? { lineDescriptions: descriptions } : {}),
  };
  return (
    <form
      class="stack"
      aria-label="Edit draft"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void saving.run(async () => {
          if (!rateOk) throw new Error('Tax rate: enter a percentage from 0 to 100');
          saved(
            ok(
              await client.PATCH('/console/api/workspaces/{workspaceId}/invoices/{invoiceId}', {
                params: { path: { workspaceId, invoiceId: invoice.id } },
                body: changes,
              }),
            ),
          );
        });
      }}
    >
      <h4>Edit draft</h4>
      <div class="row">
        <Field label="Issue date" error={fields.issueDate}>
          {(a) => <input {...a} type="date" value={issueDate} onInput={(e) => setIssue(e.currentTarget.value)} />}
        </Field>
        <Field label="Due date" error={fields.dueDate}>
          {(a) => <input {...a} type="date" value={dueDate} onInput={(e) => setDue(e.currentTarget.value)} />}
        </Field>
        <Field label="Tax rate (%)" error={fields.taxRate ?? (rateOk ? undefined : 'a percentage from 0 to 100')}>
          {(a) => <input {...a} type="number" min={0} max={100} step="0.01" value={tax} onInput={(e) => setTax(e.currentTarget.value)} />}
        </Field>
      </div>
      {invoice.lineItems.map((li, i) => (
        <Field key={i} label={`Line ${i + 1} description`} error={fields[`lineDescriptions.${i}`] ?? (i === 0 ? fields.lineDescriptions : undefined)}>
          {(a) => (
            <input
              {...a}
              type="text"
              maxLength={1000}
              value={descriptions[i] ?? li.description}
              onInput={(e) => {
                const v = e.currentTarget.value;
                setDescriptions((all) => all.map((d, k) => (k === i ? v : d)));
              }}
            />
          )}
        </Field>
      ))}
      <Field label="Notes" error={fields.notes}>
        {(a) => <textarea {...a} rows={3} maxLength={10_000} value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />}
      </Field>
      <div role="region" aria-label="Draft preview" aria-live="polite">
        <LinesTable lines={lines} currency={invoice.currency} totals={totalsAt(lines, rateOk ? rate : (invoice.taxRate ?? 0))} label="Draft preview lines" />
      </div>
      <div>
        <Button type="submit" busy={saving.busy} disabled={Object.keys(changes).length === 0}>
          Save draft
        </Button>{' '}
        <button type="button" onClick={cancel}>
          Cancel editing
        </button>
      </div>
      <ErrorBox error={saving.error} />
    </form>
  );
}
