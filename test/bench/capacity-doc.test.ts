import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { costBlock, costOf, DOCS_DIR, parseWorkSection, PRICES, TABLE_END, TABLE_START, withCostBlock, withWorkSection, WORK_SECTION_TITLE } from '../../bench/lib/capacity-doc';
import { markdownTable } from '../../bench/lib/report';

/**
 * docs/capacity.md prices what docs/performance.md measures: its cost table is the one bench/lib/capacity-doc.ts
 * writes from section 4 of performance.md (`npm run bench`, `npm run bench -- --only work`, or
 * `npx tsx bench/lib/capacity-doc.ts` after a merge), byte for byte.
 */
const read = (file: string) => readFileSync(join(DOCS_DIR, file), 'utf8');

test('the cost table of docs/capacity.md is the one written from section 4 of docs/performance.md', () => {
  const capacity = read('capacity.md');
  const expected = costBlock(parseWorkSection(read('performance.md')));
  const committed = capacity.slice(capacity.indexOf(TABLE_START), capacity.indexOf(TABLE_END) + TABLE_END.length);
  // row by row first, so a failure names the request that disagrees
  const rows = (block: string) => block.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Request') && !l.startsWith('| ---'));
  expect(rows(committed)).toEqual(rows(expected));
  expect(committed).toBe(expected);
});

test('every request of the work section has its row, priced at the list prices of "Prices used"', () => {
  const rows = parseWorkSection(read('performance.md'));
  expect(rows.length).toBeGreaterThan(40);
  const prices = read('capacity.md');
  expect(prices).toContain('$0.625 per million write request units');
  expect(prices).toContain('$0.125 per million read request units');
  expect(prices).toContain(`about **$${PRICES.beforeDynamo.toFixed(5)} per 1,000** before DynamoDB`);
  const list = rows.find((r) => r.endpoint === 'GET /v1/clients')!;
  expect(list).toMatchObject({ dataCalls: 1, rlCalls: 1, rcu: 0.5, wcu: 1 });
  // 0.5 RRU x $0.000125 + 1 WRU x $0.000625 per 1,000 requests
  expect(costOf(list).dynamo).toBeCloseTo(0.0006875, 10);
});

test('the parser reads columns by name, escaped pipes included, and refuses a table without numbers', () => {
  const section = (rows: string[][]) =>
    `# P\n\n## ${WORK_SECTION_TITLE}\n\n${markdownTable(['route', 'endpoint', 'status', 'data calls', 'RL calls', 'RCU', 'WCU'], rows, 2)}\n\nnote\n\n## 5. Next\n`;
  const md = section([['r', 'GET /v1/x ?a|b', '200', '2: GetItem + Query', '1', '1.5', '1.0']]);
  expect(parseWorkSection(md)).toEqual([{ route: 'r', endpoint: 'GET /v1/x ?a|b', status: '200', dataCalls: 2, rlCalls: 1, rcu: 1.5, wcu: 1 }]);
  expect(() => parseWorkSection(section([['r', 'GET /v1/x', '200', 'many', '1', '1', '1']]))).toThrow(/without numbers: GET \/v1\/x/);
  expect(() => parseWorkSection('# P\n')).toThrow(/no section/);
});

test('a fresh work section replaces the old one up to the next section; the cost block replaces what is between its markers', () => {
  const perf = `# P\n\n## 3. Before\n\nkeep\n\n## ${WORK_SECTION_TITLE}\n\nold table\n\n### p50\n\nold\n\n## 5. After\n\nkeep too\n`;
  expect(withWorkSection(perf, 'new table')).toBe(`# P\n\n## 3. Before\n\nkeep\n\n## ${WORK_SECTION_TITLE}\n\nnew table\n\n## 5. After\n\nkeep too\n`);
  const cap = `# C\n\nabove\n\n${TABLE_START}\nstale\n${TABLE_END}\n\nbelow\n`;
  expect(withCostBlock(cap, `${TABLE_START}\nfresh\n${TABLE_END}`)).toBe(`# C\n\nabove\n\n${TABLE_START}\nfresh\n${TABLE_END}\n\nbelow\n`);
  expect(() => withCostBlock('# C\n', 'x')).toThrow(/lacks the markers/);
});
