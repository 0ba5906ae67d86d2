import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable } from './report';

/**
 * docs/capacity.md's cost table, written from the work section of docs/performance.md (section 4: one
 * request per route, its DynamoDB calls and units, measured by `npm run bench`), so the dollars per request
 * are always the measured units at list price. `npm run bench` and `npm run bench -- --only work` write it;
 * `npx tsx bench/lib/capacity-doc.ts` rewrites it from the committed docs/performance.md alone;
 * test/bench/capacity-doc.test.ts fails when the two files disagree.
 */
export const DOCS_DIR = join(__dirname, '..', '..', 'docs');
export const WORK_SECTION_TITLE = '4. DynamoDB work per endpoint';
export const TABLE_START = '<!-- cost table: written by bench/lib/capacity-doc.ts from section 4 of docs/performance.md; do not edit by hand -->';
export const TABLE_END = '<!-- end of the cost table -->';

/** List prices (us-east-1, on-demand), per 1,000 requests: the table "Prices used" of docs/capacity.md. */
export const PRICES = {
  /** $0.625 per million write request units */
  perWru: 0.000625,
  /** $0.125 per million read request units */
  perRru: 0.000125,
  /** API Gateway REST $3.50 per million + Lambda requests $0.20 per million + 20 ms billed at 1,024 MB arm64 */
  beforeDynamo: 0.0035 + 0.0002 + 0.000267,
} as const;

/** One row of the work table: what one request of a route costs. */
export interface WorkRow {
  route: string;
  endpoint: string;
  status: string;
  dataCalls: number;
  rlCalls: number;
  rcu: number;
  wcu: number;
}

/** Section 4 of docs/performance.md: its first table, by column name. */
export function parseWorkSection(performanceMd: string): WorkRow[] {
  const start = performanceMd.indexOf(`## ${WORK_SECTION_TITLE}`);
  if (start < 0) throw new Error(`docs/performance.md has no section "## ${WORK_SECTION_TITLE}"`);
  const lines = performanceMd.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('| '));
  const cells = (l: string) =>
    l
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  const header = cells(lines[first]!);
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`section 4 of docs/performance.md has no column "${name}" (columns: ${header.join(', ')})`);
    return i;
  };
  const [route, endpoint, status, data, rl, rcu, wcu] = ['route', 'endpoint', 'status', 'data calls', 'RL calls', 'RCU', 'WCU'].map(col) as number[];
  const rows: WorkRow[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('| ')) break;
    const c = cells(line);
    rows.push({
      route: c[route!]!,
      endpoint: c[endpoint!]!,
      status: c[status!]!,
      dataCalls: Number.parseInt(c[data!]!, 10),
      rlCalls: Number(c[rl!]),
      rcu: Number(c[rcu!]),
      wcu: Number(c[wcu!]),
    });
  }
  if (rows.length === 0) throw new Error('section 4 of docs/performance.md has an empty table');
  for (const r of rows)
    if ([r.dataCalls, r.rlCalls, r.rcu, r.wcu].some((n) => !Number.isFinite(n))) throw new Error(`section 4 of docs/performance.md: a row without numbers: ${r.endpoint}`);
  return rows;
}

const units = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const dollars = (n: number) => n.toFixed(5);

/** What one row of the work table costs per 1,000 requests. */
export function costOf(r: WorkRow): { dynamo: number; total: number } {
  const dynamo = r.rcu * PRICES.perRru + r.wcu * PRICES.perWru;
  return { dynamo, total: dynamo + PRICES.beforeDynamo };
}

/** The generated block of docs/capacity.md (markers included): the table and the sentence that reads it. */
export function costBlock(rows: readonly WorkRow[]): string {
  const header = ['Request', 'status', 'calls', 'RRU', 'WRU', 'DynamoDB $ / 1,000', 'total $ / 1,000'];
  const body = rows.map((r) => {
    const c = costOf(r);
    return [r.endpoint, r.status, `${r.dataCalls} + ${r.rlCalls} RL`, units(r.rcu), units(r.wcu), dollars(c.dynamo), dollars(c.total)];
  });
  const isWrite = (r: WorkRow) => /^(POST|PUT|PATCH|DELETE) /.test(r.endpoint) && r.status.startsWith('2');
  const isRead = (r: WorkRow) => r.endpoint.startsWith('GET ') && r.rlCalls > 0;
  const range = (rs: WorkRow[]) => {
    const t = rs.map((r) => costOf(r).total);
    return `$${dollars(Math.min(...t))}-${dollars(Math.max(...t))}`;
  };
  const writes = rows.filter(isWrite);
  const reads = rows.filter(isRead);
  const dearest = [...writes].sort((a, b) => b.wcu - a.wcu)[0];
  const reading = [
    `Reading it (${rows.length} rows, one per request of section 4 of performance.md): a read costs ${range(reads)} per 1,000 requests and a write ${range(writes)},`,
    `of which $${PRICES.beforeDynamo.toFixed(5)} is API Gateway and Lambda; the dearest write is \`${dearest?.endpoint ?? '-'}\` (${units(dearest?.wcu ?? 0)} WRU):`,
    'every item in a transaction costs double, every GSI copy of an item is written too, and every write carries its change event.',
  ].join('\n');
  return [TABLE_START, '', markdownTable(header, body, 2), '', reading, '', TABLE_END].join('\n');
}

/** docs/capacity.md with its generated block replaced. */
export function withCostBlock(capacityMd: string, block: string): string {
  const a = capacityMd.indexOf(TABLE_START);
  const b = capacityMd.indexOf(TABLE_END);
  if (a < 0 || b < a) throw new Error(`docs/capacity.md lacks the markers of its cost table (${TABLE_START} ... ${TABLE_END})`);
  return capacityMd.slice(0, a) + block + capacityMd.slice(b + TABLE_END.length);
}

/** docs/performance.md with section 4 (heading to the next `## `) replaced by a fresh one. */
export function withWorkSection(performanceMd: string, sectionMarkdown: string): string {
  const heading = `## ${WORK_SECTION_TITLE}`;
  const a = performanceMd.indexOf(`${heading}\n`);
  if (a < 0) throw new Error(`docs/performance.md has no section "${heading}" to replace`);
  const next = performanceMd.indexOf('\n## ', a + heading.length);
  const end = next < 0 ? performanceMd.length : next + 1;
  return `${performanceMd.slice(0, a)}${heading}\n\n${sectionMarkdown}\n\n${performanceMd.slice(end)}`;
}

/** Rewrites docs/capacity.md's cost table from docs/performance.md as it is on disk. */
export function writeCostTable(docsDir = DOCS_DIR): void {
  const perf = readFileSync(join(docsDir, 'performance.md'), 'utf8');
  const file = join(docsDir, 'capacity.md');
  writeFileSync(file, withCostBlock(readFileSync(file, 'utf8'), costBlock(parseWorkSection(perf))));
}

if (require.main === module) {
  writeCostTable();
  console.log('docs/capacity.md: cost table written from section 4 of docs/performance.md');
}
