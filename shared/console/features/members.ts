import { addMember, changeRole, listMembers, membershipsOf, removeMember, type Member } from '../../data/members';
import { listAudit } from '../../data/audit';
import { readableEntries } from './audit-names';
import { inviteToSignIn } from '../../services/sign-in-invitations';
import { consoleRoute } from '../route-table';
import * as s from '../schemas';

/** The signed-in person, the Members section (owners) and the Audit log (owners and admins). */
const base = '/console/api/workspaces/{workspaceId}/members';
const present = (m: Member) => ({ email: m.email, role: m.role, addedAt: m.addedAt, addedBy: m.addedBy });

export const meRoutes = {
  getConsoleMe: consoleRoute(
    {
      method: 'GET',
      path: '/console/api/me',
      access: 'person',
      tag: 'Me',
      summary: 'The signed-in person: their verified e-mail and their memberships (one Query)',
      response: s.meSchema,
      successStatus: 200,
    },
    async ({ person }) => ({
      email: person.email,
      memberships: (await membershipsOf(person.email)).map((m) => ({ workspaceId: m.workspaceId, role: m.role })).sort((a, b) => a.workspaceId.localeCompare(b.workspaceId)),
    }),
  ),
};

export const memberRoutes = {
  listConsoleMembers: consoleRoute(
    {
      method: 'GET',
      path: base,
      access: 'owner',
      tag: 'Members',
      summary: "The workspace's members",
      params: s.workspaceParams,
      response: s.listOf(s.memberSchema),
      successStatus: 200,
    },
    async ({ params }) => ({ items: (await listMembers(params.workspaceId)).map(present) }),
  ),
  addConsoleMember: consoleRoute(
    {
      method: 'POST',
      path: base,
      access: 'owner',
      tag: 'Members',
      summary: 'Add a member by e-mail with a role (409 when already a member); the person can then sign in',
      description:
        "In AWS the stack's Cognito user pool invites the person by e-mail (AdminCreateUser); `invitation` is null. Locally, a person without a sign-in account gets `invitation`: a one-time link to the local provider's set-password page, valid 7 days, shown in this answer only (the table keeps its hash; a replay for an Idempotency-Key answers null).",
      params: s.workspaceParams,
      body: s.addMemberBody,
      response: s.addedMemberSchema,
      successStatus: 201,
      conflict: true,
      secret: true,
    },
    async ({ params, body, person }) => {
      const member = await addMember(params.workspaceId, body.email, body.role, person.email);
      return { ...present(member), invitation: await inviteToSignIn(member.email) };
    },
  ),
  updateConsoleMember: consoleRoute(
    {
      method: 'PATCH',
      path: `${base}/{email}`,
      access: 'owner',
      tag: 'Members',
      summary: "Change a member's role (the last owner cannot be demoted: 409)",
      params: s.memberParams,
      body: s.updateMemberBody,
      response: s.memberSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, body, person }) => present(await changeRole(params.workspaceId, params.email, body.role, person.email)),
  ),
  removeConsoleMember: consoleRoute(
    {
      method: 'DELETE',
      path: `${base}/{email}`,
      access: 'owner',
      tag: 'Members',
      summary: 'Remove a member (the last owner cannot be removed: 409)',
      params: s.memberParams,
      response: s.memberSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, person }) => present(await removeMember(params.workspaceId, params.email, person.email)),
  ),
};

export const auditRoutes = {
  listConsoleAuditLog: consoleRoute(
    {
      method: 'GET',
      path: '/console/api/workspaces/{workspaceId}/audit-log',
      access: 'admin',
      tag: 'Audit log',
      summary: 'Every change to keys, members, invoices and webhooks, newest first (paged; kept 400 days; never a secret); filter by action, actor and target',
      params: s.workspaceParams,
      query: s.auditQuery,
      response: s.auditPage,
      successStatus: 200,
    },
    async ({ params, query }) => {
      const filter = { ...(query.action ? { action: query.action } : {}), ...(query.actor ? { actor: query.actor } : {}), ...(query.targetId ? { targetId: query.targetId } : {}) };
      const page = await listAudit(params.workspaceId, { limit: query.limit, filter, ...(query.cursor ? { cursor: query.cursor } : {}) });
      return { ...page, items: await readableEntries(params.workspaceId, page.items) };
    },
  ),
};
