import { createGateway, type LocalFunctionName } from '../../local/gateway';
import { consoleRouteList } from '../../shared/console/routes';
import { useTestTable } from '../support/harness';
import { draftOf } from './invoice-fixtures';
import { consoleClient, person, startOidc, type Oidc } from './support';

/**
 * The invoice PDF has a function of its own (functions/console-invoice-pdf), as deployed (lib/console.ts):
 * the local gateway runs that function for the PDF route and the console function for every other console
 * route; the console function, given the PDF route's event, does not serve it (404), and the PDF function
 * serves no other route. (What the PDF holds, and its bytes over HTTP: invoices.test.ts.)
 */
useTestTable();
jest.setTimeout(120_000);
let oidc: Oidc;
const WS = 'ws-console-pdf-fn';
let viewer: { email: string; token: string };
const base = `/console/api/workspaces/${WS}/invoices`;

/** A local gateway that records which function each request ran, optionally running `instead` for a function. */
function recordingGateway(instead: Partial<Record<LocalFunctionName, LocalFunctionName>> = {}) {
  const ran: LocalFunctionName[] = [];
  const gateway = createGateway({
    authCacheTtlSeconds: 300,
    loadHandler: (name) => {
      ran.push(name);
      return require(`../../functions/${instead[name] ?? name}/index`).handler;
    },
  });
  return { ...consoleClient(gateway), ran };
}

beforeAll(async () => {
  oidc = await startOidc();
  viewer = await person(oidc.issuer, WS, 'viewer', 'pdf-viewer');
});
afterAll(async () => {
  await oidc.stop();
});

test('the route table gives the PDF route, and only it, to console-invoice-pdf', () => {
  expect(consoleRouteList.filter((r) => r.function === 'console-invoice-pdf').map((r) => [r.id, r.function])).toEqual([['getConsoleInvoicePdf', 'console-invoice-pdf']]);
  // declared without an implementation in the table: its function's entry supplies it
  expect(consoleRouteList.filter((r) => r.run === undefined).map((r) => r.id)).toEqual(['getConsoleInvoicePdf']);
});

test('the local gateway runs console-invoice-pdf for the PDF and the console function for the invoice itself', async () => {
  const { invoice } = await draftOf(WS);
  const client = recordingGateway();
  const pdf = await client.call('GET', `${base}/${invoice.id}/pdf`, { token: viewer.token });
  expect([pdf.status, pdf.headers['Content-Type']]).toEqual([200, 'application/pdf']);
  expect(Buffer.from(pdf.text, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  const one = await client.call('GET', `${base}/${invoice.id}`, { token: viewer.token });
  expect([one.status, one.body.number]).toEqual([200, invoice.number]);
  expect(client.ran).toEqual(['console-authorizer', 'console-invoice-pdf', 'console']);
});

test('each function refuses the routes of the other (404 NOT_FOUND): the console function the PDF, the PDF function the invoice', async () => {
  const { invoice } = await draftOf(WS);
  const swapped = recordingGateway({ 'console-invoice-pdf': 'console', console: 'console-invoice-pdf' });
  const pdf = await swapped.call('GET', `${base}/${invoice.id}/pdf`, { token: viewer.token });
  expect([pdf.status, pdf.body.error.code]).toEqual([404, 'NOT_FOUND']);
  const one = await swapped.call('GET', `${base}/${invoice.id}`, { token: viewer.token });
  expect([one.status, one.body.error.code]).toEqual([404, 'NOT_FOUND']);
});
