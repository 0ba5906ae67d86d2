import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../data/db';
import { entityKey } from '../data/keys';
import { rollupDeltas, rollupUpdate } from '../data/rollups';
import { clients, projects, tags, tasks, timeEntries } from '../data/repositories';
import { counterAttr } from '../data/record-writes';
import type { CreateValues, Repository } from '../data/repository';
import { REVISION_ATTRIBUTE, TYPE_ATTRIBUTE, VERSION_ATTRIBUTE } from '../data/table';
import type { AnyEntity, EntityRecord } from '../domain/entity';
import type { Client } from '../domain/entities/clients';
import type { Project } from '../domain/entities/projects';
import type { Tag } from '../domain/entities/tags';
import type { Task } from '../domain/entities/tasks';
import { deriveTimeEntry, isRunning, type TimeEntry } from '../domain/entities/time-entries';
import { ulid } from '../domain/ids';
import { prng } from './random';
import { putRunningTimer } from '../services/timer-store';

/**
 * `seed --time-entries N`: N realistic time entries in a workspace, quickly.
 *
 * - The catalog they name (clients, projects with tasks, tags) is created through the repository when
 *   missing (found by name, so seeding twice reuses it).
 * - Entries: 5 users with a skewed share of the work, projects likewise, ~8% without a project (some with
 *   only a client), 0-3 tags, working hours on weekdays over the last `months` months, 15 min to 4 h,
 *   a few running timers among the most recent entries. Deterministic for a given `seed`.
 * - Written with BatchWriteItem (25 per request, `concurrency` requests in flight, UnprocessedItems
 *   retried with backoff). Batch writes bypass the repository, so the usage counters the repository keeps
 *   on referenced projects, clients, tasks and tags are set here: one `ADD` per referenced record, applied
 *   BEFORE the entries are written. If the seed fails half-way the counters are too high (a delete of a
 *   project says 409 when it could have succeeded), never too low (a delete that leaves entries dangling).
 */
export interface TimeEntrySeedOptions {
  progress?: (done: number, total: number) => void;
  /** PRNG seed (default 42). */
  seed?: number;
  /** Spread of start times back from `now` (default 6). */
  months?: number;
  now?: Date;
  users?: string[];
  concurrency?: number;
}

export const SEED_USERS = ['alice', 'bob', 'carol', 'dave', 'erin'];
const USER_WEIGHTS = [40, 25, 17, 11, 7];
const SEED_CLIENTS = ['Acme Corporation', 'Globex', 'Initech'];
/** [project, client index or null, billable, weight] */
const SEED_PROJECTS: Array<[string, number | null, boolean, number]> = [
  ['Website relaunch', 0, true, 34],
  ['Mobile app', 0, true, 18],
  ['Data migration', 1, true, 14],
  ['Support retainer', 1, true, 10],
  ['Compliance audit', 2, true, 8],
  ['Internal tooling', null, false, 8],
];
/** Hourly rates of the billable seeded projects (in their client's currency), so reports show amounts. */
const SEED_RATES: Record<string, number> = { 'Website relaunch': 150, 'Mobile app': 140, 'Data migration': 125, 'Support retainer': 95, 'Compliance audit': 175 };
const SEED_TASKS = ['Development', 'Design', 'Meetings'];
const SEED_TAGS = ['deep-work', 'meeting', 'review', 'support', 'travel'];
const NOTES = ['Sprint work', 'Pairing session', 'Bug fixes', 'Client call', 'Planning', 'Code review', 'Documentation', undefined, undefined];

function weighted<T>(rand: () => number, items: T[], weights: number[]): T {
  const total = weights.reduce((a, b) => a + b, 0);
  let r = rand() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i]!;
    if (r < 0) return items[i]!;
  }
  return items[items.length - 1]!;
}

async function ensureByName<E extends AnyEntity>(
  repo: Repository<E>,
  workspaceId: string,
  existing: Array<EntityRecord<E>>,
  input: CreateValues<E>,
  same: (r: EntityRecord<E>) => boolean,
): Promise<EntityRecord<E>> {
  const found = existing.find(same);
  if (found) return found;
  const created = await repo.create(workspaceId, input);
  existing.push(created);
  return created;
}

export interface SeedCatalog {
  clients: Client[];
  /** Seeded projects with their tasks. */
  projects: Array<{ project: Project; tasks: Task[]; weight: number }>;
  tags: Tag[];
}

/** The clients, projects, tasks and tags the seeded entries refer to (created when missing). */
export async function ensureSeedCatalog(workspaceId: string): Promise<SeedCatalog> {
  const lower = (v: unknown) => String(v).toLowerCase();
  const allClients = await clients.listAll(workspaceId);
  const seededClients: Client[] = [];
  for (const name of SEED_CLIENTS) {
    seededClients.push(await ensureByName(clients, workspaceId, allClients, { name, currency: 'USD' }, (c) => lower(c.name) === lower(name)));
  }
  const allProjects = await projects.listAll(workspaceId);
  const allTasks = await tasks.listAll(workspaceId);
  const seededProjects: SeedCatalog['projects'] = [];
  for (const [name, clientIndex, billable, weight] of SEED_PROJECTS) {
    const clientId = clientIndex === null ? undefined : seededClients[clientIndex]!.id;
    const rate = billable ? SEED_RATES[name] : undefined;
    const project = await ensureByName(
      projects,
      workspaceId,
      allProjects,
      { name, billable, ...(clientId ? { clientId } : {}), ...(rate ? { hourlyRate: rate } : {}) },
      (p) => lower(p.name) === lower(name),
    );
    const projectTasks: Task[] = [];
    for (const t of SEED_TASKS) {
      projectTasks.push(await ensureByName(tasks, workspaceId, allTasks, { projectId: project.id, name: t }, (x) => x.projectId === project.id && lower(x.name) === lower(t)));
    }
    seededProjects.push({ project, tasks: projectTasks, weight });
  }
  const allTags = await tags.listAll(workspaceId);
  const seededTags: Tag[] = [];
  for (const name of SEED_TAGS) seededTags.push(await ensureByName(tags, workspaceId, allTags, { name }, (t) => lower(t.name) === lower(name)));
  return { clients: seededClients, projects: seededProjects, tags: seededTags };
}

/** The records (as the API would store them) of `count` generated entries. */
export function generateTimeEntries(catalog: SeedCatalog, count: number, opts: TimeEntrySeedOptions = {}): TimeEntry[] {
  const rand = prng(opts.seed ?? 42);
  const now = (opts.now ?? new Date()).getTime();
  const spanMs = (opts.months ?? 6) * 30 * 24 * 3600_000;
  const users = opts.users ?? SEED_USERS;
  const userWeights = users.map((_, i) => USER_WEIGHTS[i] ?? 5);
  const created = new Date().toISOString();
  const out: TimeEntry[] = [];
  const runningUsers = new Set<string>();
  for (let i = 0; i < count; i++) {
    // A weekday working-hours start, on a 5-minute grid.
    let day = new Date(now - Math.floor(rand() * spanMs));
    while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day = new Date(day.getTime() - 24 * 3600_000);
    day.setUTCHours(7 + Math.floor(rand() * 10), Math.floor(rand() * 12) * 5, 0, 0);
    const start = day.getTime();
    const minutes = 15 * (1 + Math.floor(rand() * 16));
    const running = now - start < 12 * 3600_000 && rand() < 0.3;
    const rec: TimeEntry = {
      id: ulid(start),
      userId: weighted(rand, users, userWeights),
      startTime: new Date(start).toISOString(),
      billable: false,
      createdAt: created,
      updatedAt: created,
    };
    // At most one running timer per user (the rule the API keeps: shared/services/timers.ts).
    if (!running || runningUsers.has(rec.userId)) rec.endTime = new Date(Math.min(start + minutes * 60_000, now)).toISOString();
    else runningUsers.add(rec.userId);
    const r = rand();
    if (r < 0.92) {
      const { project, tasks: projectTasks } = weighted(
        rand,
        catalog.projects,
        catalog.projects.map((p) => p.weight),
      );
      rec.projectId = project.id;
      if (project.clientId) rec.clientId = project.clientId;
      rec.billable = project.billable === true;
      if (rand() < 0.7) rec.taskId = projectTasks[Math.floor(rand() * projectTasks.length)]!.id;
    } else if (r < 0.96) {
      rec.clientId = catalog.clients[Math.floor(rand() * catalog.clients.length)]!.id;
    }
    const nTags = Math.floor(rand() * 4);
    if (nTags > 0) {
      const pool = [...catalog.tags];
      const picked: string[] = [];
      for (let t = 0; t < nTags && pool.length; t++) picked.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]!.id);
      rec.tagIds = picked;
    }
    const note = NOTES[Math.floor(rand() * NOTES.length)];
    if (note) rec.notes = note;
    rec.name = note ?? 'Work';
    out.push(deriveTimeEntry(rec));
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes the records' items (version and revision 1), retrying what BatchWriteItem leaves unprocessed. */
async function batchWrite(workspaceId: string, records: readonly TimeEntry[]): Promise<void> {
  let pending = records.map((rec) => ({ PutRequest: { Item: timeEntries.toItem(workspaceId, rec, { [VERSION_ATTRIBUTE]: 1, [REVISION_ATTRIBUTE]: 1 }) } }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(Math.min(2000, 25 * 2 ** attempt) * (0.5 + Math.random()));
    if (attempt > 12) throw new Error(`BatchWriteItem: ${pending.length} item(s) still unprocessed after ${attempt} attempts`);
    const res = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
    pending = (res.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
  }
}

/** Usage counters the repository would have added for these records: target entity → id → count. */
function referenceCounts(records: readonly TimeEntry[]): Array<{ target: AnyEntity; id: string; count: number }> {
  const counts = new Map<AnyEntity, Map<string, number>>();
  for (const ref of timeEntries.entity.references ?? []) {
    const target = ref.target();
    const m = counts.get(target) ?? new Map<string, number>();
    counts.set(target, m);
    for (const rec of records) {
      const v = rec[ref.field];
      if (v === undefined || v === null) continue;
      for (const id of ref.many ? (v as string[]) : [String(v)]) m.set(id, (m.get(id) ?? 0) + 1);
    }
  }
  return [...counts].flatMap(([target, m]) => [...m].map(([id, count]) => ({ target, id, count })));
}

async function addCounters(workspaceId: string, records: readonly TimeEntry[]): Promise<void> {
  for (const { target, id, count } of referenceCounts(records)) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(target, workspaceId, { id }),
        UpdateExpression: 'ADD #c :n, #v :one',
        ConditionExpression: 'attribute_exists(PK) AND #t = :type',
        ExpressionAttributeNames: { '#c': counterAttr(timeEntries.entity.type), '#v': VERSION_ATTRIBUTE, '#t': TYPE_ATTRIBUTE },
        ExpressionAttributeValues: { ':n': count, ':one': 1, ':type': target.type },
      }),
    );
  }
}

/**
 * What the repository writes with each entry, in bulk: the report rollups (one ADD per rollup item for all
 * records, shared/data/rollups.ts) and the running-timer item of each running entry (shared/services/timer-store.ts).
 * Like the counters, written BEFORE the entries: a half-done seed leaves rollups too high, never missing.
 */
async function addRollupsAndTimers(workspaceId: string, records: readonly TimeEntry[], concurrency: number): Promise<void> {
  const updates = [...rollupDeltas(records.map((rec) => [undefined, rec] as const))].map(([key, d]) => rollupUpdate(workspaceId, key, d));
  let next = 0;
  const worker = async () => {
    while (next < updates.length) await db().send(new UpdateCommand(updates[next++]!));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, updates.length) }, worker));
  for (const rec of records.filter((r) => isRunning(r))) await putRunningTimer(workspaceId, rec.userId, { sortKey: timeEntries.key(workspaceId, rec).SK, id: rec.id });
}

/** Writes already generated records (counters, rollups and timers first, then the items in parallel batches of 25). */
export async function writeTimeEntries(workspaceId: string, records: readonly TimeEntry[], opts: TimeEntrySeedOptions = {}): Promise<void> {
  await addCounters(workspaceId, records);
  await addRollupsAndTimers(workspaceId, records, opts.concurrency ?? 8);
  const batches: TimeEntry[][] = [];
  for (let i = 0; i < records.length; i += 25) batches.push(records.slice(i, i + 25));
  let done = 0;
  let next = 0;
  opts.progress?.(0, records.length);
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      await batchWrite(workspaceId, batch);
      done += batch.length;
      opts.progress?.(done, records.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 8, batches.length) }, worker));
}

/** Seeds `count` entries (and the catalog they need); returns the entries as the API presents them. */
export async function seedTimeEntries(workspaceId: string, count: number, opts: TimeEntrySeedOptions = {}): Promise<TimeEntry[]> {
  if (count <= 0) return [];
  const catalog = await ensureSeedCatalog(workspaceId);
  const records = generateTimeEntries(catalog, count, opts);
  await writeTimeEntries(workspaceId, records, opts);
  return records.map((rec) => timeEntries.present(timeEntries.toItem(workspaceId, rec, {})));
}
