import { withDeadline } from './lib/bounded';
import type { DynamoCounter } from './lib/dynamo-counter';
import { summarize, type Call } from './lib/dynamo-counter';
import { authorizerEvent, type Workspace } from './lib/fixtures';
import { markdownTable, table, type Target } from './lib/report';
import { fmt, median, percentile, ratio } from './lib/stats';

/**
 * Section 11: the console's API key creation and the authorizer resolving a key the console made.
 *
 * A person signs in at the local OpenID Provider (local/oidc-process.ts, the one `npm start` embeds, in a
 * child process: authorization code + PKCE through oauth4webapi, as test/console does), is the
 * workspace's owner, and creates keys with `POST /console/api/workspaces/{id}/api-keys` through the local
 * gateway (the console authorizer verifies the ID token with jose against the provider's JWKS). Each new
 * key is then resolved once by the API's authorizer (functions/authorizer: a cache miss, what API Gateway
 * calls at most once per key per 5 minutes), interleaved with keys made the way the admin CLI makes them
 * (shared/data/apikey-store.ts createApiKey), the baseline: a console-made key must cost the authorizer
 * exactly what any other key costs.
 */
export interface ConsoleBench {
  keys: number;
  create: { calls: Call[][]; ms: number[]; statuses: number[] };
  resolveConsole: { calls: Call[][]; ms: number[] };
  resolveCli: { calls: Call[][]; ms: number[] };
  signInMs: number;
}

/** The provider and one sign-in are bounded: a provider that does not start or answer is named. */
const OIDC_START_MS = 60_000;
const SIGN_IN_MS = 30_000;

export async function measureConsole(counter: DynamoCounter, ws: Workspace, o: { keys: number; progress?: (s: string) => void; signal?: AbortSignal }): Promise<ConsoleBench> {
  const { startOidc, signIn } = await import('../local/oidc-sign-in');
  const { ensureAccount } = await import('../shared/data/accounts');
  const { addMember } = await import('../shared/data/members');
  const { createApiKey } = await import('../shared/data/apikey-store');
  const { createGateway } = await import('../local/gateway');
  const { handler: authorizer } = await import('../functions/authorizer');

  o.progress?.('console: starting the OpenID Provider (local/oidc-process.ts)');
  const oidc = await withDeadline(startOidc(), OIDC_START_MS, 'the OpenID Provider (local/oidc-process.ts) to print its issuer');
  try {
    const email = `bench-owner-${Date.now()}@example.com`;
    const password = `Pw-bench-${Date.now()}`;
    await ensureAccount(email, password);
    await addMember(ws.id, email, 'owner', 'bench');
    const s0 = performance.now();
    const token = await withDeadline(signIn(oidc.issuer, email, password), SIGN_IN_MS, `the sign-in of ${email} at ${oidc.issuer}`);
    const signInMs = performance.now() - s0;
    const gateway = createGateway({ authCacheTtlSeconds: 300 });
    const create = async (name: string) =>
      gateway.handle({
        method: 'POST',
        path: `/console/api/workspaces/${ws.id}/api-keys`,
        query: {},
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, scopes: ['clients:read', 'clients:write'] }),
      });
    // warm-up (not recorded): the console authorizer fetches the provider's JWKS once per container
    const warm = await create('bench warm-up');
    if (warm.status !== 201) throw new Error(`console key creation answered ${warm.status}: ${warm.body.slice(0, 300)}`);

    const result: ConsoleBench = { keys: o.keys, create: { calls: [], ms: [], statuses: [] }, resolveConsole: { calls: [], ms: [] }, resolveCli: { calls: [], ms: [] }, signInMs };
    const resolve = async (key: string, into: { calls: Call[][]; ms: number[] }) => {
      counter.reset();
      counter.enabled = true;
      const t0 = performance.now();
      const res = await authorizer(authorizerEvent(key));
      into.ms.push(performance.now() - t0);
      counter.enabled = false;
      into.calls.push(counter.reset());
      if (res.principalId === undefined) throw new Error('the authorizer did not resolve the key');
    };
    for (let i = 0; i < o.keys; i++) {
      o.signal?.throwIfAborted();
      counter.reset();
      counter.enabled = true;
      const t0 = performance.now();
      const r = await create(`bench ${i}`);
      result.create.ms.push(performance.now() - t0);
      counter.enabled = false;
      result.create.calls.push(counter.reset());
      result.create.statuses.push(r.status);
      if (r.status !== 201) throw new Error(`console key creation ${i} answered ${r.status}: ${r.body.slice(0, 300)}`);
      const consoleKey = (JSON.parse(r.body) as { key: string }).key;
      const cliKey = (await createApiKey({ workspaceId: ws.id, name: `bench cli ${i}`, scopes: ['clients:read', 'clients:write'] })).key;
      // interleaved, alternating which goes first: load on the machine hits both alike
      if (i % 2) {
        await resolve(cliKey, result.resolveCli);
        await resolve(consoleKey, result.resolveConsole);
      } else {
        await resolve(consoleKey, result.resolveConsole);
        await resolve(cliKey, result.resolveCli);
      }
      if (i % 5 === 4) o.progress?.(`console: ${i + 1}/${o.keys} keys made and resolved`);
    }
    return result;
  } finally {
    counter.enabled = false;
    await withDeadline(oidc.stop(), 10_000, 'the OpenID Provider to exit').catch(() => undefined);
  }
}

/** Median per request of a figure over the requests' calls. */
const per = (reqs: Call[][], f: (s: ReturnType<typeof summarize>) => number) => median(reqs.map((c) => f(summarize(c))));
const commandsOf = (reqs: Call[][]) => {
  const seen = new Map<string, number>();
  for (const c of reqs) {
    const k = summarize(c).commands.join(' + ') + (summarize(c).rateCalls ? ` + ${summarize(c).rateCalls} RL` : '');
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  return [...seen]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => (seen.size > 1 ? `${k} (${n}x)` : k))
    .join('; ');
};

/** Key creation: the person's role read (the console authorizer) + one transaction (bound counter, key, audit). */
export const CONSOLE_TARGETS = {
  create: 'membership GetItem + 1 TransactWriteItems (<= 2 data calls) + RL write',
  resolve: 'GetItem by hash + lastUsedAt UpdateItem (<= 2 calls), the same as a CLI-made key',
  timeRatio: 1.25,
} as const;

export function formatConsole(b: ConsoleBench, targets: Target[]): { text: string; markdown: string } {
  const header = ['request', 'requests', 'DynamoDB calls (each request)', 'calls', 'RCU', 'WCU', 'p50 ms', 'p90 ms'];
  const row = (name: string, r: { calls: Call[][]; ms: number[] }) => [
    name,
    String(r.ms.length),
    commandsOf(r.calls),
    fmt(
      per(r.calls, (s) => s.dataCalls + s.rateCalls),
      0,
    ),
    fmt(
      per(r.calls, (s) => s.rcu),
      1,
    ),
    fmt(
      per(r.calls, (s) => s.wcu),
      1,
    ),
    fmt(median(r.ms), 1),
    fmt(percentile(r.ms, 90), 1),
  ];
  const rows = [
    row('POST /console/api/workspaces/{id}/api-keys (signed-in owner)', b.create),
    row('authorizer: a console-made key (cache miss)', b.resolveConsole),
    row('authorizer: a CLI-made key (cache miss, baseline)', b.resolveCli),
  ];
  // targets: what each request may call, and that a console-made key costs the authorizer what any key costs
  const createCalls = b.create.calls.map((c) => c.filter((x) => !x.rate));
  const createOk =
    createCalls.every(
      (c) => c.length <= 2 && c.filter((x) => x.command === 'TransactWriteItems').length === 1 && c.every((x) => x.command === 'TransactWriteItems' || x.command === 'GetItem'),
    ) && b.create.calls.every((c) => c.filter((x) => x.rate).length <= 1);
  targets.push({
    section: '11 console',
    name: 'console key creation: DynamoDB calls per request',
    figure: `${commandsOf(b.create.calls)}; ${fmt(
      per(b.create.calls, (s) => s.wcu),
      1,
    )} WCU, p50 ${fmt(median(b.create.ms), 1)} ms`,
    target: CONSOLE_TARGETS.create,
    met: createOk && b.create.calls.length > 0,
  });
  const sig = (c: Call[]) => c.map((x) => `${x.command}/${x.rcu}/${x.wcu}`).join(',');
  const same = b.resolveConsole.calls.length > 0 && b.resolveConsole.calls.every((c, i) => b.resolveCli.calls[i] !== undefined && sig(c) === sig(b.resolveCli.calls[i]!));
  const resolveOk = b.resolveConsole.calls.every((c) => c.length <= 2 && c.every((x) => x.command === 'GetItem' || x.command === 'UpdateItem'));
  targets.push({
    section: '11 console',
    name: 'authorizer resolving a console-made key: calls and capacity',
    figure: `${commandsOf(b.resolveConsole.calls)}, ${fmt(
      per(b.resolveConsole.calls, (s) => s.rcu),
      1,
    )} RCU + ${fmt(
      per(b.resolveConsole.calls, (s) => s.wcu),
      1,
    )} WCU (CLI-made: ${commandsOf(b.resolveCli.calls)}, ${fmt(
      per(b.resolveCli.calls, (s) => s.rcu),
      1,
    )} RCU + ${fmt(
      per(b.resolveCli.calls, (s) => s.wcu),
      1,
    )} WCU)${same ? '' : '; DIFFERENT from a CLI-made key'}`,
    target: CONSOLE_TARGETS.resolve,
    met: same && resolveOk,
  });
  const tr = ratio(median(b.resolveConsole.ms), median(b.resolveCli.ms));
  targets.push({
    section: '11 console',
    name: 'authorizer time, console-made / CLI-made key (p50, interleaved)',
    figure: `${fmt(tr)} (${fmt(median(b.resolveConsole.ms), 1)} vs ${fmt(median(b.resolveCli.ms), 1)} ms)`,
    target: `<= ${CONSOLE_TARGETS.timeRatio}`,
    met: tr <= CONSOLE_TARGETS.timeRatio,
  });
  const note = `${b.keys} keys made through the console's API by a signed-in owner (local OpenID Provider, ID token verified by the console authorizer with jose; sign-in took ${fmt(b.signInMs, 0)} ms, once; one unrecorded warm-up creation fetched the provider's JWKS), each resolved once by the API's authorizer (functions/authorizer, in process: a cache miss, as API Gateway calls it at most once per key per 5 minutes), interleaved with as many keys made as the admin CLI makes them. Calls, RCU and WCU per request (median; computed from item sizes, bench/lib/capacity.ts: a transaction 2 WCU per KB per item); times against DynamoDB Local on this machine. Key creation: the console authorizer reads the person's role (GetItem), the route writes the 500-active-key counter, the key record and its audit entry in one TransactWriteItems. RL = the console's per-person rate limit (shared/console/handler.ts: one conditional UpdateItem on RATE#person#<hash>, 1 WCU); key creation writes no change event (keys are not records of the feed).`;
  return { text: `${table(header, rows)}\n${note}`, markdown: `${markdownTable(header, rows)}\n\n${note}` };
}
