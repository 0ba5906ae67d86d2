import * as oauth from 'oauth4webapi';

/**
 * The console page (GET /console): plain DOM, bundled by esbuild with oauth4webapi (local/console-assets.ts,
 * lib/console.ts). Sign-in is OpenID Connect, authorization code + PKCE S256 with `state` and `nonce` checked
 * by oauth4webapi, as a public client (no secret). Tokens live in this module's memory only: a reload signs
 * in again (the provider's session makes that a round trip without a form). Only the PKCE verifier, state
 * and nonce of a sign-in in progress wait in sessionStorage for the redirect back, and are removed then.
 *
 * Sections are declared in SECTIONS (one entry each: title, least role, render); every control has the
 * accessible name tests and screen readers use.
 */

interface Config {
  issuer: string;
  clientId: string;
  scope: string;
  logoutUrl: string | null;
  authorizerCacheSeconds: number;
  /** The scopes a key may hold (the route table's). */
  scopes: string[];
}
type Role = 'owner' | 'admin' | 'viewer';
interface Membership {
  workspaceId: string;
  role: Role;
}
interface ApiKey {
  id: string;
  name: string;
  prefix: string | null;
  scopes: string[];
  perMinute: number;
  perHour: number;
  expiresAt: string | null;
  createdAt: string;
  createdBy: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
}

const RANK: Record<Role, number> = { viewer: 1, admin: 2, owner: 3 };
const PENDING = 'console.signin';
const base = new URL('.', location.href); // .../console -> .../ (stage prefix kept)
const consoleUrl = new URL('console', base).href;
const apiUrl = (path: string) => new URL(`console/api/${path}`, base).href;

let idToken: string | undefined; // memory only
let scopes: string[] = [];

// ---------------------------------------------------------------- tiny DOM helper
type Child = Node | string | null | undefined | false;
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | boolean | ((e: Event) => void)> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (v === true) el.setAttribute(k, '');
    else if (v !== false) el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}
const fmt = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const app = () => document.getElementById('app')!;

// ---------------------------------------------------------------- OpenID Connect (oauth4webapi)
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let insecure: Record<symbol, boolean> = {};

async function discover(cfg: Config) {
  const issuer = new URL(cfg.issuer);
  // The local provider of `npm start` is plain http on the loopback interface; every other issuer is https.
  insecure = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname) ? { [oauth.allowInsecureRequests]: true } : {};
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  client = { client_id: cfg.clientId };
}

async function signIn(cfg: Config) {
  const code_verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  sessionStorage.setItem(PENDING, JSON.stringify({ code_verifier, state, nonce }));
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', cfg.clientId);
  url.searchParams.set('redirect_uri', consoleUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', cfg.scope);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(code_verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  location.assign(url.href);
}

async function completeSignIn(): Promise<boolean> {
  const current = new URL(location.href);
  if (!current.searchParams.has('code') && !current.searchParams.has('error')) return false;
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as { code_verifier: string; state: string; nonce: string } | null;
  sessionStorage.removeItem(PENDING);
  history.replaceState(null, '', consoleUrl); // the code leaves the address bar at once
  if (!pending) throw new Error('No sign-in in progress: sign in again');
  const params = oauth.validateAuthResponse(as, client, current, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, consoleUrl, pending.code_verifier, insecure);
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: pending.nonce, requireIdToken: true });
  idToken = result.id_token;
  return true;
}

function signOut(cfg: Config) {
  const hint = idToken;
  idToken = undefined;
  if (cfg.logoutUrl) return location.assign(cfg.logoutUrl); // Cognito's /logout (ends its managed-login session)
  if (!as.end_session_endpoint) return location.assign(consoleUrl);
  const url = new URL(as.end_session_endpoint);
  url.searchParams.set('client_id', cfg.clientId);
  url.searchParams.set('post_logout_redirect_uri', consoleUrl);
  if (hint) url.searchParams.set('id_token_hint', hint);
  location.assign(url.href);
}

// ---------------------------------------------------------------- console API
class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(apiUrl(path), {
    method,
    headers: { Authorization: `Bearer ${idToken ?? ''}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    cache: 'no-store',
  });
  const data = (await res.json().catch(() => ({}))) as { error?: { message?: string; details?: Array<{ field?: string; message?: string }> } };
  if (!res.ok) {
    const details = (data.error?.details ?? []).map((d) => (d.field ? `${d.field}: ${d.message}` : '')).filter(Boolean);
    throw new ApiFailure(res.status, [data.error?.message ?? `HTTP ${res.status}`, ...details].join(' — '));
  }
  return data as T;
}

// ---------------------------------------------------------------- sections
interface Ctx {
  cfg: Config;
  workspaceId: string;
  role: Role;
  refresh: () => Promise<void>;
}
interface Section {
  id: string;
  title: string;
  /** The least role that sees the section. */
  minRole: Role;
  render: (ctx: Ctx) => Promise<HTMLElement>;
}

const SECTIONS: Section[] = [
  { id: 'api-keys', title: 'API Keys', minRole: 'viewer', render: renderKeys },
  { id: 'usage', title: 'Usage', minRole: 'viewer', render: renderUsage },
  { id: 'members', title: 'Members', minRole: 'owner', render: renderMembers },
  { id: 'audit', title: 'Audit log', minRole: 'admin', render: renderAudit },
  { id: 'invoices', title: 'Invoices', minRole: 'viewer', render: renderInvoices },
];

const SOON_MS = 7 * 86_400_000;
const expiresSoon = (k: ApiKey) => k.status === 'active' && k.expiresAt !== null && Date.parse(k.expiresAt) - Date.now() < SOON_MS;

function errorBox(message: string) {
  return h('p', { class: 'error', role: 'alert' }, message);
}

function newKeyBox(key: string, note: string) {
  const code = h('code', {}, key);
  return h(
    'div',
    { class: 'newkey', role: 'region', 'aria-label': 'New key' },
    h('p', {}, note),
    code,
    ' ',
    h('button', { type: 'button', onclick: () => void navigator.clipboard?.writeText(key) }, 'Copy'),
  );
}

function expiryControl(label = 'Expires') {
  const select = h(
    'select',
    { 'aria-label': label },
    h('option', { value: 'never' }, 'Never'),
    h('option', { value: '30' }, '30 days'),
    h('option', { value: '90' }, '90 days'),
    h('option', { value: '365' }, '365 days'),
    h('option', { value: 'date' }, 'On a date'),
  );
  const date = h('input', { type: 'date', 'aria-label': 'Expiry date', hidden: true });
  select.addEventListener('change', () => (date.hidden = select.value !== 'date'));
  const value = (): string | null | undefined => {
    if (select.value === 'never') return null;
    if (select.value === 'date') return date.value ? new Date(`${date.value}T23:59:59Z`).toISOString() : undefined;
    return new Date(Date.now() + Number(select.value) * 86_400_000).toISOString();
  };
  return { el: h('label', {}, `${label} `, select, ' ', date), value };
}

function keyForm(opts: { submit: string; key?: ApiKey; onSubmit: (body: Record<string, unknown>) => Promise<void> }) {
  const name = h('input', { name: 'name', required: true, maxlength: '100', value: opts.key?.name ?? '' });
  const boxes = scopes.map((sc) => {
    const box = h('input', { type: 'checkbox', value: sc, ...(opts.key?.scopes.includes(sc) ? { checked: true } : {}) });
    return { sc, box, label: h('label', {}, box, ` ${sc}`) };
  });
  const perMinute = h('input', { type: 'number', min: '1', value: String(opts.key?.perMinute ?? 60) });
  const perHour = h('input', { type: 'number', min: '1', value: String(opts.key?.perHour ?? 1000) });
  const expiry = expiryControl();
  const status = h('div', {});
  const form = h(
    'form',
    { class: 'stack' },
    h('label', {}, 'Name ', name),
    h('fieldset', {}, h('legend', {}, 'Scopes'), ...boxes.map((b) => b.label)),
    h('label', {}, 'Per minute ', perMinute),
    h('label', {}, 'Per hour ', perHour),
    expiry.el,
    h('div', {}, h('button', { type: 'submit' }, opts.submit)),
    status,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const body: Record<string, unknown> = {
      name: name.value,
      scopes: boxes.filter((b) => b.box.checked).map((b) => b.sc),
      perMinute: Number(perMinute.value),
      perHour: Number(perHour.value),
    };
    const exp = expiry.value();
    if (exp !== undefined && (exp !== null || opts.key)) body.expiresAt = exp;
    if (!opts.key && exp === null) delete body.expiresAt;
    opts.onSubmit(body).catch((err: Error) => status.replaceChildren(errorBox(err.message)));
  });
  return form;
}

async function renderKeys(ctx: Ctx): Promise<HTMLElement> {
  const canWrite = RANK[ctx.role] >= RANK.admin;
  const ws = encodeURIComponent(ctx.workspaceId);
  const { items } = await api<{ items: ApiKey[] }>('GET', `workspaces/${ws}/api-keys`);
  const area = h('div', {});
  const panel = h(
    'div',
    {},
    h(
      'p',
      { class: 'note' },
      `Changes reach the gateway within the authorizer cache time (${ctx.cfg.authorizerCacheSeconds >= 60 ? `${Math.round(ctx.cfg.authorizerCacheSeconds / 60)} minutes` : `${ctx.cfg.authorizerCacheSeconds} seconds`}): a revoked or changed key keeps its old answer that long.`,
    ),
    area,
  );
  if (canWrite) {
    const open = h('button', { type: 'button' }, 'Create key');
    open.addEventListener('click', () => {
      area.replaceChildren(
        keyForm({
          submit: 'Create',
          onSubmit: async (body) => {
            const made = await api<{ key: string; apiKey: ApiKey }>('POST', `workspaces/${ws}/api-keys`, body);
            await ctx.refresh();
            document.getElementById('key-area')?.replaceChildren(newKeyBox(made.key, `Key "${made.apiKey.name}" created. Copy it now: it is shown only once.`));
          },
        }),
      );
    });
    panel.prepend(h('div', {}, open));
  }
  area.id = 'key-area';
  const rows = items.map((k) => {
    const actions = h('td', {});
    if (canWrite && k.status !== 'revoked') {
      const edit = h('button', { type: 'button', 'aria-label': `Edit ${k.name}` }, 'Edit');
      edit.addEventListener('click', () =>
        area.replaceChildren(
          h('h3', {}, `Edit ${k.name}`),
          keyForm({
            submit: 'Save',
            key: k,
            onSubmit: async (body) => {
              await api('PATCH', `workspaces/${ws}/api-keys/${k.id}`, body);
              await ctx.refresh();
            },
          }),
        ),
      );
      const roll = h('button', { type: 'button', 'aria-label': `Roll ${k.name}` }, 'Roll');
      roll.addEventListener('click', () => {
        const grace = h(
          'select',
          { 'aria-label': 'Old key keeps working' },
          h('option', { value: '0' }, 'Stops now'),
          h('option', { value: '3600' }, '1 hour'),
          h('option', { value: '86400', selected: true }, '24 hours'),
          h('option', { value: '604800' }, '7 days'),
        );
        const status = h('div', {});
        const go = h('button', { type: 'button' }, 'Roll key');
        go.addEventListener('click', () => {
          api<{ key: string; apiKey: ApiKey }>('POST', `workspaces/${ws}/api-keys/${k.id}/roll`, { expireOldInSeconds: Number(grace.value) })
            .then(async (rolled) => {
              await ctx.refresh();
              document.getElementById('key-area')?.replaceChildren(newKeyBox(rolled.key, `Key "${rolled.apiKey.name}" rolled. Copy the new key now: it is shown only once.`));
            })
            .catch((err: Error) => status.replaceChildren(errorBox(err.message)));
        });
        area.replaceChildren(
          h(
            'div',
            { class: 'stack' },
            h('h3', {}, `Roll ${k.name}`),
            h('label', {}, 'Old key keeps working ', grace),
            h('p', { class: 'note' }, 'Never past its own expiry.'),
            go,
            status,
          ),
        );
      });
      const revoke = h('button', { type: 'button', 'aria-label': `Revoke ${k.name}` }, 'Revoke');
      revoke.addEventListener('click', () => {
        const status = h('span', {});
        const yes = h('button', { type: 'button' }, 'Confirm revoke');
        const no = h('button', { type: 'button' }, 'Cancel');
        yes.addEventListener(
          'click',
          () =>
            void api('DELETE', `workspaces/${ws}/api-keys/${k.id}`)
              .then(() => ctx.refresh())
              .catch((err: Error) => status.replaceChildren(errorBox(err.message))),
        );
        no.addEventListener('click', () => area.replaceChildren());
        area.replaceChildren(
          h(
            'div',
            { class: 'confirm', role: 'alertdialog', 'aria-label': 'Confirm revoke' },
            `Revoke "${k.name}"? Integrations using it will be refused.`,
            ' ',
            yes,
            ' ',
            no,
            status,
          ),
        );
      });
      actions.append(edit, ' ', roll, ' ', revoke);
    }
    return h(
      'tr',
      { 'data-key-id': k.id },
      h('td', {}, k.name),
      h('td', {}, h('code', {}, k.prefix ?? '—')),
      h('td', { class: 'scopes' }, k.scopes.join(', ')),
      h('td', {}, `${k.perMinute}/min, ${k.perHour}/hour`),
      h('td', {}, fmt(k.createdAt), h('br'), h('span', { class: 'note' }, k.createdBy ?? '')),
      h('td', {}, fmt(k.expiresAt), expiresSoon(k) ? h('span', { class: 'soon' }, ' (expires within 7 days)') : null),
      h('td', {}, fmt(k.lastUsedAt)),
      h('td', { class: `status-${k.status}` }, k.status),
      canWrite ? actions : null,
    );
  });
  const table = h(
    'table',
    { 'aria-label': 'API keys' },
    h(
      'thead',
      {},
      h('tr', {}, ...['Name', 'Prefix', 'Scopes', 'Limits', 'Created', 'Expires', 'Last used', 'Status'].map((t) => h('th', {}, t)), canWrite ? h('th', {}, 'Actions') : null),
    ),
    h('tbody', {}, ...rows),
  );
  panel.append(items.length ? table : h('p', {}, 'No keys yet.'));
  return panel;
}

function chart(items: Array<{ hour: string; requests: number; rateLimited: number }>): SVGSVGElement {
  const NS = 'http://www.w3.org/2000/svg';
  const W = 840;
  const H = 180;
  const max = Math.max(1, ...items.map((i) => i.requests + i.rateLimited));
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  const total = items.reduce((a, i) => a + i.requests, 0);
  const limited = items.reduce((a, i) => a + i.rateLimited, 0);
  svg.setAttribute('aria-label', `Requests per hour: ${total} requests, ${limited} rate-limited`);
  const bw = W / items.length;
  items.forEach((i, n) => {
    const bar = (value: number, y0: number, cls: string) => {
      const r = document.createElementNS(NS, 'rect');
      const hgt = (value / max) * (H - 10);
      r.setAttribute('x', String(n * bw));
      r.setAttribute('width', String(Math.max(1, bw - 1)));
      r.setAttribute('y', String(y0 - hgt));
      r.setAttribute('height', String(hgt));
      r.setAttribute('class', cls);
      const t = document.createElementNS(NS, 'title');
      t.textContent = `${new Date(i.hour).toLocaleString()}: ${i.requests} requests, ${i.rateLimited} rate-limited`;
      r.append(t);
      svg.append(r);
      return y0 - hgt;
    };
    const top = i.requests ? bar(i.requests, H, 'ok') : H;
    if (i.rateLimited) bar(i.rateLimited, top, 'limited');
  });
  return svg;
}

async function renderUsage(ctx: Ctx): Promise<HTMLElement> {
  const ws = encodeURIComponent(ctx.workspaceId);
  const { items } = await api<{ items: ApiKey[] }>('GET', `workspaces/${ws}/api-keys`);
  const out = h('div', {});
  if (!items.length) return h('p', {}, 'No keys yet.');
  const select = h('select', { 'aria-label': 'Key' }, ...items.map((k) => h('option', { value: k.id }, `${k.name} (${k.prefix ?? k.id})`)));
  const show = async () => {
    const usage = await api<{ items: Array<{ hour: string; requests: number; rateLimited: number }> }>('GET', `workspaces/${ws}/api-keys/${select.value}/usage?hours=168`);
    const total = usage.items.reduce((a, i) => a + i.requests, 0);
    const limited = usage.items.reduce((a, i) => a + i.rateLimited, 0);
    out.replaceChildren(
      h('p', { 'data-testid': 'usage-summary' }, `Last 7 days: ${total} requests, ${limited} rate-limited.`),
      chart(usage.items),
      h('p', { class: 'legend' }, h('span', { class: 'ok' }, 'requests'), h('span', { class: 'limited' }, 'rate-limited')),
    );
  };
  select.addEventListener('change', () => void show());
  await show();
  return h('div', {}, h('label', {}, 'Key ', select), h('p', { class: 'note' }, 'Requests per hour over the last 7 days.'), out);
}

async function renderMembers(ctx: Ctx): Promise<HTMLElement> {
  const ws = encodeURIComponent(ctx.workspaceId);
  const { items } = await api<{ items: Array<{ email: string; role: Role; addedAt: string }> }>('GET', `workspaces/${ws}/members`);
  const status = h('div', {});
  const fail = (err: Error) => status.replaceChildren(errorBox(err.message));
  const roleSelect = (label: string, value: Role = 'viewer') =>
    h('select', { 'aria-label': label }, ...(['owner', 'admin', 'viewer'] as Role[]).map((r) => h('option', { value: r, ...(r === value ? { selected: true } : {}) }, r)));
  const rows = items.map((m) => {
    const role = roleSelect(`Role of ${m.email}`, m.role);
    role.addEventListener(
      'change',
      () =>
        void api('PATCH', `workspaces/${ws}/members/${encodeURIComponent(m.email)}`, { role: role.value })
          .then(() => ctx.refresh())
          .catch(fail),
    );
    const remove = h('button', { type: 'button', 'aria-label': `Remove ${m.email}` }, 'Remove');
    remove.addEventListener(
      'click',
      () =>
        void api('DELETE', `workspaces/${ws}/members/${encodeURIComponent(m.email)}`)
          .then(() => ctx.refresh())
          .catch(fail),
    );
    return h('tr', {}, h('td', {}, m.email), h('td', {}, role), h('td', {}, fmt(m.addedAt)), h('td', {}, remove));
  });
  const email = h('input', { type: 'email', required: true });
  const role = roleSelect('Role');
  const form = h('form', { class: 'stack' }, h('label', {}, 'Email ', email), h('label', {}, 'Role ', role), h('div', {}, h('button', { type: 'submit' }, 'Add member')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    api('POST', `workspaces/${ws}/members`, { email: email.value, role: role.value })
      .then(() => ctx.refresh())
      .catch(fail);
  });
  return h(
    'div',
    {},
    h('table', { 'aria-label': 'Members' }, h('thead', {}, h('tr', {}, ...['Email', 'Role', 'Added', ''].map((t) => h('th', {}, t)))), h('tbody', {}, ...rows)),
    h('p', { class: 'note' }, 'A new member signs in with their e-mail; the operator creates their sign-in account (docs/operations.md).'),
    form,
    status,
  );
}

async function renderAudit(ctx: Ctx): Promise<HTMLElement> {
  const ws = encodeURIComponent(ctx.workspaceId);
  type Entry = { at: string; actor: string; action: string; target: { type: string; id: string }; changes: Record<string, { from?: unknown; to?: unknown }> };
  const body = h('tbody', {});
  const more = h('button', { type: 'button' }, 'More');
  let cursor: string | null = null;
  const load = async () => {
    const page = await api<{ items: Entry[]; nextCursor: string | null; hasMore: boolean }>(
      'GET',
      `workspaces/${ws}/audit-log?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    for (const e of page.items) {
      const changes = Object.entries(e.changes)
        .map(([f, c]) => `${f}: ${c.from === undefined ? '' : `${JSON.stringify(c.from)} → `}${c.to === undefined ? '(removed)' : JSON.stringify(c.to)}`)
        .join('; ');
      body.append(h('tr', {}, h('td', {}, fmt(e.at)), h('td', {}, e.actor), h('td', {}, e.action), h('td', {}, `${e.target.type} ${e.target.id}`), h('td', {}, changes)));
    }
    cursor = page.nextCursor;
    more.hidden = !page.hasMore;
  };
  more.addEventListener('click', () => void load());
  await load();
  return h(
    'div',
    {},
    h('table', { 'aria-label': 'Audit log' }, h('thead', {}, h('tr', {}, ...['When', 'Who', 'Action', 'Target', 'Changes'].map((t) => h('th', {}, t)))), body),
    more,
  );
}

// ---------------------------------------------------------------- invoices
interface LineItem {
  description: string;
  quantity: number;
  unitPrice: number;
  amount: number;
}
interface Invoice {
  id: string;
  number: string;
  clientId: string;
  status: 'draft' | 'sent' | 'paid' | 'void';
  issueDate: string;
  dueDate: string;
  currency: string;
  lineItems: LineItem[];
  subtotal: number;
  tax: number;
  total: number;
  taxRate?: number;
  notes?: string;
  paidAt?: string;
}
interface InvoiceProgress {
  id: string;
  status: 'pending';
  entryCount: number;
  locked: number;
}
interface Preview extends Omit<Invoice, 'id' | 'status'> {
  entryCount: number;
}
interface Entry {
  id: string;
  userId: string;
  startTime: string;
  durationMinutes?: number;
  name?: string;
  notes?: string;
}
/** The invoice whose detail is open (kept across the section's re-render). */
let openInvoice: string | undefined;

const money = (amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
};

/** The tax row's label with its rate: "Tax (19 %)". */
const taxLabel = (rate: number | undefined) => `Tax (${new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(rate ?? 0)} %)`;

function linesTable(lines: LineItem[], currency: string, totals: { subtotal: number; tax: number; total: number; taxRate?: number }, label: string) {
  return h(
    'table',
    { 'aria-label': label },
    h('thead', {}, h('tr', {}, ...['Description', 'Hours', 'Rate', 'Amount'].map((t) => h('th', {}, t)))),
    h(
      'tbody',
      {},
      ...lines.map((li) =>
        h('tr', {}, h('td', {}, li.description), h('td', {}, String(li.quantity)), h('td', {}, money(li.unitPrice, currency)), h('td', {}, money(li.amount, currency))),
      ),
      h('tr', {}, h('td', { colspan: '3' }, 'Subtotal'), h('td', {}, money(totals.subtotal, currency))),
      h('tr', { class: 'tax' }, h('td', { colspan: '3' }, taxLabel(totals.taxRate)), h('td', {}, money(totals.tax, currency))),
      h('tr', { class: 'total' }, h('td', { colspan: '3' }, 'Total'), h('td', {}, money(totals.total, currency))),
    ),
  );
}

async function openPdf(ws: string, inv: Invoice) {
  const res = await fetch(apiUrl(`workspaces/${ws}/invoices/${inv.id}/pdf`), {
    headers: { Authorization: `Bearer ${idToken ?? ''}`, Accept: 'application/pdf' },
    cache: 'no-store',
  });
  if (!res.ok) throw new ApiFailure(res.status, `The PDF could not be made (HTTP ${res.status})`);
  const url = URL.createObjectURL(await res.blob());
  window.open(url, '_blank');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function invoiceForm(ctx: Ctx, clients: Array<{ id: string; name: string }>, done: (id: string) => Promise<void>) {
  const ws = encodeURIComponent(ctx.workspaceId);
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
  const client = h('select', { required: true, 'aria-label': 'Client' }, ...clients.map((c) => h('option', { value: c.id }, c.name)));
  const start = h('input', { type: 'date', required: true, value: first, 'aria-label': 'Period start' });
  const end = h('input', { type: 'date', required: true, value: last, 'aria-label': 'Period end' });
  const grouping = h(
    'select',
    { 'aria-label': 'Group lines by' },
    h('option', { value: 'project' }, 'Project'),
    h('option', { value: 'task' }, 'Task'),
    h('option', { value: 'entry' }, 'Entry'),
  );
  const tax = h('input', { type: 'number', min: '0', max: '100', step: '0.01', value: '0', 'aria-label': 'Tax rate (%)' });
  const due = h('input', { type: 'date', 'aria-label': 'Due date' });
  const preview = h('div', { role: 'region', 'aria-label': 'Invoice preview' });
  const status = h('div', { role: 'status' });
  const body = () => ({
    clientId: client.value,
    startDate: start.value,
    endDate: end.value,
    lines: grouping.value,
    taxRate: Number(tax.value || 0),
    ...(due.value ? { dueDate: due.value } : {}),
  });
  const previewButton = h('button', { type: 'button' }, 'Preview');
  previewButton.addEventListener('click', () => {
    status.replaceChildren();
    api<Preview>('POST', `workspaces/${ws}/invoices/preview`, body())
      .then((p) =>
        preview.replaceChildren(
          h('p', {}, `${p.number}: ${p.entryCount} time entries, issued ${p.issueDate}, due ${p.dueDate}.`),
          linesTable(p.lineItems, p.currency, p, 'Preview lines'),
        ),
      )
      .catch((err: Error) => preview.replaceChildren(errorBox(err.message)));
  });
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'New invoice' },
    h('h3', {}, 'New invoice'),
    h('label', {}, 'Client ', client),
    h('label', {}, 'Period start ', start),
    h('label', {}, 'Period end ', end),
    h('label', {}, 'Group lines by ', grouping),
    h('label', {}, 'Tax rate (%) ', tax),
    h('label', {}, 'Due date ', due),
    h('p', { class: 'note' }, "The client's billable, stopped, not yet invoiced time starting in the period (days inclusive, UTC). Due date: 30 days after issue unless set."),
    h('div', {}, previewButton, ' ', h('button', { type: 'submit' }, 'Create invoice')),
    preview,
    status,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    status.replaceChildren('Making the invoice…');
    void (async () => {
      // A large invoice is made in steps: 202 with its progress, then .../continue until the draft is there.
      let made = await api<Invoice | InvoiceProgress>('POST', `workspaces/${ws}/invoices`, body());
      while (made.status === 'pending') {
        status.replaceChildren(`Making the invoice: ${made.locked} of ${made.entryCount} time entries locked…`);
        made = await api<Invoice | InvoiceProgress>('POST', `workspaces/${ws}/invoices/${made.id}/continue`);
      }
      await done(made.id);
    })().catch((err: Error) => status.replaceChildren(errorBox(err.message)));
  });
  return form;
}

async function invoiceDetail(ctx: Ctx, id: string, clientName: (id: string) => string): Promise<HTMLElement> {
  const ws = encodeURIComponent(ctx.workspaceId);
  const canWrite = RANK[ctx.role] >= RANK.admin;
  const [inv, entries] = await Promise.all([api<Invoice>('GET', `workspaces/${ws}/invoices/${id}`), api<{ items: Entry[] }>('GET', `workspaces/${ws}/invoices/${id}/entries`)]);
  const status = h('div', {});
  const act = (label: string, method: string, suffix: string, after?: () => void) => {
    const b = h('button', { type: 'button' }, label);
    b.addEventListener('click', () => {
      api(method, `workspaces/${ws}/invoices/${id}${suffix}`)
        .then(() => {
          after?.();
          return ctx.refresh();
        })
        .catch((err: Error) => status.replaceChildren(errorBox(err.message)));
    });
    return b;
  };
  const actions: HTMLElement[] = [];
  if (canWrite) {
    if (inv.status === 'draft') actions.push(act('Send invoice', 'POST', '/send'));
    if (inv.status === 'sent') actions.push(act('Mark paid', 'POST', '/pay'));
    if (inv.status === 'draft' || inv.status === 'sent') actions.push(act('Void invoice', 'POST', '/void'));
    if (inv.status === 'draft' || inv.status === 'void') actions.push(act('Delete invoice', 'DELETE', '', () => (openInvoice = undefined)));
  }
  const pdf = h('button', { type: 'button' }, 'Open PDF');
  pdf.addEventListener('click', () => void openPdf(ws, inv).catch((err: Error) => status.replaceChildren(errorBox(err.message))));
  const close = h('button', { type: 'button' }, 'Close');
  close.addEventListener('click', () => {
    openInvoice = undefined;
    void ctx.refresh();
  });
  return h(
    'div',
    { role: 'region', 'aria-label': `Invoice ${inv.number}`, class: 'stack invoice-detail' },
    h('h3', {}, `Invoice ${inv.number}`),
    h(
      'p',
      {},
      `${clientName(inv.clientId)} · issued ${inv.issueDate} · due ${inv.dueDate} · `,
      h('span', { class: `status-${inv.status}`, 'data-testid': 'invoice-status' }, inv.status),
      inv.paidAt ? ` · paid ${fmt(inv.paidAt)}` : '',
    ),
    linesTable(inv.lineItems, inv.currency, inv, 'Invoice lines'),
    inv.notes ? h('p', { class: 'note' }, inv.notes) : null,
    h('div', {}, pdf, ...actions.flatMap((a) => [' ', a]), ' ', close),
    status,
    h('h4', {}, `Time entries (${entries.items.length})`),
    h(
      'table',
      { 'aria-label': 'Invoice time entries' },
      h('thead', {}, h('tr', {}, ...['Start', 'Minutes', 'User', 'Work'].map((t) => h('th', {}, t)))),
      h(
        'tbody',
        {},
        ...entries.items.map((e) =>
          h(
            'tr',
            { 'data-entry-id': e.id },
            h('td', {}, fmt(e.startTime)),
            h('td', {}, String(e.durationMinutes ?? '')),
            h('td', {}, e.userId),
            h('td', {}, e.name ?? e.notes ?? ''),
          ),
        ),
      ),
    ),
  );
}

async function renderInvoices(ctx: Ctx): Promise<HTMLElement> {
  const canWrite = RANK[ctx.role] >= RANK.admin;
  const ws = encodeURIComponent(ctx.workspaceId);
  const [{ items: clients }, page] = await Promise.all([
    api<{ items: Array<{ id: string; name: string }> }>('GET', `workspaces/${ws}/clients`),
    api<{ items: Invoice[]; hasMore: boolean }>('GET', `workspaces/${ws}/invoices?limit=100`),
  ]);
  const clientName = (id: string) => clients.find((c) => c.id === id)?.name ?? id;
  const area = h('div', { id: 'invoice-area' });
  const show = async (id: string) => {
    openInvoice = id;
    await ctx.refresh();
  };
  const panel = h('div', {});
  if (canWrite) {
    const open = h('button', { type: 'button' }, 'New invoice');
    open.addEventListener('click', () => area.replaceChildren(invoiceForm(ctx, clients, show)));
    panel.append(h('div', {}, open));
  }
  panel.append(area);
  if (openInvoice) {
    try {
      area.replaceChildren(await invoiceDetail(ctx, openInvoice, clientName));
    } catch (err) {
      openInvoice = undefined;
      area.replaceChildren(errorBox((err as Error).message));
    }
  }
  const rows = page.items.map((inv) => {
    const view = h('button', { type: 'button', 'aria-label': `Open ${inv.number}` }, 'Open');
    view.addEventListener('click', () => void show(inv.id));
    return h(
      'tr',
      { 'data-invoice-id': inv.id },
      h('td', {}, inv.number),
      h('td', {}, clientName(inv.clientId)),
      h('td', {}, inv.issueDate),
      h('td', {}, inv.dueDate),
      h('td', { class: `status-${inv.status}` }, inv.status),
      h('td', {}, money(inv.total, inv.currency)),
      h('td', {}, view),
    );
  });
  panel.append(
    h('h3', { id: 'invoice-list-heading' }, 'Invoice list'),
    page.items.length
      ? h(
          'table',
          { 'aria-label': 'Invoices' },
          h('thead', {}, h('tr', {}, ...['Number', 'Client', 'Issued', 'Due', 'Status', 'Total', ''].map((t) => h('th', {}, t)))),
          h('tbody', {}, ...rows),
        )
      : h('p', {}, 'No invoices yet.'),
    page.hasMore ? h('p', { class: 'note' }, 'The 100 newest are shown.') : '',
  );
  return panel;
}

// ---------------------------------------------------------------- the page
async function main() {
  const cfg = (await (await fetch(new URL('console/config.json', base).href, { cache: 'no-store' })).json()) as Config;
  await discover(cfg);
  const who = document.getElementById('who')!;
  let signedIn = false;
  try {
    signedIn = await completeSignIn();
  } catch (err) {
    app().replaceChildren(errorBox(`Sign-in failed: ${(err as Error).message}`));
  }
  if (!signedIn) {
    const button = h('button', { type: 'button' }, 'Sign in');
    button.addEventListener('click', () => void signIn(cfg));
    const failed = app().querySelector('.error');
    app().replaceChildren(...(failed ? [failed] : []), h('p', {}, 'Sign in with your workspace account to manage its API keys.'), button);
    return;
  }
  const me = await api<{ email: string; memberships: Membership[] }>('GET', 'me');
  scopes = cfg.scopes;
  const out = h('button', { type: 'button' }, 'Sign out');
  out.addEventListener('click', () => signOut(cfg));
  who.replaceChildren(h('span', {}, me.email), out);
  if (!me.memberships.length) {
    app().replaceChildren(h('p', {}, `${me.email} is not a member of any workspace yet. Ask a workspace owner to add you.`));
    return;
  }
  let current = me.memberships[0]!;
  const picker = h('select', { 'aria-label': 'Workspace' }, ...me.memberships.map((m) => h('option', { value: m.workspaceId }, `${m.workspaceId} (${m.role})`)));
  const sections = h('div', {});
  const refresh = async () => {
    const ctx: Ctx = { cfg, workspaceId: current.workspaceId, role: current.role, refresh };
    const visible = SECTIONS.filter((s) => RANK[current.role] >= RANK[s.minRole]);
    const rendered = await Promise.all(
      visible.map(async (s) => {
        const panel = h('section', { class: 'panel', 'aria-labelledby': `h-${s.id}` }, h('h2', { id: `h-${s.id}` }, s.title));
        try {
          panel.append(await s.render(ctx));
        } catch (err) {
          panel.append(errorBox((err as Error).message));
        }
        return panel;
      }),
    );
    const keep = document.getElementById('key-area')?.querySelector('.newkey');
    sections.replaceChildren(...rendered);
    if (keep) document.getElementById('key-area')?.replaceChildren(keep);
  };
  picker.addEventListener('change', () => {
    current = me.memberships.find((m) => m.workspaceId === picker.value) ?? current;
    void refresh();
  });
  app().replaceChildren(h('label', {}, 'Workspace ', picker), h('p', { class: 'note' }, `Your role: ${current.role}`), sections);
  await refresh();
}

main().catch((err: Error) => app().replaceChildren(errorBox(err.message)));
