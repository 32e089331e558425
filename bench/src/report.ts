/** Pure helpers of the load benchmarks: settings lists, latency summaries, ratios and tables. */
import { percentile } from './queries.js';

/** Throughput and latency of one measured run (latencies in ms). */
export interface LoadFigures {
  requests: number;
  qps: number;
  p50: number;
  p99: number;
  /** Failed requests: non-2xx answers and transport errors (HTTP), rejections (in-process). */
  errors: number;
  /** Answers marked partial: part of the index missed the search deadline. */
  partial: number;
  /**
   * CPU milliseconds per answer: of the server process (the floor: of the bench process, which
   * runs it), and of the whole machine (load generator included). Unset where not measured.
   */
  cpuMs?: number | null;
  machineCpuMs?: number | null;
}

export type Cell = string | number;
export type Row = Record<string, Cell>;

/** A comma-separated list of positive integers (`1,16,64`); the fallback when unset or empty. */
export function parseCounts(raw: string | undefined, fallback: number[], name = 'list'): number[] {
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(',').map((part) => {
    const value = Number(part.trim());
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: expected positive integers separated by commas, got "${raw}"`);
    return value;
  });
}

/** A comma-separated list of names, each one of `allowed`; the fallback when unset or empty. */
export function parseNames<Name extends string>(raw: string | undefined, allowed: readonly Name[], fallback: readonly Name[], name = 'list'): Name[] {
  if (raw === undefined || raw.trim() === '') return [...fallback];
  return raw.split(',').map((part) => {
    const value = part.trim();
    if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name}: "${value}" is not one of ${allowed.join(', ')}`);
    return value as Name;
  });
}

/** Figures of a closed loop that ran `elapsedSeconds` and recorded these latencies (ms, any order). */
export function summariseLatencies(latenciesMs: number[], elapsedSeconds: number, errors = 0, partial = 0): LoadFigures {
  const sorted = [...latenciesMs].sort((left, right) => left - right);
  return {
    requests: sorted.length,
    qps: elapsedSeconds > 0 ? sorted.length / elapsedSeconds : 0,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors,
    partial,
  };
}

/** `value / reference` as `1.23x`; empty when there is no reference to compare with. */
export function ratio(value: number | undefined, reference: number | undefined): string {
  if (value === undefined || reference === undefined || !Number.isFinite(value) || !Number.isFinite(reference) || reference <= 0) return '';
  return `${(value / reference).toFixed(2)}x`;
}

/** Milliseconds with two decimals (in-process) or as measured (autocannon reports whole ms). */
export function milliseconds(value: number): number {
  return Number(value.toFixed(2));
}

export function mebibytes(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}

function escapeCell(cell: Cell): string {
  return String(cell).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * A GitHub-flavoured markdown table of `rows` over `columns` (default: the keys of the first
 * row), padded so it also reads as plain text; numbers are right-aligned.
 */
export function markdownTable(rows: Row[], columns: string[] = rows.length > 0 ? Object.keys(rows[0]) : []): string {
  if (columns.length === 0) return '';
  const cells = rows.map((row) => columns.map((column) => escapeCell(row[column] ?? '')));
  const numeric = columns.map(
    (column) =>
      rows.some((row) => typeof row[column] === 'number') &&
      rows.every((row) => row[column] === undefined || row[column] === '' || typeof row[column] === 'number'),
  );
  const widths = columns.map((column, index) => Math.max(3, column.length, ...cells.map((line) => line[index].length)));
  const pad = (text: string, index: number) => (numeric[index] ? text.padStart(widths[index]) : text.padEnd(widths[index]));
  const line = (values: string[]) => `| ${values.map(pad).join(' | ')} |`;
  const rule = `|${widths.map((width, index) => (numeric[index] ? `${'-'.repeat(width + 1)}:` : `${'-'.repeat(width + 2)}`)).join('|')}|`;
  return [line(columns), rule, ...cells.map(line)].join('\n');
}
