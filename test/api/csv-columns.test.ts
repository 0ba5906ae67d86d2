import * as z from 'zod/mini';
import { csvColumns, TIME_ENTRY_COLUMNS, TIME_ENTRY_CSV_OMITTED } from '../../shared/api/csv';
import { responseSchema } from '../../shared/api/schemas';
import { timeEntries } from '../../shared/domain/entities/time-entries';

/** The time-entry CSV's columns come from the time entry's response schema: a new field cannot miss it silently. */
const response = responseSchema(timeEntries);

test('every field of a time entry is a CSV column or left out by name, once', () => {
  const fields = Object.keys(response.shape);
  expect(new Set(TIME_ENTRY_COLUMNS).size).toBe(TIME_ENTRY_COLUMNS.length);
  expect([...TIME_ENTRY_COLUMNS, ...TIME_ENTRY_CSV_OMITTED].sort()).toEqual([...fields].sort());
});

test('the columns keep their order', () => {
  expect(TIME_ENTRY_COLUMNS).toEqual([
    'id',
    'sortKey',
    'userId',
    'name',
    'projectId',
    'clientId',
    'taskId',
    'startTime',
    'endTime',
    'durationMinutes',
    'billable',
    'tagIds',
    'notes',
    'createdAt',
    'updatedAt',
    'etag',
  ]);
});

test('a field added to the response becomes a column at the end; a column the response lacks is refused', () => {
  const grown = z.extend(response, { mood: z.optional(z.string()) });
  const first = TIME_ENTRY_COLUMNS.slice(0, 3);
  expect(csvColumns(grown, first, TIME_ENTRY_CSV_OMITTED).at(-1)).toBe('mood');
  expect(csvColumns(grown, first, TIME_ENTRY_CSV_OMITTED)).toHaveLength(TIME_ENTRY_COLUMNS.length + 1);
  expect(() => csvColumns(response, [...first, 'mood'], [])).toThrow('CSV columns name fields the response lacks: mood');
  expect(() => csvColumns(response, first, ['gone'])).toThrow('CSV columns name fields the response lacks: gone');
});
