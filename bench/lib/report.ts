import type { WarmResult } from '../warm';
import { fmt } from './stats';
/** Targets and tables of the benchmark report. */
export interface Target {
  section: string;
  name: string;
  figure: string;
  target: string;
  met: boolean;
}

export function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The same table as GitHub Markdown. */
export function markdownTable(header: string[], rows: string[][], leftColumns = 1): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const align = header.map((_, i) => (i < leftColumns ? '---' : '---:'));
  return [`| ${header.map(esc).join(' | ')} |`, `| ${align.join(' | ')} |`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

export const metText = (met: boolean) => (met ? 'MET' : 'NOT MET');
/** The targets a section met or not, as a table (bench/*-only.ts). */
export const targetsTable = (targets: readonly Target[]): string =>
  table(
    ['target', 'figure', 'wanted', 'result'],
    targets.map((t) => [t.name, t.figure, t.target, metText(t.met)]),
  );

/** The columns of the warm-overhead table (bench/run.ts, bench/warm-only.ts) and one result as a row. */
export const WARM_COLUMNS = ['route', 'DynamoDB', 'iterations', 'full p50', 'bare p50', 'overhead p50', 'full p99', 'bare p99', 'overhead p99', 'paired median'];
export const warmRow = (r: WarmResult): string[] => [
  r.route,
  r.mode,
  String(r.iterations),
  fmt(r.full.p50, 3),
  fmt(r.bare.p50, 3),
  fmt(r.overheadP50, 3),
  fmt(r.full.p99, 3),
  fmt(r.bare.p99, 3),
  fmt(r.overheadP99, 3),
  fmt(r.pairedMedian, 3),
];
