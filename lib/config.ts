import { corsOrigins } from '../shared/api/gateway-edge';
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export const STAGES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGES)[number];
export const isStageName = (v: unknown): v is StageName => typeof v === 'string' && (STAGES as readonly string[]).includes(v);

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

/** Everything that differs between stages, in one typed object. */
export interface StageConfig {
  readonly stage: StageName;
  /** Applied to the table, the cursor secret and the log groups. */
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly pointInTimeRecovery: boolean;
  /** Days of point-in-time recovery kept (1-35). */
  readonly pitrRecoveryPeriodDays: number;
  readonly logRetention: RetentionDays;
  /** POWERTOOLS_LOG_LEVEL of every function. */
  readonly logLevel: LogLevel;
  /** X-Ray active tracing on the functions and the API stage. */
  readonly tracing: boolean;
  /**
   * API Gateway stage throttling: a guard for the whole API in front of the per-key limits (which the
   * handlers enforce). Over it, API Gateway answers 429 THROTTLED.
   */
  readonly throttling: { readonly rateLimit: number; readonly burstLimit: number };
  readonly alarms: {
    /** 5xx responses / all responses over one minute. */
    readonly serverErrorRate: number;
    /** p99 of API Gateway Latency, milliseconds. */
    readonly latencyP99Ms: number;
    /** Optional e-mail subscribed to the alarm topic. */
    readonly email?: string;
  };
  readonly lambda: {
    /** Memory of the resource functions (MB); the authorizer and openapi functions use less. */
    readonly memorySize: number;
  };
  /** Origins browsers may call the API from (CORS_ORIGINS; `*` by default: keys travel in a header, no cookies). */
  readonly corsOrigins: readonly string[];
}

const BASE: Record<StageName, StageConfig> = {
  dev: {
    stage: 'dev',
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    // Cheap, and it lets the restore runbook be rehearsed on dev.
    pointInTimeRecovery: true,
    pitrRecoveryPeriodDays: 7,
    logRetention: RetentionDays.ONE_WEEK,
    logLevel: 'DEBUG',
    tracing: false,
    throttling: { rateLimit: 50, burstLimit: 100 },
    alarms: { serverErrorRate: 0.05, latencyP99Ms: 3000 },
    lambda: { memorySize: 512 },
    corsOrigins: ['*'],
  },
  prod: {
    stage: 'prod',
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    pointInTimeRecovery: true,
    pitrRecoveryPeriodDays: 35,
    logRetention: RetentionDays.THREE_MONTHS,
    logLevel: 'INFO',
    tracing: true,
    throttling: { rateLimit: 500, burstLimit: 1000 },
    alarms: { serverErrorRate: 0.01, latencyP99Ms: 2000 },
    lambda: { memorySize: 1024 },
    corsOrigins: ['*'],
  },
};

/** Context keys read by {@link stageConfigFromContext} (`cdk synth -c stage=prod -c alarmEmail=ops@example.com`). */
export interface StageContext {
  stage?: unknown;
  alarmEmail?: unknown;
  tracing?: unknown;
  logLevel?: unknown;
  /** Comma list of origins, or `*` (`-c corsOrigins=https://app.example.com,https://admin.example.com`). */
  corsOrigins?: unknown;
}

const asBool = (v: unknown): boolean | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new Error(`Expected true or false, got ${JSON.stringify(v)}`);
};

export function stageConfig(stage: StageName, overrides: { alarmEmail?: string; tracing?: boolean; logLevel?: LogLevel; corsOrigins?: readonly string[] } = {}): StageConfig {
  const base = BASE[stage];
  return {
    ...base,
    ...(overrides.corsOrigins ? { corsOrigins: overrides.corsOrigins } : {}),
    ...(overrides.tracing !== undefined ? { tracing: overrides.tracing } : {}),
    ...(overrides.logLevel ? { logLevel: overrides.logLevel } : {}),
    alarms: { ...base.alarms, ...(overrides.alarmEmail ? { email: overrides.alarmEmail } : {}) },
  };
}

export function stageConfigFromContext(ctx: StageContext): StageConfig {
  const stage = ctx.stage ?? 'dev';
  if (!isStageName(stage)) throw new Error(`Unknown stage ${JSON.stringify(stage)}: use -c stage=${STAGES.join('|')}`);
  const alarmEmail = ctx.alarmEmail;
  if (alarmEmail !== undefined && (typeof alarmEmail !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(alarmEmail))) {
    throw new Error(`alarmEmail must be an e-mail address, got ${JSON.stringify(alarmEmail)}`);
  }
  const logLevel = ctx.logLevel;
  if (logLevel !== undefined && !(typeof logLevel === 'string' && (LOG_LEVELS as readonly string[]).includes(logLevel))) {
    throw new Error(`logLevel must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const tracing = asBool(ctx.tracing);
  if (ctx.corsOrigins !== undefined && typeof ctx.corsOrigins !== 'string') throw new Error('corsOrigins must be a comma list of origins, or *');
  const origins = typeof ctx.corsOrigins === 'string' ? corsOrigins(ctx.corsOrigins) : undefined;
  return stageConfig(stage, {
    ...(origins ? { corsOrigins: origins } : {}),
    ...(typeof alarmEmail === 'string' ? { alarmEmail } : {}),
    ...(tracing !== undefined ? { tracing } : {}),
    ...(typeof logLevel === 'string' ? { logLevel: logLevel as LogLevel } : {}),
  });
}
