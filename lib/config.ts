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
  /**
   * Method throttling of the public routes (GET /v1/openapi.json, /v1/docs, its script): anonymous
   * callers get their own, smaller bucket, so they cannot use up the stage throttle the integrations share.
   */
  readonly publicThrottling: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * AWS WAF (lib/waf.ts): `enabled` (prod always; dev only with `-c waf=true`), `ipRateLimit` = requests per
   * IP per 5 minutes of the rate-based rule (`-c wafIpRateLimit=N`), `countOnly` = the rate rule and the
   * managed rule groups count instead of blocking (`-c wafCountOnly=true`, to watch before enforcing).
   */
  readonly waf: { readonly enabled: boolean; readonly ipRateLimit: number; readonly countOnly: boolean };
  /**
   * Cognito's e-mail (invitations, codes): `sesFromAddress` set = through Amazon SES from that verified address
   * (prod; `-c sesFromAddress=no-reply@example.com`), unset = Cognito's default sender (dev: its daily quota is low).
   */
  readonly cognitoEmail: { readonly sesFromAddress?: string };
  /** Days the AWS Backup plan keeps the table's backups (prod: the audit log's 400-day promise; unset: no plan). */
  readonly backupRetentionDays?: number;
  /**
   * Concurrency of webhook delivery (docs/capacity.md, "Concurrency"): the sender's SQS trigger is capped
   * at `senderMaxConcurrency` (SQS maximum concurrency) and the sender and dispatcher get reserved
   * concurrency, so a backlog towards slow receivers cannot take the account's concurrency from the API
   * and the authorizer (and is guaranteed its own share).
   */
  readonly webhookConcurrency: { readonly senderMaxConcurrency: number; readonly senderReserved?: number; readonly dispatcherReserved?: number };
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
    publicThrottling: { rateLimit: 5, burstLimit: 10 },
    waf: { enabled: false, ipRateLimit: 2000, countOnly: false },
    cognitoEmail: {},
    // No reserved concurrency in dev: a sandbox account's concurrency quota may be 10, and Lambda keeps 100 unreserved.
    webhookConcurrency: { senderMaxConcurrency: 5 },
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
    publicThrottling: { rateLimit: 20, burstLimit: 40 },
    waf: { enabled: true, ipRateLimit: 2000, countOnly: false },
    // A placeholder: deploying prod needs -c sesFromAddress=<an address of a domain verified in SES> (docs/operations.md).
    cognitoEmail: { sesFromAddress: 'no-reply@example.com' },
    backupRetentionDays: 400,
    webhookConcurrency: { senderMaxConcurrency: 50, senderReserved: 50, dispatcherReserved: 10 },
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
  /** Requests per IP per 5 minutes above which AWS WAF answers 429 (`-c wafIpRateLimit=2000`, the default). */
  wafIpRateLimit?: unknown;
  /** `true`: a web ACL in dev too (prod always has one). */
  waf?: unknown;
  /** `true`: the WAF's rate rule and managed groups count, not block. */
  wafCountOnly?: unknown;
  /** The verified SES address Cognito sends from (prod). */
  sesFromAddress?: unknown;
}

const asBool = (v: unknown): boolean | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new Error(`Expected true or false, got ${JSON.stringify(v)}`);
};

export function stageConfig(
  stage: StageName,
  overrides: {
    alarmEmail?: string;
    tracing?: boolean;
    logLevel?: LogLevel;
    corsOrigins?: readonly string[];
    wafIpRateLimit?: number;
    waf?: boolean;
    wafCountOnly?: boolean;
    sesFromAddress?: string;
  } = {},
): StageConfig {
  const base = BASE[stage];
  return {
    ...base,
    waf: {
      enabled: stage === 'prod' || (overrides.waf ?? base.waf.enabled),
      ipRateLimit: overrides.wafIpRateLimit ?? base.waf.ipRateLimit,
      countOnly: overrides.wafCountOnly ?? base.waf.countOnly,
    },
    ...(overrides.sesFromAddress !== undefined ? { cognitoEmail: { sesFromAddress: overrides.sesFromAddress } } : {}),
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
  const rate = ctx.wafIpRateLimit;
  // AWS WAF's rate-based rules take 10 to 2,000,000,000 requests per evaluation window.
  if (rate !== undefined && !(/^\d+$/.test(String(rate)) && Number(rate) >= 10 && Number(rate) <= 2_000_000_000)) {
    throw new Error(`wafIpRateLimit must be a whole number of requests per IP per 5 minutes (10 or more), got ${JSON.stringify(rate)}`);
  }
  const waf = asBool(ctx.waf);
  const wafCountOnly = asBool(ctx.wafCountOnly);
  const ses = ctx.sesFromAddress;
  if (ses !== undefined && (typeof ses !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(ses)))
    throw new Error(`sesFromAddress must be an e-mail address, got ${JSON.stringify(ses)}`);
  return stageConfig(stage, {
    ...(rate !== undefined ? { wafIpRateLimit: Number(rate) } : {}),
    ...(waf !== undefined ? { waf } : {}),
    ...(wafCountOnly !== undefined ? { wafCountOnly } : {}),
    ...(typeof ses === 'string' ? { sesFromAddress: ses } : {}),
    ...(origins ? { corsOrigins: origins } : {}),
    ...(typeof alarmEmail === 'string' ? { alarmEmail } : {}),
    ...(tracing !== undefined ? { tracing } : {}),
    ...(typeof logLevel === 'string' ? { logLevel: logLevel as LogLevel } : {}),
  });
}
