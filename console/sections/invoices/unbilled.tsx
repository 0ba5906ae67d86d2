import type { Schemas } from '../../api/client';
import { href } from '../../router';
import { TableBox } from '../../ui';
import { money } from './lines';

/**
 * The time left to bill (GET .../invoices/unbilled), shown first in the Invoices section: one row per client
 * with its entries, hours, amount before tax and period; "Invoice this" opens "New invoice" prefilled with
 * that client and period (`#/invoices?new=<clientId>&from=<oldest>&to=<newest>`: the form is a view too).
 */
export type Unbilled = Schemas['ConsoleUnbilledTime'];
export type UnbilledRow = Unbilled['items'][number];

/** The address of "New invoice" prefilled (a client and period), or empty. */
export const newInvoiceHref = (row?: Pick<UnbilledRow, 'clientId' | 'oldestDate' | 'newestDate'>) =>
  href('invoices', null, undefined, row ? { new: row.clientId, from: row.oldestDate, to: row.newestDate } : { new: '1' });

/** The columns; below 40rem each row is a card (client name, then these by label, then the action). */
const COLUMNS = ['Client', 'Entries', 'Hours', 'Amount before tax', 'Period'];

const hours = (minutes: number) => new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(minutes / 60);

export function UnbilledList({ unbilled, canWrite }: { unbilled: Unbilled; canWrite: boolean }) {
  if (!unbilled.items.length) return <p>No unbilled time: every billable, stopped entry is on an invoice.</p>;
  return (
    <>
      <TableBox label="Unbilled time" cards>
        <thead>
          <tr>
            {[...COLUMNS, ...(canWrite ? [''] : [])].map((t, n) => (
              <th key={n}>{t || <span class="sr-only">Action</span>}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {unbilled.items.map((row) => (
            <tr key={row.clientId} data-unbilled-client={row.clientId}>
              <td class="card-title">{row.clientName}</td>
              <td data-label="Entries">{row.entries}</td>
              <td data-label="Hours">{hours(row.minutes)}</td>
              <td data-label="Amount before tax">
                {row.amount !== null && row.currency ? money(row.amount, row.currency) : <span class="field-error">{row.problem ?? 'cannot be invoiced'}</span>}
              </td>
              <td data-label="Period">
                <span>
                  <span class="nowrap">{row.oldestDate}</span> – <span class="nowrap">{row.newestDate}</span>
                </span>
              </td>
              {canWrite ? (
                <td class="actions">
                  <a href={newInvoiceHref(row)} aria-label={`Invoice this: ${row.clientName}`}>
                    Invoice this
                  </a>
                  {row.amount !== null && row.problem ? <span class="note"> {row.problem}</span> : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </TableBox>
      {unbilled.complete ? null : (
        <p class="note">
          Only time from {unbilled.countedFrom?.slice(0, 10)} on is counted here (the newest 8 MB of entries); older unbilled time exists: pick its period in "New invoice".
        </p>
      )}
    </>
  );
}
