import { toApiError } from '../../shared/api/response';
import { entityKey, indexKeys, locateKey, queryKeys, keys } from '../../shared/data/keys';
import { planQuery } from '../../shared/data/query-plan';
import { uniqueValue } from '../../shared/domain/entity';
import { clients } from '../../shared/domain/entities/clients';
import { favorites } from '../../shared/domain/entities/favorites';
import { invoices } from '../../shared/domain/entities/invoices';
import { tasks } from '../../shared/domain/entities/tasks';
import { sortKeyRange, timeEntries } from '../../shared/domain/entities/time-entries';

/**
 * What is stored and signed must not change with the code that builds it: keys and lock values are in
 * every existing table, and cursors handed out to integrations are signed over the query's text. These
 * are the formats written before the entity declarations existed (docs/data-model.md), spelled out.
 */
const ws = 'acme';
const id = '01JB2Z3Y4X5W6V7T8S9R0Q1P2N';

test('entity and index keys are the stored formats', () => {
  expect(entityKey(clients, ws, { id })).toEqual({ PK: 'WS#acme', SK: `CLIENT#${id}` });
  expect(entityKey(favorites, ws, { id, userId: 'u#1' })).toEqual({ PK: 'WS#acme', SK: `FAVORITE#u%231#${id}` });
  const entry = { id, userId: 'u#1', projectId: 'P 1', clientId: 'C1', startTime: '2026-03-02T09:00:00.000Z', endTime: '2026-03-02T10:00:00.000Z' };
  const sk = `2026-03-02T09:00:00.000Z#${id}`;
  expect(entityKey(timeEntries, ws, entry)).toEqual({ PK: 'WS#acme#TE', SK: sk });
  expect(indexKeys(timeEntries, ws, entry)).toEqual({
    GSI1PK: 'WS#acme#TE#U#u%231',
    GSI1SK: sk,
    GSI2PK: 'WS#acme#TE#P#P%201',
    GSI2SK: sk,
    GSI3PK: 'WS#acme#TE#C#C1',
    GSI3SK: sk,
    GSI4PK: 'WS#acme#TE#UP#u%231#P%201',
    GSI4SK: sk,
    GSI5PK: 'WS#acme#TE#UC#u%231#C1',
    GSI5SK: sk,
  });
  // a running entry (no endTime) is also in the running-entries index
  const { endTime: _end, ...runningEntry } = entry;
  void _end;
  expect(indexKeys(timeEntries, ws, runningEntry)).toMatchObject({ GSI6PK: 'WS#acme#TE#RUN', GSI6SK: sk });
  expect(keys.runningTimer(ws, 'u#1')).toEqual({ PK: 'WS#acme', SK: 'RUNNING#u%231' });
  expect(keys.rollupPartition(ws, 'P')).toBe('WS#acme#RU#P');
  expect(indexKeys(invoices, ws, { id, issueDate: '2026-03-01' })).toEqual({ GSI1PK: 'WS#acme#INVOICES', GSI1SK: `2026-03-01#${id}` });
  expect(locateKey(timeEntries, ws, { id, sortKey: sk })).toEqual({ PK: 'WS#acme#TE', SK: sk });
  expect(locateKey(timeEntries, ws, { id, sortKey: `2026-03-02T09:00:00.000Z#OTHER` })).toBeUndefined();
  expect(queryKeys(favorites, 'key', ws, { userId: 'u#1' })).toEqual({ pk: 'WS#acme', skPrefix: 'FAVORITE#u%231#' });
  expect(queryKeys(favorites, 'key', ws, {})).toEqual({ pk: 'WS#acme', skPrefix: 'FAVORITE#' });
});

test('unique lock values are the stored ones (trimmed, any case; a task name within its project)', () => {
  expect(uniqueValue(clients.unique!, { name: '  Acme Corp ' })).toBe('acme corp');
  expect(uniqueValue(tasks.unique!, { projectId: 'P1', name: 'Design' })).toBe('P1#design');
});

test("a filtered list's query text is the first version's, so cursors handed out before stay valid", () => {
  const plan = planQuery(timeEntries, ws, { userId: 'u1', projectId: 'P1', clientId: 'C1' }, sortKeyRange());
  expect(plan).toEqual({
    index: 'GSI4',
    access: 'GSI4 (user+project) + filter clientId',
    keyCondition: {
      expression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
      names: { '#pk': 'GSI4PK', '#sk': 'GSI4SK' },
      values: { ':pk': 'WS#acme#TE#UP#u1#P1', ':lo': '0000-01-01T00:00:00.000Z', ':hi': '9999-12-31T23:59:59.999Z#~' },
    },
    filter: { expression: '#client = :client', names: { '#client': 'clientId' }, values: { ':client': 'C1' } },
  });
});

test('a key too long to store names the field the caller chose (a favorite: userId, not the id)', () => {
  const long = 'é'.repeat(128);
  let thrown: unknown;
  try {
    entityKey(favorites, ws, { id: long, userId: long });
  } catch (e) {
    thrown = toApiError(e);
  }
  expect(thrown).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'userId' }] });
});
