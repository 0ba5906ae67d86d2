import type { Invoice } from '../../api/client';
import { TableBox } from '../../ui';

/** What the Invoices section's parts share: money as the person's locale writes it, the lines table, the live totals of a draft being edited. */
export type Line = Invoice['lineItems'][number];

export const money = (amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
};
/** The tax row's label with its rate: "Tax (19 %)". */
export const taxLabel = (rate: number | undefined) => `Tax (${new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(rate ?? 0)} %)`;

/**
 * The totals a draft would have at this tax rate, as the server computes them (shared/invoicing/rules.ts):
 * the subtotal is the sum of the lines' amounts (cents), the tax the rate (at most 4 decimals) of it rounded
 * once, half up, to the cent; in integers. A preview only: the saved draft is the server's answer.
 */
export function totalsAt(lines: readonly Line[], taxRate: number): { subtotal: number; tax: number; total: number; taxRate: number } {
  const subtotal = lines.reduce((s, li) => s + BigInt(Math.round(li.amount * 100)), 0n);
  const d = 1_000_000n;
  const tax = (subtotal * BigInt(Math.round(taxRate * 10_000)) * 2n + d) / (2n * d);
  return { subtotal: Number(subtotal) / 100, tax: Number(tax) / 100, total: Number(subtotal + tax) / 100, taxRate };
}

export function LinesTable({
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
    <TableBox label={label} cards>
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
            <td class="card-title wrap">{li.description}</td>
            <td data-label="Hours">{li.quantity}</td>
            <td data-label="Rate">{money(li.unitPrice, currency)}</td>
            <td data-label="Amount">{money(li.amount, currency)}</td>
          </tr>
        ))}
        <tr class="sum">
          <td colSpan={3}>Subtotal</td>
          <td>{money(totals.subtotal, currency)}</td>
        </tr>
        <tr class="sum tax">
          <td colSpan={3}>{taxLabel(totals.taxRate)}</td>
          <td>{money(totals.tax, currency)}</td>
        </tr>
        <tr class="sum total">
          <td colSpan={3}>Total</td>
          <td>{money(totals.total, currency)}</td>
        </tr>
      </tbody>
    </TableBox>
  );
}
