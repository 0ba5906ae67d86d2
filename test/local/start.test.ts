// Shares the machine with the other test files (no run-alone mark): its npm start has its own DynamoDB Local, free
// ports and a DATA_DIR of its own; the one chosen port, the default OIDC_PORT 3001, is outside the kernel's ephemeral
// range freePort draws from, and every other npm start of the suite sets OIDC_PORT=0 (test/local/npm-start.ts).
// Its one wait on time is a lower bound (the 2 s authorizer cache waited out).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/dynamodb';
import { listeningAddresses } from './npm-start';

/**
 * `npm start` as a developer runs it: its own DynamoDB Local with data under DATA_DIR, a demo key
 * printed once, the admin CLI against the same DynamoDB, the authorizer cache honoured, Ctrl-C
 * stopping both processes, and data surviving a restart.
 */
const ROOT = join(__dirname, '../..');
const TSX = require.resolve('tsx/cli');

function startApi(env: Record<string, string>): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  const child = spawn(process.execPath, [TSX, 'local/start.ts'], { cwd: ROOT, env: { ...process.env, ...env, TABLE_NAME: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += String(d);
      if (out.includes('Ctrl-C stops both.')) resolve(); // the last line it prints
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (out += String(d)));
    child.on('exit', (code) => reject(new Error(`npm start exited early (${code}):\n${out}`)));
  });
  return { child, output: () => out, ready };
}

function admin(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX, 'admin/cli.ts', ...args], { cwd: ROOT, env: { ...process.env, TABLE_NAME: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a command line exactly as npm start printed it (a shell, the repository as working directory). */
function shell(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], { cwd: ROOT, env: { ...process.env, TABLE_NAME: '', DYNAMODB_ENDPOINT: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
/** The command lines npm start printed (indented lines that start a command). */
const printedCommands = (output: string) =>
  output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(curl |DYNAMODB_ENDPOINT=)/.test(l));

const stopped = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (c) => resolve(c))));

async function portOpen(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`);
    return true;
  } catch {
    return false;
  }
}

test('npm start: demo key, admin CLI keys, revocation after the cache time, Ctrl-C, restart keeps data', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tt-data-'));
  const port = await freePort();
  const dynamoPort = await freePort();
  const env = { PORT: String(port), DYNAMODB_PORT: String(dynamoPort), DATA_DIR: dataDir, AUTH_CACHE_TTL_SECONDS: '2', DYNAMODB_ENDPOINT: '' };
  const base = `http://127.0.0.1:${port}`;
  try {
    const first = startApi(env);
    await first.ready;
    const demoKey = first.output().match(/svc_live_[0-9A-Za-z]{40}/)?.[0];
    expect(demoKey).toBeDefined();

    // the API keeps to loopback by default; DynamoDB Local (no bind-address option) listens everywhere, and says so
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    expect(listeningAddresses(dynamoPort).every((a) => a === '0.0.0.0' || a === '::')).toBe(true);
    expect(first.output()).toContain(`API listening on ${base} (this machine only; HOST=0.0.0.0 opens it to the network)`);
    expect(first.output()).toContain(`anyone who can reach port ${dynamoPort} of this machine can read and change the table`);
    // run on the Lambda runtime's Node.js major: no AWS SDK end-of-support warning, none silenced
    expect(first.output()).not.toMatch(/NodeVersionSupportWarning|EBADENGINE/);

    const openapi = await fetch(`${base}/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { servers: unknown }).servers).toEqual([{ url: base, 'x-internal': false }]);

    // what it printed: the demo key's limits, the cache time and how to shorten it, and commands that work as printed
    expect(first.output()).toContain('all scopes, 60 requests a minute and 1000 an hour');
    expect(first.output()).toContain('Authorizer cache: 2s (a revoked or changed key takes that long; AUTH_CACHE_TTL_SECONDS=5 npm start shortens it)');
    const commands = printedCommands(first.output());
    // every printed line naming a command is one of those run below
    expect(
      first
        .output()
        .split('\n')
        .filter((l) => /curl |npm run /.test(l))
        .map((l) => l.trim()),
    ).toEqual(commands);
    expect(commands).toEqual(
      [
        `curl -s ${base}/v1/me -H 'X-API-Key: ${demoKey}'`,
        `curl -s ${base}/v1/openapi.json`,
        `DYNAMODB_ENDPOINT=http://127.0.0.1:${dynamoPort} npm run --silent admin -- keys create --workspace demo --name me --scopes all`,
      ].sort((a, b) => first.output().indexOf(a) - first.output().indexOf(b)),
    );
    for (const line of commands) {
      const run = await shell(line);
      expect({ line, code: run.code, stderr: run.stderr }).toEqual({ line, code: 0, stderr: '' });
      if (line.includes('/v1/me')) expect(JSON.parse(run.stdout)).toMatchObject({ workspaceId: 'demo', name: 'Demo key (all scopes)', limits: { perMinute: 60, perHour: 1000 } });
      if (line.includes('keys create')) expect(run.stdout).toMatch(/svc_live_[0-9A-Za-z]{40}/);
    }
    const clients = await fetch(`${base}/v1/clients`, { headers: { 'X-API-Key': demoKey! } });
    expect(clients.status).toBe(200);
    expect(((await clients.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    expect((await fetch(`${base}/v1/nope`)).status).toBe(404);

    const adminEnv = { DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamoPort}` };
    const created = await admin(adminEnv, 'keys', 'create', '--workspace', 'demo', '--name', 'e2e', '--scopes', 'clients:read', '--json');
    expect(created.code).toBe(0);
    const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };
    expect((await fetch(`${base}/v1/clients`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    expect((await fetch(`${base}/v1/clients`, { method: 'POST', headers: { 'X-API-Key': key }, body: '{"name":"x"}' })).status).toBe(403);

    const revoked = await admin(adminEnv, 'keys', 'revoke', id);
    expect(revoked.code).toBe(0);
    await new Promise((r) => setTimeout(r, 2500));
    const after = await fetch(`${base}/v1/clients`, { headers: { 'X-API-Key': key } });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({
      error: {
        code: 'UNAUTHORIZED',
        message: 'Missing or invalid credentials: an API key in X-API-Key, or on the console a sign-in token',
        requestId: after.headers.get('x-request-id'),
      },
    });

    first.child.kill('SIGINT');
    expect(await stopped(first.child)).toBe(0);
    expect(await portOpen(port)).toBe(false);
    expect(await portOpen(dynamoPort)).toBe(false);
    // Ctrl-C says what it stopped
    expect(first.output()).toMatch(
      /Stopped the API \(http:\/\/127\.0\.0\.1:\d+\), the OpenID Provider \(http:\/\/127\.0\.0\.1:\d+\), webhook delivery, the invoice sweep, DynamoDB Local \(pid \d+, port \d+; its data stays in \S+\)\./,
    );
    expect(first.output()).toContain(`port ${dynamoPort}; its data stays in ${dataDir}).`);

    // HOST opens it deliberately: every interface
    const second = startApi({ ...env, HOST: '0.0.0.0' });
    await second.ready;
    expect(listeningAddresses(port)).toEqual(['0.0.0.0']);
    expect(second.output()).toContain(`API listening on ${base} (HOST=0.0.0.0: reachable from the network)`);
    expect(second.output()).not.toMatch(/svc_live_/);
    const again2 = printedCommands(second.output()).find((l) => l.includes('keys create'))!;
    expect(again2).toBe(`DYNAMODB_ENDPOINT=http://127.0.0.1:${dynamoPort} npm run --silent admin -- keys create --workspace demo --name me --scopes all`);
    expect((await shell(again2)).stdout).toMatch(/svc_live_[0-9A-Za-z]{40}/);
    const again = await fetch(`${base}/v1/clients`, { headers: { 'X-API-Key': demoKey! } });
    expect(again.status).toBe(200);
    second.child.kill('SIGINT');
    expect(await stopped(second.child)).toBe(0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 240_000);
