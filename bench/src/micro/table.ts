/**
 * The printed table of a group: one row per task, each case's baseline first, every task's
 * throughput as a ratio to its case's baseline (above 1x: faster than the baseline).
 * Throughput is read from the median latency, which the stalls of a shared machine move least;
 * the mean and p99 columns show what those stalls and garbage collection add.
 */
import type { TaskResult } from 'tinybench';
import type { MicroCase, MicroTask, TaskFigures } from './group.js';
import { ratio as loadRatio } from '../report.js';

export type { TaskFigures } from './group.js';

export type TaskOutcome = TaskFigures | { error: string };

export interface TableRow {
  case: string;
  task: string;
  'ops/s': number | string;
  'mean µs': number | string;
  'p50 µs': number | string;
  'p99 µs': number | string;
  'vs baseline': string;
  bytes?: number | string;
}

/** A tinybench result as figures, or why there are none. */
export function outcomeOf(result: TaskResult | undefined): TaskOutcome {
  if (!result) return { error: 'not run' };
  if (result.state === 'errored') return { error: result.error.message };
  if (result.state !== 'completed' && result.state !== 'aborted-with-statistics') return { error: result.state };
  return { meanMs: result.latency.mean, p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

/** Calls per second at the median latency. */
export function opsPerSecond(figures: TaskFigures): number {
  return figures.p50Ms > 0 ? 1000 / figures.p50Ms : 0;
}

/** Milliseconds as microseconds, to three significant digits at most (integers from 100 µs). */
export function microseconds(ms: number): number {
  const micros = ms * 1000;
  if (micros >= 100) return Math.round(micros);
  if (micros >= 10) return Number(micros.toFixed(1));
  return Number(micros.toFixed(2));
}

/** The load tables' ratio (`1.23x`), `n/a` without a baseline to compare with. */
export function ratio(opsPerSecond: number, baselineOpsPerSecond: number): string {
  return loadRatio(opsPerSecond, baselineOpsPerSecond) || 'n/a';
}

function isFigures(outcome: TaskOutcome | undefined): outcome is TaskFigures {
  return outcome !== undefined && !('error' in outcome);
}

/** Rows for a group's cases; `bytes` appears only when some task of the group reports bytes. */
export function tableRows(cases: readonly MicroCase[], outcomes: ReadonlyMap<MicroTask, TaskOutcome>): TableRow[] {
  const withBytes = cases.some((entry) => [entry.baseline, ...entry.tasks].some((task) => task.bytes !== undefined));
  const rows: TableRow[] = [];
  for (const entry of cases) {
    const baseline = outcomes.get(entry.baseline);
    for (const task of [entry.baseline, ...entry.tasks]) {
      const outcome = outcomes.get(task);
      const name = task === entry.baseline ? `baseline: ${task.name}` : task.name;
      const row: TableRow = isFigures(outcome)
        ? {
            case: entry.label,
            task: name,
            'ops/s': Math.round(opsPerSecond(outcome)),
            'mean µs': microseconds(outcome.meanMs),
            'p50 µs': microseconds(outcome.p50Ms),
            'p99 µs': microseconds(outcome.p99Ms),
            'vs baseline': isFigures(baseline) ? ratio(opsPerSecond(outcome), opsPerSecond(baseline)) : 'n/a',
          }
        : { case: entry.label, task: name, 'ops/s': `error: ${outcome?.error ?? 'not run'}`, 'mean µs': '', 'p50 µs': '', 'p99 µs': '', 'vs baseline': 'n/a' };
      if (withBytes) row.bytes = task.bytes ?? '';
      rows.push(row);
    }
  }
  return rows;
}
