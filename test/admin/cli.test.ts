import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { run } from '../../admin/cli';
import { hashApiKey } from '../../shared/domain/apikeys';
import { findApiKeyByHash } from '../../shared/data/apikey-store';
import { SCOPES } from '../../shared/api/routes';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { accountExists, checkPassword, invitationState, redeemInvitation } from '../../shared/data/accounts';
import { addMember, getMembership } from '../../shared/data/members';

useTestTable();
const api = apiClient();

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await run(args, (s) => lines.push(s));
  return { code, out: lines.join('\n') };
}

/** The CLI as an operator runs it: its own process (tsx), its output and exit code. */
function cliProcess(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), join(__dirname, '../../admin/cli.ts'), ...args], { env: { ...process.env, ...env } });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('admin CLI', () => {
  test('a call prints what it did and nothing else: no AWS SDK Node-version warning, none silenced (npm scripts run on Node 22)', async () => {
    const ws = newWorkspace();
    expect(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBeUndefined();
    const quiet = await cliProcess(['keys', 'list', '--workspace', ws, '--json']);
    expect({ code: quiet.code, stdout: quiet.stdout.trim(), stderr: quiet.stderr }).toEqual({ code: 0, stdout: '[]', stderr: '' });
  }, 60_000);

  test('keys without a subcommand prints the usage of keys (no table needed) and exits 2', async () => {
    const keys = await cliProcess(['keys'], { TABLE_NAME: '', DYNAMODB_ENDPOINT: '' });
    expect(keys.code).toBe(2);
    expect(keys.stderr).toBe('');
    const lines = keys.stdout.trim().split('\n');
    expect(lines[0]).toBe('Usage: npm run --silent admin -- <command>');
    expect(lines.filter((l) => l.startsWith('  keys ')).map((l) => l.trim().split(' ').slice(0, 2).join(' '))).toEqual(['keys create', 'keys list', 'keys revoke', 'keys update']);
    expect(keys.stdout).not.toContain('seed');
  }, 60_000);

  test('keys create --json prints the key once; it works at once; list never shows it', async () => {
    const ws = newWorkspace();
    const created = await cli(
      'keys',
      'create',
      '--workspace',
      ws,
      '--name',
      'sync job',
      '--scopes',
      'clients:read,clients:write',
      '--per-minute',
      '30',
      '--per-hour',
      '500',
      '--json',
    );
    expect(created.code).toBe(0);
    const obj = JSON.parse(created.out);
    expect(obj).toMatchObject({ workspaceId: ws, name: 'sync job', scopes: ['clients:read', 'clients:write'], perMinute: 30, perHour: 500 });
    expect(obj.id).toMatch(/^key_/);
    expect((await api.get('/v1/clients', { key: obj.key })).status).toBe(200);
    const listed = await cli('keys', 'list', '--workspace', ws, '--json');
    expect(listed.out).not.toContain(obj.key);
    expect(listed.out).not.toContain(hashApiKey(obj.key));
    const rows = JSON.parse(listed.out);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: obj.id, state: 'active', scopes: ['clients:read', 'clients:write'], perMinute: 30, perHour: 500 });
    expect(rows[0].lastUsedAt).toMatch(/^\d{4}-/);
    const human = await cli('keys', 'list', '--workspace', ws);
    expect(human.out).toContain(obj.id);
    expect(human.out).not.toContain(obj.key);
  });

  test('--scopes all, --expires, revoke, update', async () => {
    const ws = newWorkspace();
    const { out } = await cli('keys', 'create', '--workspace', ws, '--name', 'all', '--scopes', 'all', '--expires', '2099-01-01', '--json');
    const obj = JSON.parse(out);
    expect(obj.scopes).toEqual(SCOPES);
    expect(obj.expiresAt).toBe('2099-01-01T00:00:00.000Z');
    const upd = await cli('keys', 'update', obj.id, '--per-minute', '5', '--json');
    expect(JSON.parse(upd.out)).toMatchObject({ perMinute: 5, perHour: 1000 });
    const rev = await cli('keys', 'revoke', obj.id, '--json');
    expect(JSON.parse(rev.out).revokedAt).toMatch(/^\d{4}-/);
    const stored = await findApiKeyByHash(hashApiKey(obj.key));
    expect(stored?.revokedAt).toBeDefined();
    const again = await cli('keys', 'revoke', obj.id, '--json');
    expect(JSON.parse(again.out).revokedAt).toBe(stored?.revokedAt);
  });

  test('seed creates demo data in a workspace', async () => {
    const ws = newWorkspace();
    const { code, out } = await cli('seed', '--workspace', ws, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ workspaceId: ws });
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['unknown scope', ['keys', 'create', '--workspace', 'w', '--name', 'n', '--scopes', 'clients:read,clients:admin'], /Unknown scope\(s\): clients:admin/],
    ['bad date', ['keys', 'create', '--workspace', 'w', '--name', 'n', '--scopes', 'all', '--expires', 'next tuesday'], /--expires must be an ISO 8601/],
    ['missing workspace', ['keys', 'create', '--name', 'n', '--scopes', 'all'], /--workspace is required/],
    ['bad limit', ['keys', 'create', '--workspace', 'w', '--name', 'n', '--scopes', 'all', '--per-minute', '0'], /--per-minute must be a positive integer/],
    ['unknown flag', ['keys', 'list', '--workspace', 'w', '--bogus'], /Unknown option '--bogus'/],
    ['unknown command', ['keys', 'explode'], /Unknown command/],
    ['seed without workspace', ['seed'], /--workspace is required/],
    ['workspace with a key separator', ['keys', 'create', '--workspace', 'a#b', '--name', 'n', '--scopes', 'all'], /--workspace must be 1-64 characters/],
    ['workspace too long', ['seed', '--workspace', 'w'.repeat(65)], /--workspace must be 1-64 characters/],
    ['unknown key id', ['keys', 'revoke', 'key_nope'], /No key with id key_nope/],
  ];
  test.each(bad)('bad arguments (%s) are a usage error with a clear message', async (_label, args, message) => {
    await expect(run(args, () => undefined)).rejects.toThrow(message);
  });

  test('members add for a member without an account makes the account; members invite issues a one-time link', async () => {
    const ws = newWorkspace();
    const email = `cli-${Date.now().toString(36)}@example.com`;
    await addMember(ws, email, 'viewer', 'someone@example.com'); // as the console adds one: no account yet
    expect(await accountExists(email)).toBe(false);
    const added = await cli('members', 'add', '--workspace', ws, '--email', email, '--role', 'viewer', '--json');
    expect(added.code).toBe(0);
    const out = JSON.parse(added.out) as { email: string; role: string; password: string };
    expect(out).toMatchObject({ email, role: 'viewer' });
    expect(await checkPassword(email, out.password)).toBe(email);
    expect((await getMembership(ws, email))?.addedBy).toBe('someone@example.com'); // the membership is unchanged
    // a member with an account: nothing to do, a clear usage error
    await expect(cli('members', 'add', '--workspace', ws, '--email', email, '--role', 'viewer')).rejects.toThrow(/already a member .* has a sign-in account/);
    // invite: a new link each time, valid 7 days, one use
    const invited = await cli('members', 'invite', '--workspace', ws, '--email', email, '--json');
    const { invitation } = JSON.parse(invited.out) as { invitation: { url: string; expiresAt: string } };
    expect(invitation.url).toMatch(/\/invitation\/[A-Za-z0-9_-]{43}$/);
    const token = invitation.url.split('/').pop()!;
    expect(await invitationState(token)).toEqual({ email, expiresAt: invitation.expiresAt });
    expect(await redeemInvitation(token, 'a-new-password-1')).toEqual({ email });
    expect(await redeemInvitation(token, 'a-new-password-2')).toBe('used');
    expect(await checkPassword(email, 'a-new-password-1')).toBe(email);
    await expect(cli('members', 'invite', '--workspace', ws, '--email', 'nobody@example.com')).rejects.toThrow(/not a member/);
  });

  test('the CLI process prints usage errors on stderr and exits with code 2', async () => {
    const cases = [bad[0]!, bad[4]!];
    const results = await Promise.all(
      cases.map(
        ([label, args, message]) =>
          new Promise<{ label: string; code: number | null; stderr: string; stdout: string; message: RegExp }>((resolve) => {
            const child = spawn(process.execPath, [require.resolve('tsx/cli'), join(__dirname, '../../admin/cli.ts'), ...args], { env: { ...process.env } });
            let stderr = '';
            let stdout = '';
            child.stderr.on('data', (d) => (stderr += String(d)));
            child.stdout.on('data', (d) => (stdout += String(d)));
            child.on('exit', (code) => resolve({ label, code, stderr, stdout, message }));
          }),
      ),
    );
    for (const r of results) {
      expect({ label: r.label, code: r.code, stdout: r.stdout }).toEqual({ label: r.label, code: 2, stdout: '' });
      expect(r.stderr).toMatch(r.message);
      expect(r.stderr).toContain('Usage: npm run --silent admin');
    }
  });
});
