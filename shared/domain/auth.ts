import { RESOURCES, type ResourceName } from './registry';

/** Scopes: read and write per resource (the contract's list); a key holds any subset. */
export type Scope = `${ResourceName}:${'read' | 'write'}`;
export const SCOPES: Scope[] = RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as const);
const SCOPE_SET: ReadonlySet<string> = new Set(SCOPES);
export const isScope = (v: string): v is Scope => SCOPE_SET.has(v);
