import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { isScope, SCOPES, type Scope } from '../shared/api/routes';
import { dynamoConfig, LOCAL_TABLE_NAME } from '../shared/data/db';
import { ADMIN_CLI, createApiKey, listApiKeys, revokeApiKey, updateApiKeyLimits } from '../shared/data/apikey-store';
import { ensureAccount } from '../shared/data/accounts';
import { addMember, getMembership, listMembers, removeMember } from '../shared/data/members';
import { inviteCognitoUser, inviteToSignIn } from '../shared/services/sign-in-invitations';
import { isRole } from '../shared/domain/roles';
import { ensureTable } from '../shared/data/setup';
import { isValidWorkspaceId, keyState } from '../shared/domain/apikeys';
import { seedWorkspace } from '../shared/seed/seed';
import { LOCAL_WEBHOOK_KEY_RING } from '../shared/data/secrets';
import { reencryptSecrets } from '../shared/webhooks/store';

/**
 * Operator CLI: `npm run --silent admin -- <command>`. Talks to DynamoDB directly: DynamoDB Local
 * with DYNAMODB_ENDPOINT (table `timetrack-local` unless TABLE_NAME says otherwise), or a deployed
 * stack's table with AWS credentials and TABLE_NAME. Bad arguments exit with code 2.
 */
export const USAGE = `Usage: npm run --silent admin -- <command>

  keys create --workspace W --name N --scopes S [--per-minute N] [--per-hour N] [--expires ISO] [--json]
      S is a comma list of scopes (${SCOPES.slice(0, 2).join(', ')}, ...) or "all". Prints the key once.
  keys list --workspace W [--json]
  keys revoke ID [--json]
  keys update ID [--per-minute N] [--per-hour N] [--json]
  seed --workspace W [--time-entries N] [--invoices N] [--json]
  webhooks reencrypt [--json]
      Seals every stored webhook secret under the key ring's current key; prints how many ciphertexts each
      key id still seals (a key that seals none may be removed from the ring). Needs WEBHOOK_KEYS_SECRET_ARN
      (AWS: the WebhookKeysSecretArn output) or WEBHOOK_SECRET_KEYS.
  members add --workspace W --email E --role owner|admin|viewer [--json]
      Locally: also creates the sign-in account of npm start's OpenID Provider with a generated password,
      printed once. In AWS (USER_POOL_ID set): creates the Cognito user, which Cognito invites by e-mail.
  members invite --workspace W --email E [--json]
      a new one-time link to set a password (local provider, valid 7 days; OIDC_PORT or CONSOLE_ISSUER says
      where it runs); in AWS (USER_POOL_ID set): Cognito sends the invitation again.
  members list --workspace W [--json]
  members remove --workspace W --email E

Environment: DYNAMODB_ENDPOINT (local DynamoDB), TABLE_NAME (required for AWS), USER_POOL_ID (AWS: the stack
output UserPoolId, for members add), AWS credentials/region.`;

export class UsageError extends Error {}

function positiveInt(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`${flag} must be a positive integer, got "${v}"`);
  return Number(v);
}
function nonNegativeInt(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`${flag} must be a whole number, got "${v}"`);
  return Number(v);
}
function workspace(v: string | undefined): string {
  const id = required(v, '--workspace');
  if (!isValidWorkspaceId(id)) throw new UsageError(`--workspace must be 1-64 characters of letters, digits, '_', '.' or '-' (starting with a letter or digit), got "${id}"`);
  return id;
}
function required(v: string | undefined, flag: string): string {
  if (!v || !v.trim()) throw new UsageError(`${flag} is required`);
  return v.trim();
}
export function parseScopes(s: string): Scope[] {
  if (s.trim() === 'all') return [...SCOPES] as Scope[];
  const list = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length === 0) throw new UsageError('--scopes needs at least one scope, or "all"');
  const bad = list.filter((x) => !isScope(x));
  if (bad.length) throw new UsageError(`Unknown scope(s): ${bad.join(', ')}. Valid: ${SCOPES.join(', ')}, or all`);
  return list as Scope[];
}
function parseExpiry(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t)) throw new UsageError(`--expires must be an ISO 8601 date or date-time, got "${v}"`);
  return new Date(t).toISOString();
}

type Out = { json: boolean; print: (human: string, data: unknown) => void };

export async function run(argv: string[], log: (s: string) => void = console.log): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      workspace: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      'per-minute': { type: 'string' },
      'per-hour': { type: 'string' },
      expires: { type: 'string' },
      'time-entries': { type: 'string' },
      invoices: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || positionals.length === 0) {
    log(USAGE);
    return values.help ? 0 : 2;
  }
  // A group without its subcommand (`keys`) prints the usage of that group, before any DynamoDB set-up is needed.
  if (positionals[0] === 'keys' && positionals.length === 1) {
    log(
      USAGE.split('\n')
        .filter((l) => l.startsWith('Usage:') || /^ {2}keys |^ {6}/.test(l))
        .join('\n'),
    );
    return 2;
  }
  const out: Out = { json: values.json ?? false, print: (human, data) => log(values.json ? JSON.stringify(data, null, 2) : human) };
  if (process.env.DYNAMODB_ENDPOINT) process.env.TABLE_NAME ||= LOCAL_TABLE_NAME;
  if (!process.env.TABLE_NAME) throw new UsageError('TABLE_NAME is not set (the stack output TableName), or set DYNAMODB_ENDPOINT for a local DynamoDB');
  const [group, action, arg] = positionals;

  if (group === 'keys' && action === 'create') {
    const workspaceId = workspace(values.workspace);
    const name = required(values.name, '--name');
    const scopes = parseScopes(required(values.scopes, '--scopes'));
    const perMinute = positiveInt(values['per-minute'], '--per-minute');
    const perHour = positiveInt(values['per-hour'], '--per-hour');
    const expiresAt = parseExpiry(values.expires);
    await ensureLocalTable();
    const { key, record } = await createApiKey({
      workspaceId,
      name,
      scopes,
      createdBy: ADMIN_CLI,
      ...(perMinute ? { perMinute } : {}),
      ...(perHour ? { perHour } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    });
    out.print(
      `Created key ${record.id} for workspace ${workspaceId} (scopes: ${record.scopes.join(', ')}; ${record.perMinute}/min, ${record.perHour}/hour${record.expiresAt ? `; expires ${record.expiresAt}` : ''}).\n\n  ${key}\n\nStore it now: it is shown only once.`,
      { ...record, key },
    );
    return 0;
  }
  if (group === 'keys' && action === 'list') {
    const workspaceId = workspace(values.workspace);
    const list = await listApiKeys(workspaceId);
    out.print(
      list.length === 0
        ? `No keys in workspace ${workspaceId}.`
        : list
            .map(
              (k) =>
                `${k.id}  ${keyState(k).padEnd(7)}  ${k.name}\n    scopes: ${k.scopes.join(',')}\n    limits: ${k.perMinute}/min ${k.perHour}/hour  created ${k.createdAt}  lastUsed ${k.lastUsedAt ?? '-'}  expires ${k.expiresAt ?? '-'}  revoked ${k.revokedAt ?? '-'}`,
            )
            .join('\n'),
      list.map((k) => ({ ...k, state: keyState(k) })),
    );
    return 0;
  }
  if (group === 'keys' && action === 'revoke') {
    const id = required(arg, 'key ID');
    const rec = await revokeApiKey(id);
    if (!rec) throw new UsageError(`No key with id ${id}`);
    out.print(`Revoked ${rec.id} at ${rec.revokedAt}. Cached authorizations end within the authorizer cache time (5 minutes on AWS).`, rec);
    return 0;
  }
  if (group === 'keys' && action === 'update') {
    const id = required(arg, 'key ID');
    const perMinute = positiveInt(values['per-minute'], '--per-minute');
    const perHour = positiveInt(values['per-hour'], '--per-hour');
    if (perMinute === undefined && perHour === undefined) throw new UsageError('keys update needs --per-minute and/or --per-hour');
    const rec = await updateApiKeyLimits(id, { ...(perMinute ? { perMinute } : {}), ...(perHour ? { perHour } : {}) });
    if (!rec) throw new UsageError(`No key with id ${id}`);
    out.print(`Key ${rec.id}: ${rec.perMinute}/min, ${rec.perHour}/hour (applies within the authorizer cache time).`, rec);
    return 0;
  }
  if (group === 'members') return members(action, values, out);
  if (group === 'seed') {
    const workspaceId = workspace(values.workspace);
    const timeEntries = nonNegativeInt(values['time-entries'], '--time-entries');
    const invoices = nonNegativeInt(values.invoices, '--invoices');
    await ensureLocalTable();
    const result = await seedWorkspace(workspaceId, {
      ...(timeEntries !== undefined ? { timeEntries } : {}),
      ...(invoices !== undefined ? { invoices } : {}),
      progress: progressBar(out.json),
    });
    out.print(
      `Seeded workspace ${workspaceId}: ${Object.entries(result)
        .filter(([k]) => k !== 'workspaceId')
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}`,
      result,
    );
    return 0;
  }
  if (group === 'webhooks' && action === 'reencrypt') {
    if (process.env.DYNAMODB_ENDPOINT && !process.env.WEBHOOK_SECRET_KEYS && !process.env.WEBHOOK_KEYS_SECRET_ARN) process.env.WEBHOOK_SECRET_KEYS = LOCAL_WEBHOOK_KEY_RING;
    const report = await reencryptSecrets();
    const uses = Object.entries(report.inUse)
      .map(([kid, n]) => `${kid}: ${n}`)
      .join(', ');
    out.print(
      `Webhook secrets: ${report.webhooks} webhooks in ${report.workspaces} workspaces, ${report.reencrypted} re-encrypted under ${report.current}; ciphertexts per key: ${uses || 'none'}.`,
      report,
    );
    return 0;
  }
  throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
}

async function members(action: string | undefined, values: { workspace?: string; email?: string; role?: string }, out: Out): Promise<number> {
  const workspaceId = workspace(values.workspace);
  if (action === 'list') {
    const list = await listMembers(workspaceId);
    out.print(
      list.length === 0 ? `No members in workspace ${workspaceId}.` : list.map((m) => `${m.email}  ${m.role.padEnd(6)}  added ${m.addedAt} by ${m.addedBy}`).join('\n'),
      list,
    );
    return 0;
  }
  const email = required(values.email, '--email');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw new UsageError(`--email must be an e-mail address, got "${email}"`);
  if (action === 'add') {
    const role = required(values.role, '--role');
    if (!isRole(role)) throw new UsageError(`--role must be owner, admin or viewer, got "${role}"`);
    await ensureLocalTable();
    // a member without a sign-in account (added in the console) gets the account: no dead end
    const existing = await getMembership(workspaceId, email);
    const member =
      existing ??
      (await addMember(workspaceId, email, role, ADMIN_CLI).catch((err: Error) => {
        if (err.name === 'DomainError') throw new UsageError(err.message);
        throw err;
      }));
    let password: string | undefined;
    let account: string;
    if (process.env.USER_POOL_ID) {
      const done = await inviteCognitoUser(process.env.USER_POOL_ID, member.email);
      account = done === 'existed' ? 'Cognito user existed' : 'Cognito user created and invited by e-mail';
      if (existing && done === 'existed') throw new UsageError(`${member.email} is already a member of ${workspaceId} and has a sign-in account`);
    } else {
      password = await ensureAccount(member.email);
      account = password ? 'sign-in account created' : 'sign-in account existed (password unchanged)';
      if (existing && !password) throw new UsageError(`${member.email} is already a member of ${workspaceId} and has a sign-in account`);
    }
    out.print(
      `Added ${member.email} to workspace ${workspaceId} as ${member.role}; ${account}.${password ? `\n\n  Password (shown once): ${password}\n\nSign in at <API URL>/console.` : ''}`,
      { email: member.email, role: member.role, workspaceId, password: password ?? null },
    );
    return 0;
  }
  if (action === 'invite') {
    await ensureLocalTable();
    const member = await getMembership(workspaceId, email);
    if (!member) throw new UsageError(`${email} is not a member of ${workspaceId}`);
    if (!process.env.USER_POOL_ID) process.env.CONSOLE_ISSUER ??= `http://127.0.0.1:${process.env.OIDC_PORT ?? 3001}`;
    const invitation = await inviteToSignIn(member.email, { resend: true });
    out.print(
      invitation
        ? `Invitation for ${member.email} (one use, until ${invitation.expiresAt}):\n\n  ${invitation.url}\n\nOpen it to set a password, then sign in at <API URL>/console.`
        : `Cognito sent ${member.email} the invitation again.`,
      { email: member.email, workspaceId, invitation },
    );
    return 0;
  }
  if (action === 'remove') {
    const removed = await removeMember(workspaceId, email, ADMIN_CLI).catch((err: Error) => {
      if (err.name === 'DomainError') throw new UsageError(err.message);
      throw err;
    });
    out.print(`Removed ${removed.email} (${removed.role}) from workspace ${workspaceId}.`, removed);
    return 0;
  }
  throw new UsageError(`Unknown command: members ${action ?? ''}`);
}

/** Against DynamoDB Local, create the table when missing (a deployed table is never created here). */
async function ensureLocalTable() {
  if (!process.env.DYNAMODB_ENDPOINT) return;
  const client = new DynamoDBClient(dynamoConfig());
  await ensureTable(client, process.env.TABLE_NAME!);
  client.destroy();
}

function progressBar(quiet: boolean): ((done: number, total: number) => void) | undefined {
  if (quiet || !process.stderr.isTTY) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SingleBar, Presets } = require('cli-progress') as typeof import('cli-progress');
  let bar: InstanceType<typeof SingleBar> | undefined;
  return (done, total) => {
    if (total < 500) return;
    if (!bar) {
      bar = new SingleBar({ stream: process.stderr, format: 'seeding [{bar}] {value}/{total} {percentage}% eta {eta}s' }, Presets.shades_classic);
      bar.start(total, 0);
    }
    bar.update(done);
    if (done >= total) bar.stop();
  };
}

if (require.main === module) {
  run(process.argv.slice(2))
    .then((code) => process.exit(code))
    .catch((err: unknown) => {
      const e = err as { code?: string; message?: string };
      if (err instanceof UsageError || (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS'))) {
        console.error(`error: ${e.message}\n\n${USAGE}`);
        process.exit(2);
      }
      console.error(`error: ${e.message ?? String(err)}`);
      process.exit(1);
    });
}
