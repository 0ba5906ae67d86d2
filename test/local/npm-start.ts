import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { readState, type StartState } from '../../local/supervisor';

/** Helpers of the test/local suites: `npm start` as a developer runs it, and raw HTTP over a socket. */
export const ROOT = join(__dirname, '../..');
export const TSX = require.resolve('tsx/cli');

export interface RunningApi {
  child: ChildProcess;
  output: () => string;
  ready: Promise<void>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/** `npm start` (tsx local/start.ts) with these variables; ready once it prints that the API listens. */
export function startApi(env: Record<string, string>): RunningApi {
  const child = spawn(process.execPath, [TSX, 'local/start.ts'], {
    cwd: ROOT,
    // OIDC_PORT 0: the embedded OpenID Provider on any free port, so parallel runs never collide on 3001
    env: { ...process.env, DYNAMODB_ENDPOINT: '', OIDC_PORT: '0', ...env, TABLE_NAME: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      if (out.includes('API listening')) resolve();
    });
    child.stderr!.on('data', (d: Buffer) => (out += String(d)));
    void exited.then((code) => reject(new Error(`npm start exited early (${code}):\n${out}`)));
  });
  ready.catch(() => undefined);
  return { child, output: () => out, ready, exited };
}

/** The admin CLI against a DynamoDB endpoint. */
export function admin(endpoint: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX, 'admin/cli.ts', ...args], { cwd: ROOT, env: { ...process.env, TABLE_NAME: '', DYNAMODB_ENDPOINT: endpoint } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** npm start's state file (pids of the server and of DynamoDB Local) under DATA_DIR. */
export const stateOf = (dataDir: string): StartState | undefined => readState(join(dataDir, 'npm-start.json'));

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // a zombie (killed, not yet reaped by its new parent) is no longer running
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface RawAnswer {
  /** undefined when the server closed the connection without answering */
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** how the connection ended: 'close' (FIN) or the socket error's code */
  ended: string;
}

/**
 * Writes bytes to the server over a plain TCP socket (requests no HTTP client would send) and reads
 * until the server closes the connection, or `waitMs` passes; `destroyAfterMs` closes the socket from
 * the client's side (a client that goes away).
 */
export function raw(port: number, data: string | Buffer, opts: { waitMs?: number; destroyAfterMs?: number } = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let ended = 'close';
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => (ended = err.code ?? 'error'));
    const timer = setTimeout(() => {
      ended = 'client-timeout';
      socket.destroy();
    }, opts.waitMs ?? 10_000);
    if (opts.destroyAfterMs !== undefined)
      setTimeout(() => {
        ended = 'client-closed';
        socket.destroy();
      }, opts.destroyAfterMs);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split === -1 ? text : text.slice(0, split);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1];
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: status ? Number(status) : undefined, headers, body: split === -1 ? '' : text.slice(split + 4), ended });
    });
    socket.write(data);
  });
}

/**
 * The local addresses on which something listens on this TCP port, read from the kernel's socket tables
 * (/proc/net/tcp and tcp6, state 0A = LISTEN): '127.0.0.1', '0.0.0.0', '::', '::1', ...
 */
export function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local) continue;
      const [hex = '', portHex = ''] = local.split(':');
      if (parseInt(portHex, 16) !== port) continue;
      if (!v6) found.push(hexToIPv4(hex));
      else if (/^0{32}$/.test(hex)) found.push('::');
      else if (hex === '00000000000000000000000001000000') found.push('::1');
      else if (hex.startsWith('0000000000000000FFFF0000')) found.push(`::ffff:${hexToIPv4(hex.slice(24))}`);
      else found.push(hex);
    }
  }
  return found.sort();
}

/** /proc/net/tcp writes an IPv4 address as 8 hex digits in host (little-endian) byte order. */
const hexToIPv4 = (hex: string) => [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');
