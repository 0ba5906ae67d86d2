import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { run } from '../../admin/cli';
import { seedWorkspace } from '../../shared/seed/seed';
import { ensureSeedCatalog } from '../../shared/seed/seed-time-entries';
import { db, tableName } from '../../shared/data/db';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { pageAll, testKey, type Entry } from './helpers';

useTestTable();
const api = apiClient();

test('seed --time-entries N: N entries (batched), realistic spread, progress reported, usage counters exact', async () => {
  const ws = newWorkspace('seed');
  const key = await testKey(ws);
  const progress: Array<[number, number]> = [];
  const result = await seedWorkspace(ws, { timeEntries: 300, progress: (d, t) => progress.push([d, t]) });
  expect(result.timeEntries).toBe(300);
  expect(progress[progress.length - 1]).toEqual([300, 300]);
  expect(progress.length).toBeGreaterThan(2);

  const { items } = await pageAll(api, key, { limit: '200' });
  expect(items).toHaveLength(300);
  expect(new Set(items.map((e) => e.userId)).size).toBeGreaterThanOrEqual(4);
  expect(new Set(items.map((e) => e.projectId)).size).toBeGreaterThanOrEqual(5);
  expect(new Set(items.map((e) => e.startTime.slice(0, 7))).size).toBeGreaterThanOrEqual(5); // months of dates
  expect(items.filter((e) => e.tagIds?.length).length).toBeGreaterThan(100);
  for (const e of items.filter((x) => x.endTime)) expect(e.durationMinutes).toBe(Math.round((Date.parse(e.endTime!) - Date.parse(e.startTime)) / 60_000));
  // a seeded entry is a normal entry: get, update and delete work with its sortKey
  const sample = items[17]!;
  expect((await api.get(`/v1/time-entries/${sample.id}`, { key, query: { sortKey: sample.sortKey } })).body).toEqual(sample);

  // counters on every referenced record equal the number of entries naming it
  const cat = await ensureSeedCatalog(ws);
  const refs: Array<[string, string, (e: Entry) => boolean]> = [
    ...cat.clients.map((c) => [`CLIENT#${c.id}`, c.id, (e: Entry) => e.clientId === c.id] as [string, string, (e: Entry) => boolean]),
    ...cat.projects.map(({ project: p }) => [`PROJECT#${p.id}`, p.id, (e: Entry) => e.projectId === p.id] as [string, string, (e: Entry) => boolean]),
    ...cat.projects.flatMap(({ tasks }) => tasks.map((t) => [`TASK#${t.id}`, t.id, (e: Entry) => e.taskId === t.id] as [string, string, (e: Entry) => boolean])),
    ...cat.tags.map((t) => [`TAG#${t.id}`, t.id, (e: Entry) => (e.tagIds ?? []).includes(t.id)] as [string, string, (e: Entry) => boolean]),
  ];
  for (const [sk, , uses] of refs) {
    const got = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: `WS#${ws}`, SK: sk } }));
    expect({ sk, n: Number(got.Item?._usedByTIMEENTRY ?? 0) }).toEqual({ sk, n: items.filter(uses).length });
  }

  // so the repository's rules hold for seeded data: a used project is a 409; a task freed by deleting its entries can go
  const project = cat.projects[0]!.project;
  expect((await api.del(`/v1/projects/${project.id}`, { key })).status).toBe(409);
  const task = cat.projects[4]!.tasks[0]!;
  const users = items.filter((e) => e.taskId === task.id);
  expect(users.length).toBeGreaterThan(0);
  expect((await api.del(`/v1/tasks/${task.id}`, { key })).status).toBe(409);
  for (const e of users) expect((await api.del(`/v1/time-entries/${e.id}`, { key, query: { sortKey: e.sortKey } })).status).toBe(200);
  expect((await api.del(`/v1/tasks/${task.id}`, { key })).status).toBe(200);
}, 120_000);

test('seeding again reuses the catalog and adds entries; the CLI seeds with --time-entries', async () => {
  const ws = newWorkspace('seed-cli');
  const key = await testKey(ws);
  const lines: string[] = [];
  expect(await run(['seed', '--workspace', ws, '--time-entries', '40', '--json'], (s) => lines.push(s))).toBe(0);
  expect(JSON.parse(lines.join('\n'))).toMatchObject({ workspaceId: ws, timeEntries: 40 });
  expect(await run(['seed', '--workspace', ws, '--time-entries', '25', '--json'], (s) => lines.push(s))).toBe(0);
  expect((await pageAll(api, key, { limit: '200' })).items).toHaveLength(65);
  expect((await api.get('/v1/projects', { key })).body.items).toHaveLength(6);
  // no --time-entries: no entries, no catalog beyond what the rest of the seed makes
  const bare = newWorkspace('seed-bare');
  const r = await seedWorkspace(bare);
  expect(r.timeEntries).toBe(0);
  expect((await pageAll(api, await testKey(bare), {})).items).toHaveLength(0);
}, 120_000);
