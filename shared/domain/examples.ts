import { idString, meta } from './fields';

/**
 * The OpenAPI document's examples (issue 26): one demo workspace ("Acme Corp" and its "Website relaunch"),
 * so that the examples of different shapes agree with each other (a time entry's projectId is the
 * project's id). Fields carry their example where they are declared (`meta(schema, { example })` on the entity
 * declarations' and the routes' zod schemas); shared/api/openapi.ts puts them in the document and composes
 * each component schema's example from its properties'. test/contract/examples.test.ts checks that every
 * property has one and that each is valid against its own schema.
 */
export const EXAMPLE_IDS = {
  client: '01JQ3K8M2X7D4C1V9B6N5T0RWA',
  project: '01JQ3K9A4F6H8J2K5M7N9P1QRS',
  task: '01JQ3KB2C4D6E8F0G2H4J6K8MN',
  tag: '01JQ3KC7T9V1W3X5Y7Z9A1B3CD',
  timeEntry: '01JQ7ZP5R8S2T4V6W8X0Y2Z4AB',
  favorite: '01JQ3KD9E1F3G5H7J9K1M3N5PQ',
  invoice: '01JQ8A2B4C6D8E0F2G4H6J8K0M',
  webhook: '01JQ3KE3F5G7H9J1K3M5N7P9QR',
  /** A user of the workspace, as the integration names them (the demo workspace's alice). */
  user: 'alice',
  workspace: 'acme',
  key: 'key_01JQ3K4A6B8C0D2E4F6G8H0J2K',
  event: 'evt_01JQ7ZQ1A3B5C7D9E1F3G5H7J9',
} as const;

/** The id of each resource's records (the `id` of its response object), by resource name. */
export const EXAMPLE_RECORD_IDS: Readonly<Record<string, string>> = {
  clients: EXAMPLE_IDS.client,
  projects: EXAMPLE_IDS.project,
  tasks: EXAMPLE_IDS.task,
  tags: EXAMPLE_IDS.tag,
  'time-entries': EXAMPLE_IDS.timeEntry,
  favorites: EXAMPLE_IDS.favorite,
  invoices: EXAMPLE_IDS.invoice,
  webhooks: EXAMPLE_IDS.webhook,
};

/** The example time entry's start: its sortKey is `<startTime>#<id>`. */
export const EXAMPLE_START = '2026-03-02T09:00:00.000Z';
export const EXAMPLE_SORT_KEY = `${EXAMPLE_START}#${EXAMPLE_IDS.timeEntry}`;
/** An opaque cursor as the API hands them out. */
export const EXAMPLE_CURSOR = 'eyJ2IjoxLCJrIjoiMjAyNi0wMy0wMlQwOTowMDowMC4wMDBaIzAxSlE3WlA1UjhTMlQ0VjZXOFgwWTJaNEFCIn0.k7Qm2vXr9Zc';

/** Ids of records of one kind: the id building block with the example of that kind. */
export const idOf = {
  client: meta(idString, { example: EXAMPLE_IDS.client }),
  project: meta(idString, { example: EXAMPLE_IDS.project }),
  task: meta(idString, { example: EXAMPLE_IDS.task }),
  tag: meta(idString, { example: EXAMPLE_IDS.tag }),
  timeEntry: meta(idString, { example: EXAMPLE_IDS.timeEntry }),
  favorite: meta(idString, { example: EXAMPLE_IDS.favorite }),
  invoice: meta(idString, { example: EXAMPLE_IDS.invoice }),
  webhook: meta(idString, { example: EXAMPLE_IDS.webhook }),
  user: meta(idString, { example: EXAMPLE_IDS.user }),
};
