import { accountExists, issueInvitation } from '../data/accounts';
import * as settings from '../platform/settings';

/**
 * Making a member able to sign in (issue 36 item 4), for the console's `POST .../members` and the admin CLI:
 * - AWS (`USER_POOL_ID` set): the stack's Cognito user pool invites the person (AdminCreateUser with its
 *   invitation message, e-mail verified; `resend` sends the invitation again). The answer carries no link.
 * - Locally: a one-time link to the local provider's set-password page (`<issuer>/invitation/<token>`, valid
 *   7 days; the table keeps only the token's hash), for a person without an account (or always with `resend`).
 * Returns the link to show once, or null when there is none to show.
 */
export interface Invitation {
  url: string;
  expiresAt: string;
}

export async function inviteToSignIn(email: string, opts: { resend?: boolean } = {}): Promise<Invitation | null> {
  const pool = settings.userPoolId();
  if (pool) {
    await inviteCognitoUser(pool, email, opts.resend === true);
    return null;
  }
  if (!opts.resend && (await accountExists(email))) return null;
  const issuer = settings.consoleIssuer();
  if (!issuer) throw new Error('CONSOLE_ISSUER is not set: no sign-in provider to invite to');
  const { token, expiresAt } = await issueInvitation(email);
  return { url: `${issuer.replace(/\/$/, '')}/invitation/${token}`, expiresAt };
}

/** AWS: the person's Cognito user (e-mail as user name, verified; Cognito e-mails the invitation). Returns what happened. */
export async function inviteCognitoUser(userPoolId: string, email: string, resend = false): Promise<'invited' | 'existed' | 'invited again'> {
  const { CognitoIdentityProviderClient, AdminCreateUserCommand, UsernameExistsException } = await import('@aws-sdk/client-cognito-identity-provider');
  const cognito = new CognitoIdentityProviderClient({});
  try {
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: email,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
        DesiredDeliveryMediums: ['EMAIL'],
        ...(resend ? { MessageAction: 'RESEND' as const } : {}),
      }),
    );
    return resend ? 'invited again' : 'invited';
  } catch (err) {
    if (err instanceof UsernameExistsException) return 'existed';
    throw err;
  } finally {
    cognito.destroy();
  }
}
