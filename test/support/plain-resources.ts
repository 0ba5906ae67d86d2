import { randomBytes } from 'node:crypto';
import type * as z from 'zod';
import { RESOURCES, routeList, type ResourceName } from '../../shared/api/routes';

/**
 * Resources added by their declaration alone (docs/architecture.md, "Worked example: adding a plain
 * resource"): the suites that must reach every route of the table (isolation, the generated clients'
 * scenarios) cover a resource with no hand-written fixture of their own through these helpers, so
 * adding a plain resource needs no edit of theirs.
 */

/** The resources the suites' hand-written scenarios and fixtures cover (each with its references and rules). */
export const SCENARIO_RESOURCES: ReadonlySet<string> = new Set(['clients', 'projects', 'tasks', 'tags', 'time-entries', 'favorites', 'invoices', 'webhooks']);

/** The registry's resources no hand-written scenario covers. */
export const plainResources = (): ResourceName[] => RESOURCES.filter((r) => !SCENARIO_RESOURCES.has(r));

/**
 * A valid create body of a plain resource (no references), from its create route's schema: each required
 * field gets the first of a few candidate values its schema accepts (a fresh name first).
 */
export function plainBody(resource: ResourceName): Record<string, unknown> {
  const create = routeList.find((r) => r.resource === resource && r.method === 'POST' && !r.path.includes('{id}'));
  const shape = (create?.body as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  if (!shape) throw new Error(`no fixture for resource ${resource}: add one`);
  const hex = randomBytes(3).toString('hex');
  const candidates: unknown[] = [`new-${hex}`, `new-${hex}@example.com`, 1, true, '2026-06-01T09:00:00Z', '2026-06-01'];
  const body: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(shape)) {
    if (schema.safeParse(undefined).success) continue;
    const value = candidates.find((c) => schema.safeParse(c).success);
    if (value === undefined) throw new Error(`no fixture for resource ${resource} (field ${field}): add one`);
    body[field] = value;
  }
  return body;
}

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** The five routes of a plain resource, each once with its success status: create, get, list, update, delete. */
export async function plainRoundTrip(resource: ResourceName, call: Call): Promise<void> {
  const expectStatus = async (p: ReturnType<Call>, status: number, label: string) => {
    const res = await p;
    if (res.status !== status) throw new Error(`${resource} ${label}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body;
  };
  const body = plainBody(resource);
  const made = await expectStatus(call('POST', `/v1/${resource}`, body), 201, 'create');
  await expectStatus(call('GET', `/v1/${resource}/${made.id}`), 200, 'get');
  await expectStatus(call('GET', `/v1/${resource}`), 200, 'list');
  await expectStatus(call('PUT', `/v1/${resource}/${made.id}`, body), 200, 'update');
  await expectStatus(call('DELETE', `/v1/${resource}/${made.id}`), 200, 'delete');
}
