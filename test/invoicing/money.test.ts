import fc from 'fast-check';
import { clients, projects } from '../../shared/data/repositories';
import { deriveTimeEntry, type TimeEntry } from '../../shared/domain/entities/time-entries';
import { ulid } from '../../shared/domain/ids';
import { beginFromTime, continueFromTime, createFromTime, updateDraft } from '../../shared/invoicing/service';
import { hoursShown, invoiceLines, invoiceTotals, lineAmountMinor, MAX_INVOICE_ENTRIES, taxMinor, type BillableEntry, type InvoiceCatalog } from '../../shared/invoicing/rules';
import { listJobs } from '../../shared/invoicing/store';
import { newWorkspace, useTestTable } from '../support/harness';
import { billableFixture, invoicingViolations, makeEntries, storedState, writeEntries } from './support';

/**
 * Issue 32, item 3: money exact and independent of grouping. A line's amount is its rate times its exact
 * minutes / 60, rounded once, half up, to cents (integers); the hours are shown rounded, never used rounded;
 * the total is the sum of the lines plus the tax, rounded once. Bounds: a quantity, amount or total past the
 * document's maxima is 400 naming the field; the 5,000-entry bound holds over all steps; the console's invoice
 * texts refuse control, zero-width and bidi characters.
 */
useTestTable();
jest.setTimeout(600_000);
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
const PERIOD = { startDate: '2026-03-01', endDate: '2026-03-31' };

const catalog = (rate: number): InvoiceCatalog => ({ client: { name: 'Acme', currency: 'EUR' }, projects: new Map([['p1', { name: 'P', hourlyRate: rate }]]), tasks: new Map() });
const entry = (i: number, minutes: number, projectId = 'p1'): BillableEntry => ({
  id: `e${String(i).padStart(4, '0')}`,
  startTime: new Date(Date.UTC(2026, 2, 1, 8) + i * 3_600_000).toISOString(),
  durationMinutes: minutes,
  projectId,
});
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return { reason: (e as { reason?: string }).reason, message: (e as Error).message };
  }
  return undefined;
};

test('6 entries of 1 minute at 100/h: by entry 6 x 1.67 = 10.02, by project 0.10 h -> 10.00 (one rounding per line, from the exact minutes)', () => {
  const six = [1, 2, 3, 4, 5, 6].map((i) => entry(i, 1));
  const byEntry = invoiceLines(six, catalog(100), 'entry');
  expect(byEntry.lineItems.map((l) => [l.quantity, l.amount, l.minutes])).toEqual(six.map(() => [0.02, 1.67, 1]));
  expect(byEntry.subtotal).toBe(10.02);
  const byProject = invoiceLines(six, catalog(100), 'project');
  expect(byProject.lineItems.map((l) => [l.quantity, l.amount, l.minutes])).toEqual([[0.1, 10, 6]]);
  expect(byProject.subtotal).toBe(10);
});

test('half up, once: a line of exactly half a cent goes up; tax of exactly half a cent goes up; quantities shown rounded only', () => {
  // 3 min at 0.10/h = 0.5 cent -> 0.01; 1 min at 0.29/h = 0.483 cent -> 0.00; 1 min at 0.30/h = 0.5 cent -> 0.01
  expect(lineAmountMinor(0.1, 3)).toBe(1);
  expect(lineAmountMinor(0.29, 1)).toBe(0);
  expect(lineAmountMinor(0.3, 1)).toBe(1);
  // 20 min at 80.5/h = 26.8333 -> 26.83; 50 min at 80.5/h = 67.0833 -> 67.08; 45 min at 99.99/h = 74.9925 -> 74.99
  expect([lineAmountMinor(80.5, 20), lineAmountMinor(80.5, 50), lineAmountMinor(99.99, 45)]).toEqual([2683, 6708, 7499]);
  // 1 min at 0.01/h: 0.0167 cent -> 0
  expect(lineAmountMinor(0.01, 1)).toBe(0);
  // tax: 0.50 at 1 % = 0.5 cent -> 0.01; 0.49 at 1 % -> 0.00; 19 % of 10.05 = 1.9095 -> 1.91; 7.25 % of 100.10 = 7.257 -> 7.26
  expect([taxMinor(50, 1), taxMinor(49, 1), taxMinor(1005, 19), taxMinor(10010, 7.25)]).toEqual([1, 0, 191, 726]);
  // the shown hours: 1 min 0.02, 20 min 0.33, 50 min 0.83, 90 min 1.5 (a half rounds up: 3 min 0.05)
  expect([1, 20, 50, 90, 3].map(hoursShown)).toEqual([0.02, 0.33, 0.83, 1.5, 0.05]);
  expect(invoiceTotals([{ description: 'x', quantity: 0.01, unitPrice: 1, amount: 0.5 }], 1)).toEqual({ subtotal: 0.5, tax: 0.01, total: 0.51 });
});

test('fast-check: total = the sum of exact-minute line amounts; grouping moves it by at most half a cent per line', () => {
  const rateArb = fc.integer({ min: 0, max: 100_000_00 }).map((c) => c / 100);
  fc.assert(
    fc.property(
      fc.array(fc.record({ minutes: fc.integer({ min: 1, max: 600 }), project: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 60 }),
      fc.tuple(rateArb, rateArb, rateArb),
      fc.integer({ min: 0, max: 1_000_000 }).map((bp) => bp / 10_000),
      (rows, rates, taxRate) => {
        const cat: InvoiceCatalog = {
          client: { name: 'C', currency: 'EUR' },
          projects: new Map(rates.map((r, i) => [`p${i}`, { name: `P${i}`, hourlyRate: r }])),
          tasks: new Map(),
        };
        const entries = rows.map((r, i) => entry(i, r.minutes, `p${r.project}`));
        const totals: Record<string, { cents: number; lines: number }> = {};
        for (const grouping of ['entry', 'project'] as const) {
          const lines = invoiceLines(entries, cat, grouping);
          // each line: exactly rate x minutes / 60, rounded once half up (brute force in rationals: cents*60 compared)
          for (const li of lines.lineItems) {
            const exactTimes60 = Math.round(li.unitPrice * 100) * li.minutes!; // 60 x the exact amount in cents
            const c = Math.round(li.amount * 100);
            expect(Math.abs(c * 60 - exactTimes60)).toBeLessThanOrEqual(30);
            if (Math.abs(c * 60 - exactTimes60) === 30) expect(c * 60).toBeGreaterThan(exactTimes60); // half: up
          }
          const subtotalCents = lines.lineItems.reduce((s, li) => s + Math.round(li.amount * 100), 0);
          expect(Math.round(lines.subtotal * 100)).toBe(subtotalCents);
          const t = invoiceTotals(lines.lineItems, taxRate);
          expect(Math.round(t.total * 100)).toBe(subtotalCents + Math.round(t.tax * 100));
          totals[grouping] = { cents: subtotalCents, lines: lines.lineItems.length };
          // the minutes are all billed
          expect(lines.lineItems.reduce((s, li) => s + li.minutes!, 0)).toBe(rows.reduce((s, r) => s + r.minutes, 0));
        }
        // the exact sum is the same whatever the grouping: each total is within half a cent per line of it
        const exactCents = rows.reduce((s, r) => s + (Math.round(rates[r.project]! * 100) * r.minutes) / 60, 0);
        for (const g of Object.values(totals)) expect(Math.abs(g.cents - exactCents)).toBeLessThanOrEqual(0.5 * g.lines + 1e-6);
      },
    ),
    { numRuns: 300 },
  );
});

test('bounds in the rules: a quantity past 1,000,000 hours, an amount or a total past 1,000,000,000 are 400 naming the field', () => {
  const long = [1, 2, 3, 4, 5].map((i) => entry(i, 12_000_001)); // 5 x 200,000.0167 h
  expect(errorOf(() => invoiceLines(long, catalog(0.01), 'project'))).toEqual({
    reason: 'invalid',
    message: expect.stringMatching(/^lineItems\.0\.quantity: would be 1000000\.08 hours/),
  });
  expect(errorOf(() => invoiceLines([entry(1, 60)], catalog(1_000_000_000), 'project'))).toBeUndefined();
  expect(errorOf(() => invoiceLines([entry(1, 61)], catalog(1_000_000_000), 'project'))).toEqual({ reason: 'invalid', message: expect.stringMatching(/^lineItems\.0\.amount: /) });
  const two = invoiceLines([entry(1, 60), entry(2, 60)], catalog(600_000_000), 'entry');
  expect(errorOf(() => invoiceTotals(two.lineItems, 0))).toEqual({ reason: 'invalid', message: expect.stringMatching(/^total: would be 1200000000/) });
  const one = invoiceLines([entry(1, 60)], catalog(900_000_000), 'entry');
  expect(errorOf(() => invoiceTotals(one.lineItems, 20))).toEqual({ reason: 'invalid', message: expect.stringMatching(/^total: /) });
});

test('bounds through create and a draft change (DynamoDB Local): 400 naming the field, nothing written, nothing locked', async () => {
  const f = await billableFixture(4, { rates: [600_000_000] });
  const res = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD }).catch((e: { reason: string; message: string }) => e);
  expect(res).toMatchObject({ reason: 'invalid', message: expect.stringMatching(/^lineItems\.0\.amount: /) });
  const { entries, invoices } = await storedState(f.ws);
  expect([invoices.length, entries.filter((e) => e.invoiceId !== undefined).length, (await listJobs(f.ws)).length]).toEqual([0, 0, 0]);

  const g = await billableFixture(2, { rates: [1000] });
  const inv = await createFromTime({ workspaceId: g.ws, clientId: g.clientId, ...PERIOD });
  for (const [patch, field] of [
    [{ taxRate: 19.12345 }, 'taxRate'],
    [{ number: 'INV\u200b-1' }, 'number'],
    [{ number: 'INV\u202e-1' }, 'number'],
    [{ number: 'INV\u0007-1' }, 'number'],
    [{ lineDescriptions: ['Design\u2066x\u2069'] }, 'lineDescriptions.0'],
    [{ lineDescriptions: ['Design\u0000'] }, 'lineDescriptions.0'],
    [{ notes: 'thanks\ufeff' }, 'notes'],
  ] as const) {
    const err = await updateDraft(g.ws, inv.id, patch as never).catch((e: { reason: string; message: string }) => e);
    expect([patch, err]).toEqual([patch, expect.objectContaining({ reason: 'invalid', message: expect.stringMatching(new RegExp(`^${field.replace('.', '\\.')}: `)) })]);
  }
  // emoji sequences (zero-width joiner) and line breaks in notes stay allowed
  expect((await updateDraft(g.ws, inv.id, { notes: 'Team \u{1F469}\u200d\u{1F4BB}\nthanks', taxRate: 7.25 })).tax).toBe(taxMinor(Math.round(inv.subtotal * 100), 7.25) / 100);
  expect(await createFromTime({ workspaceId: g.ws, clientId: g.clientId, ...PERIOD, number: 'A\u200bB' }).catch((e: { reason: string; message: string }) => e.message)).toMatch(
    /^number: must not contain zero-width or bidi/,
  );
});

test('the 5,000-entry bound holds over all steps: entries added between steps past it make the create 409, and everything is released', async () => {
  const ws = newWorkspace('inv-bound');
  const client = await clients.create(ws, { name: 'Big', currency: 'EUR' });
  const p = await projects.create(ws, { name: 'P', clientId: client.id, hourlyRate: 10 });
  await writeEntries(ws, makeEntries(MAX_INVOICE_ENTRIES - 10, client.id, [p.id], []));
  const first = await beginFromTime({ workspaceId: ws, clientId: client.id, ...PERIOD, budgetMs: 0 });
  expect(first).toMatchObject({ status: 'pending', entryCount: MAX_INVOICE_ENTRIES - 10, locked: 49 });
  // 60 more entries in the period arrive while it is being made (4,990 + 60 > 5,000)
  const more: TimeEntry[] = Array.from({ length: 60 }, (_, i) => {
    const start = Date.UTC(2026, 2, 15, 3) + i * 60_000;
    const now = new Date().toISOString();
    return deriveTimeEntry({
      id: ulid(),
      userId: 'u9',
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + 30_000 * 2).toISOString(),
      projectId: p.id,
      clientId: client.id,
      billable: true,
      createdAt: now,
      updatedAt: now,
    }) as TimeEntry;
  });
  await writeEntries(ws, more);
  const res = await continueFromTime(ws, first.id, { budgetMs: Number.POSITIVE_INFINITY }).catch((e: { reason: string; message: string }) => e);
  expect(res).toMatchObject({ reason: 'conflict', message: expect.stringContaining(`at most ${MAX_INVOICE_ENTRIES}`) });
  const { entries, invoices } = await storedState(ws);
  expect([invoices.length, entries.length, entries.filter((e) => e.invoiceId !== undefined).length, (await listJobs(ws)).length]).toEqual([0, MAX_INVOICE_ENTRIES + 50, 0, 0]);
  expect(await invoicingViolations(ws)).toEqual([]);
});
