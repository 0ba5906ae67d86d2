/**
 * The console's roles. Owners manage members and keys; admins manage keys; viewers read. A role includes
 * every role below it (ROLE_RANK): a route declares the least role it needs (shared/console/routes.ts).
 */
export const ROLES = ['owner', 'admin', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_RANK: Record<Role, number> = { viewer: 1, admin: 2, owner: 3 };
export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);
export const hasRole = (role: Role, required: Role) => ROLE_RANK[role] >= ROLE_RANK[required];

/** People are their verified e-mail address, compared without case. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
