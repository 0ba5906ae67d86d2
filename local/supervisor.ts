import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startDynamoDbLocal, type LocalDynamo, type StartOptions } from './dynamodb';

/**
 * npm start's DynamoDB Local, supervised:
 * - when it dies, `available()` is false at once (the local gateway answers 503 SERVICE_UNAVAILABLE with
 *   Retry-After meanwhile) and it is restarted on the same port and data directory, after a backoff that
 *   grows with each consecutive failure; after the last attempt of the backoff it gives up loudly
 *   (onGiveUp). An instance that ran for `stableMs` resets the count, so only a crash loop gives up;
 * - its pid and port, and the server's pid, are recorded in a state file under DATA_DIR from the moment
 *   Java is spawned, so that if the server dies without stopping it (SIGKILL), the next npm start finds
 *   it and stops it (takeOver) instead of failing on a taken port.
 */
export interface StartState {
  server: { pid: number };
  dynamodb?: { pid: number; port: number; dbPath: string };
  updatedAt: string;
}

export interface SupervisedDynamo {
  readonly endpoint: string;
  readonly port: number;
  /** false from the moment DynamoDB Local exits until a restarted one answers. */
  available(): boolean;
  /** The running DynamoDB Local's pid (undefined while down). */
  pid(): number | undefined;
  /** How many DynamoDB Local processes were spawned so far: a change means the one that answered before is gone. */
  instance(): number;
  /** Stops DynamoDB Local and any restart under way; removes the state file. */
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  port: number;
  /** DynamoDB Local's data directory (-dbPath). */
  dbPath: string;
  /** Where the pids are recorded (npm start: DATA_DIR/npm-start.json). */
  stateFile?: string;
  /** Delays before each restart attempt after consecutive failures; after the last one it gives up. */
  backoffMs?: readonly number[];
  /** An instance that stayed up this long resets the failure count. */
  stableMs?: number;
  /** Called once when it gives up (npm start stops the server and exits 1). */
  onGiveUp(err: Error): void;
  /** For tests: how an instance is started (default startDynamoDbLocal). */
  start?: (opts: StartOptions) => Promise<LocalDynamo>;
  log?: { info(message: string): void; error(message: string): void };
}

export const DEFAULT_BACKOFF_MS: readonly number[] = [0, 500, 1000, 2000, 4000];
const DEFAULT_STABLE_MS = 60_000;

export async function superviseDynamoDbLocal(opts: SuperviseOptions): Promise<SupervisedDynamo> {
  const start = opts.start ?? startDynamoDbLocal;
  const backoff = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
  const stableMs = opts.stableMs ?? DEFAULT_STABLE_MS;
  const log = opts.log ?? { info: (m: string) => console.log(m), error: (m: string) => console.error(m) };
  const { port, dbPath } = opts;

  let current: LocalDynamo | undefined;
  let spawning: ChildProcess | undefined;
  let up = false;
  let stopping = false;
  let failures = 0;
  let wake: (() => void) | undefined;
  let restarting: Promise<void> | undefined;
  let spawned = 0;

  const record = (pid: number | undefined) => {
    if (opts.stateFile) writeState(opts.stateFile, { server: { pid: process.pid }, ...(pid ? { dynamodb: { pid, port, dbPath } } : {}), updatedAt: new Date().toISOString() });
  };

  const launch = async (): Promise<LocalDynamo> => {
    const dynamo = await start({
      port,
      dataDir: dbPath,
      onSpawn: (child) => {
        spawned++;
        spawning = child;
        record(child.pid);
      },
    });
    spawning = undefined;
    if (stopping) {
      await dynamo.stop();
      throw new Error('stopped');
    }
    current = dynamo;
    up = true;
    const startedAt = Date.now();
    dynamo.process.once('exit', (code, signal) => {
      if (stopping || current !== dynamo) return;
      up = false;
      current = undefined;
      if (Date.now() - startedAt >= stableMs) failures = 0;
      log.error(
        `DynamoDB Local (pid ${dynamo.process.pid}) exited (${signal ?? `code ${code}`}): the API answers 503 SERVICE_UNAVAILABLE until it is back; restarting it on port ${port} with the same data.`,
      );
      restarting = restart(Date.now());
    });
    return dynamo;
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function restart(downSince: number): Promise<void> {
    let lastError: Error | undefined;
    while (!stopping) {
      if (failures >= backoff.length) {
        const err = new Error(`DynamoDB Local could not be kept running: ${failures} restarts failed in a row${lastError ? ` (last: ${lastError.message.split('\n')[0]})` : ''}`);
        log.error(`\n*** Giving up: ${err.message}. Stopping the API. Data is in ${dbPath}. ***\n`);
        opts.onGiveUp(err);
        return;
      }
      const delay = backoff[failures]!;
      failures++;
      if (delay > 0) await sleep(delay);
      if (stopping) return;
      try {
        const dynamo = await launch();
        log.info(`DynamoDB Local is back (pid ${dynamo.process.pid}, port ${port}) ${Date.now() - downSince} ms after it went down (restart attempt ${failures}).`);
        return;
      } catch (err) {
        if (stopping) return;
        lastError = err as Error;
        log.error(`DynamoDB Local restart attempt ${failures} of ${backoff.length} failed: ${lastError.message.split('\n')[0]}`);
      }
    }
  }

  const first = await launch();
  return {
    endpoint: first.endpoint,
    port,
    available: () => up && !stopping,
    pid: () => (up ? current?.process.pid : undefined),
    instance: () => spawned,
    async stop() {
      if (stopping) return;
      stopping = true;
      up = false;
      wake?.();
      spawning?.kill('SIGKILL');
      await current?.stop();
      await restarting;
      if (opts.stateFile) rmSync(opts.stateFile, { force: true });
    },
  };
}

export function readState(file: string): StartState | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StartState;
  } catch {
    return undefined;
  }
}

function writeState(file: string, state: StartState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n');
  renameSync(tmp, file);
}

/** A process's command line ('' for a zombie, undefined when it does not exist or cannot be read). */
function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    // not Linux, or no such process
  }
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

const isDynamoDbLocal = (pid: number, dbPath: string) => {
  const cmd = commandLineOf(pid);
  return cmd !== undefined && cmd.includes('DynamoDBLocal.jar') && cmd.includes(dbPath);
};
const isStartServer = (pid: number) => {
  const cmd = commandLineOf(pid);
  return cmd !== undefined && /\bnode\b/.test(cmd) && /local[/\\]start\.ts\b/.test(cmd);
};

async function terminate(pid: number, stillThere: () => boolean): Promise<void> {
  for (const [signal, waitMs] of [
    ['SIGTERM', 5000],
    ['SIGKILL', 5000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // gone already
    }
    for (const deadline = Date.now() + waitMs; Date.now() < deadline;) {
      if (!stillThere()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`could not stop process ${pid}`);
}

/**
 * Before npm start starts DynamoDB Local on a data directory: a server still running on it is an error
 * (two would share one database); a DynamoDB Local left by a server that died without stopping it is
 * stopped (its pid and command line must still match: a pid reused by another process is left alone).
 * Returns the port the stopped one held, if any.
 */
export async function takeOver(stateFile: string, log: (message: string) => void = (m) => console.log(m)): Promise<number | undefined> {
  const state = readState(stateFile);
  if (!state) return undefined;
  const serverPid = state.server?.pid;
  if (serverPid && serverPid !== process.pid && isStartServer(serverPid)) {
    throw new Error(`Another npm start (pid ${serverPid}) is running with this DATA_DIR (${dirname(stateFile)}): stop it first (Ctrl-C in its terminal, or kill ${serverPid}).`);
  }
  const dynamo = state.dynamodb;
  if (dynamo && isDynamoDbLocal(dynamo.pid, dynamo.dbPath)) {
    log(`Found DynamoDB Local left running by a previous npm start that did not stop (pid ${dynamo.pid}, port ${dynamo.port}): stopping it.`);
    await terminate(dynamo.pid, () => isDynamoDbLocal(dynamo.pid, dynamo.dbPath));
  }
  rmSync(stateFile, { force: true });
  return dynamo && Number.isInteger(dynamo.port) ? dynamo.port : undefined;
}
