/** The run's results: one row per compared measurement, printed as a table and written as JSON. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Row {
  bench: string;
  metric: string;
  unit: string;
  value: number;
  /** The same measurement of the baseline, taken in this run. */
  baseline?: number;
  /** value / baseline (for throughputs: higher is better; for latencies: lower is better). */
  ratio?: number;
  target?: string;
  met?: boolean;
}

/** Per-benchmark detail: sample summaries, breakdowns, notes. Goes to the JSON file and, as text, under the table. */
export interface BenchOutcome {
  name: string;
  rows: Row[];
  details: Record<string, unknown>;
  /** Lines printed after the table (breakdowns of misses, explain output, caveats). */
  notes: string[];
}

export function row(
  bench: string,
  metric: string,
  unit: string,
  value: number,
  extra: Omit<Row, 'bench' | 'metric' | 'unit' | 'value'> = {},
): Row {
  const ratio = extra.ratio ?? (extra.baseline !== undefined && extra.baseline !== 0 ? value / extra.baseline : undefined);
  return { bench, metric, unit, value, ...extra, ...(ratio !== undefined ? { ratio } : {}) };
}

const fmt = (n: number | undefined, unit = '') => {
  if (n === undefined) return '';
  if (!Number.isFinite(n)) return 'n/a';
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  return `${n.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
};

export function renderTable(rows: Row[]): string {
  const header = ['benchmark', 'metric', 'product', 'baseline', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [
    r.bench,
    r.metric,
    fmt(r.value, r.unit),
    fmt(r.baseline, r.baseline === undefined ? '' : r.unit),
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ');
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  return [line(header), rule, ...body.map(line)].join('\n');
}

export function writeResults(file: string, data: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}

export const ms = (n: number) => `${fmt(n)} ms`;
