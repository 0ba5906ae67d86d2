import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, client, idempotency, ok, type Member, type Role } from '../api/client';
import type { SectionProps } from '../section';
import { Button, CopyButton, Dialog, ErrorBox, fmt, Field, TableBox, useAction, useFocus } from '../ui';

/**
 * Members (owners): the list, add, change a role with an explicit Save, remove after a confirmation. A
 * refused change leaves the control at the role the server has.
 */
const ROLES: Role[] = ['owner', 'admin', 'viewer'];

export function MembersSection({ workspaceId }: SectionProps) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [announce, setAnnounce] = useState('');
  /** A new member's one-time sign-in link (locally): shown once, like a key's secret. */
  const [invitation, setInvitation] = useState<{ email: string; url: string; expiresAt: string } | null>(null);
  const invitationRef = useFocus<HTMLDivElement>(invitation);
  const path = { workspaceId };
  const reload = async () => setMembers(ok(await client.GET('/console/api/workspaces/{workspaceId}/members', { params: { path } })).items);
  useEffect(() => {
    reload().catch(setError);
  }, [workspaceId]);
  const put = (m: Member) => setMembers((list) => [...(list ?? []).filter((o) => o.email !== m.email), m].sort((a, b) => a.email.localeCompare(b.email)));

  if (error) return <ErrorBox error={error} />;
  if (!members) return <p role="status">Loading members…</p>;
  return (
    <div>
      <TableBox label="Members">
        <thead>
          <tr>
            <th>Email</th>
            <th>Role</th>
            <th>Added</th>
            <th>
              <span class="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <MemberRow
              key={m.email}
              m={m}
              save={async (role) => {
                try {
                  put(ok(await client.PATCH('/console/api/workspaces/{workspaceId}/members/{email}', { params: { path: { workspaceId, email: m.email } }, body: { role } })));
                  setAnnounce(`${m.email} is now ${role}.`);
                } catch (err) {
                  // The control shows the role the server has (re-read: another person may have changed it).
                  await reload().catch(() => undefined);
                  throw err;
                }
              }}
              remove={() => setRemoving(m)}
            />
          ))}
        </tbody>
      </TableBox>
      <p class="sr-only" role="status">
        {announce}
      </p>
      {invitation ? (
        <div class="newkey" role="region" aria-label="Invitation link" tabIndex={-1} ref={invitationRef}>
          <p>
            Added {invitation.email}. Send them this link to set their password and sign in: it works once, until {fmt(invitation.expiresAt)}, and is shown only now.
          </p>
          <code>{invitation.url}</code> <CopyButton text={invitation.url} label="Copy link" />{' '}
          <button type="button" onClick={() => setInvitation(null)}>
            Done
          </button>
        </div>
      ) : null}
      <AddMember
        add={async (email, role) => {
          const made = ok(await client.POST('/console/api/workspaces/{workspaceId}/members', { params: { path }, body: { email, role }, headers: idempotency() }));
          const { invitation: link, ...member } = made;
          put(member);
          setAnnounce(`Added ${made.email} as ${made.role}.`);
          setInvitation(link ? { email: made.email, ...link } : null);
        }}
      />
      {removing ? (
        <RemoveDialog
          m={removing}
          onClose={() => setRemoving(null)}
          remove={async () => {
            ok(await client.DELETE('/console/api/workspaces/{workspaceId}/members/{email}', { params: { path: { workspaceId, email: removing.email } } }));
            setMembers((list) => (list ?? []).filter((o) => o.email !== removing.email));
            setRemoving(null);
            setAnnounce(`Removed ${removing.email}.`);
          }}
        />
      ) : null}
    </div>
  );
}

function MemberRow({ m, save, remove }: { m: Member; save: (r: Role) => Promise<void>; remove: () => void }) {
  const [role, setRole] = useState<Role>(m.role);
  const action = useAction();
  // Whatever the server answered (a change saved, or the list re-read after a refusal) resets the picker.
  useEffect(() => setRole(m.role), [m]);
  return (
    <tr data-member={m.email}>
      <td>{m.email}</td>
      <td>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void action.run(() => save(role));
          }}
        >
          <select aria-label={`Role of ${m.email}`} value={role} onChange={(e) => setRole(ROLES.find((r) => r === e.currentTarget.value) ?? m.role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>{' '}
          <Button type="submit" busy={action.busy} disabled={role === m.role} aria-label={`Save role of ${m.email}`}>
            Save
          </Button>
          <ErrorBox error={action.error} />
        </form>
      </td>
      <td>{fmt(m.addedAt)}</td>
      <td>
        <button type="button" aria-label={`Remove ${m.email}`} onClick={remove}>
          Remove
        </button>
      </td>
    </tr>
  );
}

function AddMember({ add }: { add: (email: string, role: Role) => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const action = useAction();
  const fields = action.error instanceof ApiFailure ? action.error.fields : {};
  return (
    <form
      class="stack"
      aria-label="Add member"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(async () => {
          await add(email, role);
          setEmail('');
        });
      }}
    >
      <h3>Add member</h3>
      <Field label="Email" error={fields.email}>
        {(a) => <input {...a} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
      </Field>
      <Field label="Role" error={fields.role}>
        {(a) => (
          <select {...a} value={role} onChange={(e) => setRole(ROLES.find((r) => r === e.currentTarget.value) ?? 'viewer')}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        )}
      </Field>
      <ErrorBox error={action.error} />
      <div>
        <Button type="submit" busy={action.busy}>
          Add member
        </Button>
      </div>
      <p class="note">A new member gets an invitation: in AWS by e-mail; locally a one-time link shown here once. Someone who already has a sign-in account signs in as before.</p>
    </form>
  );
}

function RemoveDialog({ m, onClose, remove }: { m: Member; onClose: () => void; remove: () => Promise<void> }) {
  const action = useAction();
  return (
    <Dialog title={`Remove ${m.email}?`} onClose={onClose}>
      <p>
        {m.email} ({m.role}) loses access to this workspace at once.
      </p>
      <ErrorBox error={action.error} />
      <p>
        <Button busy={action.busy} class="danger" onClick={() => void action.run(remove)}>
          Confirm remove
        </Button>{' '}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </p>
    </Dialog>
  );
}
