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
