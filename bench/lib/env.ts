import { loadavg } from 'node:os';
import { closeSync, openSync, writeSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { LocalDynamo } from '../../local/dynamodb';

/**
 * The environment every part of the benchmark runs with: the settings the stack gives a prod function
 * (INFO logs, EMF metrics on, no tracing) plus DynamoDB Local. Set before any handler module is loaded.
 */
export const BENCH_TABLE = 'bench_timetrack';
export function benchEnv(endpoint: string): Record<string, string> {
  return {
    TABLE_NAME: BENCH_TABLE,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: 'local',
    CURSOR_SECRET: 'bench-cursor-secret',
    // the webhook signing key ring (shared/data/secrets.ts: WEBHOOK_SECRET_KEYS locally, a secret on AWS)
    WEBHOOK_SECRET_KEYS: JSON.stringify({ current: 'bench1', bench1: 'bench-webhook-key-not-for-production' }),
    STAGE: 'bench',
    POWERTOOLS_SERVICE_NAME: 'time-tracking-bench',
    POWERTOOLS_METRICS_NAMESPACE: 'TimeTracking',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    LOG_LEVEL: 'INFO',
    POWERTOOLS_TRACE_DISABLED: 'true',
    POWERTOOLS_DEV: 'false',
    POWERTOOLS_METRICS_DISABLED: 'false',
    DYNAMODB_MAX_ATTEMPTS: '3',
  };
}

/** Starts DynamoDB Local (in memory, free port), sets the bench environment and creates the table. */
export async function startBench(): Promise<LocalDynamo> {
  const { startDynamoDbLocal } = await import('../../local/dynamodb');
  const dynamo = await startDynamoDbLocal();
  Object.assign(process.env, benchEnv(dynamo.endpoint));
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { dynamoConfig, tableName } = await import('../../shared/data/db');
  const { ensureTable } = await import('../../shared/data/setup');
  const admin = new DynamoDBClient(dynamoConfig());
  await ensureTable(admin, tableName());
  admin.destroy();
  return dynamo;
}

/**
 * Runs one section of `npm run bench` alone (bench/*-only.ts): its own DynamoDB Local, the small seeded
 * workspace, stdout muted while measuring, the load average printed before and after.
 */
export async function runSectionAlone(measure: (ws: import('./fixtures').Workspace) => Promise<void>): Promise<void> {
  const load0 = loadavg();
  const dynamo = await startBench();
  const unmute = muteStdout();
  try {
    const { createWorkspace } = await import('./fixtures');
    await measure(await createWorkspace('bench-ws'));
    out(
      `load average ${load0.map((x) => x.toFixed(2)).join(' / ')} at the start, ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' / ')} at the end`,
    );
  } finally {
    unmute();
    await dynamo.stop();
  }
}

type ArgOptions = NonNullable<ParseArgsConfig['options']>;
/** The parsed option values of a bench/*-only.ts script (node:util parseArgs). */
export type ArgValues<O extends ArgOptions> = ReturnType<typeof parseArgs<{ options: O }>>['values'];

/**
 * What every bench/*-only.ts script does with its command line: parses `options` (node:util parseArgs),
 * lets `read` turn the values into the section's settings (undefined when they are not valid), and on
 * invalid values prints `usage` to stderr and exits 2.
 */
export function sectionArgs<const O extends ArgOptions, S>(usage: string, options: O, read: (values: ArgValues<O>) => S | undefined): S {
  const settings = read(parseArgs({ options }).values);
  if (settings === undefined) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return settings;
}

/** A section's progress lines, on stderr (stdout carries the report). */
export const progress = (line: string): void => void process.stderr.write(`  ${line}\n`);

/** {@link runSectionAlone} as a script's main: a failure is printed and the process exits 1. */
export function runScript(measure: Parameters<typeof runSectionAlone>[0]): void {
  runSectionAlone(measure).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/**
 * The handlers log (Powertools logger, EMF metrics) to stdout as on Lambda. While measuring in process,
 * stdout goes to /dev/null (still one write per line, as on Lambda) and the report is printed through
 * `out`, which keeps the real stdout.
 */
const realWrite = process.stdout.write.bind(process.stdout);
export const out = (line = ''): void => {
  realWrite(line + '\n');
};
let devNull: number | undefined;
export function muteStdout(): () => void {
  devNull ??= openSync('/dev/null', 'w');
  const fd = devNull;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk === 'string') writeSync(fd, chunk);
    else writeSync(fd, chunk);
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    cb?.();
    return true;
  }) as typeof process.stdout.write;
  return () => {
    process.stdout.write = realWrite as typeof process.stdout.write;
    if (devNull !== undefined) closeSync(devNull);
    devNull = undefined;
  };
}
