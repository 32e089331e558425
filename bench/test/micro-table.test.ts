/** The micro-benchmark runner's pure parts: group selection and the printed table's rows. */
import { describe, expect, it } from 'vitest';
import type { TaskResult } from 'tinybench';
import { selectGroups, type MicroCase, type MicroTask } from '../src/micro/group.js';
import { microseconds, opsPerSecond, outcomeOf, ratio, tableRows, type TaskOutcome } from '../src/micro/table.js';

const task = (name: string, bytes?: number): MicroTask => ({ name, fn: () => undefined, ...(bytes === undefined ? {} : { bytes }) });
/** Figures of a task running `ops` calls a second at its median. */
const figures = (ops: number, meanMs = 2000 / ops, p99Ms = 4000 / ops): TaskOutcome => ({ meanMs, p50Ms: 1000 / ops, p99Ms });

describe('selectGroups', () => {
  const groups = [{ name: 'parse' }, { name: 'shard' }, { name: 'merge' }];

  it('takes every group when nothing is selected', () => {
    expect(selectGroups(groups, undefined)).toEqual(groups);
    expect(selectGroups(groups, ' , ')).toEqual(groups);
  });

  it('takes the named groups in the order given, once each', () => {
    expect(selectGroups(groups, 'merge, parse,merge').map((group) => group.name)).toEqual(['merge', 'parse']);
  });

  it('refuses an unknown name and lists the known ones', () => {
    expect(() => selectGroups(groups, 'parse,sort')).toThrow('unknown bench group "sort": one of parse, shard, merge');
  });
});

describe('table figures', () => {
  it('shows microseconds to three significant digits, integers from 100 µs', () => {
    expect(microseconds(0.000234)).toBe(0.23);
    expect(microseconds(0.0123)).toBe(12.3);
    expect(microseconds(0.4567)).toBe(457);
    expect(microseconds(12.5)).toBe(12500);
  });

  it('gives throughput as a ratio to the baseline', () => {
    expect(ratio(300, 100)).toBe('3.00x');
    expect(ratio(50, 200)).toBe('0.25x');
    expect(ratio(50, 0)).toBe('n/a');
  });

  it('reads the latencies of a completed task, ops/s at its median, and the error of a failed one', () => {
    const completed = { state: 'completed', latency: { mean: 0.005, p50: 0.004, p99: 0.01 } } as unknown as TaskResult;
    expect(outcomeOf(completed)).toEqual({ meanMs: 0.005, p50Ms: 0.004, p99Ms: 0.01 });
    expect(opsPerSecond({ meanMs: 0.005, p50Ms: 0.004, p99Ms: 0.01 })).toBe(250_000);
    expect(outcomeOf({ state: 'errored', error: new Error('boom') } as TaskResult)).toEqual({ error: 'boom' });
    expect(outcomeOf({ state: 'not-started' } as TaskResult)).toEqual({ error: 'not-started' });
    expect(outcomeOf(undefined)).toEqual({ error: 'not run' });
  });
});

describe('tableRows', () => {
  const small: MicroCase = { label: 'small', baseline: task('floor'), tasks: [task('fast'), task('slow')] };
  const large: MicroCase = { label: 'large', baseline: task('floor'), tasks: [task('fast')] };
  const outcomes = new Map<MicroTask, TaskOutcome>([
    [small.baseline, figures(1000, 1.5, 2)],
    [small.tasks[0], figures(2000)],
    [small.tasks[1], figures(250)],
    [large.baseline, figures(100)],
    [large.tasks[0], { error: 'boom' }],
  ]);

  it('puts each case baseline first and compares every task with the baseline of its own case', () => {
    const rows = tableRows([small, large], outcomes);
    expect(rows.map((row) => [row.case, row.task, row['vs baseline']])).toEqual([
      ['small', 'baseline: floor', '1.00x'],
      ['small', 'fast', '2.00x'],
      ['small', 'slow', '0.25x'],
      ['large', 'baseline: floor', '1.00x'],
      ['large', 'fast', 'n/a'],
    ]);
    expect(rows[0]).toEqual({ case: 'small', task: 'baseline: floor', 'ops/s': 1000, 'mean µs': 1500, 'p50 µs': 1000, 'p99 µs': 2000, 'vs baseline': '1.00x' });
    expect(rows[4]['ops/s']).toBe('error: boom');
  });

  it('has a bytes column only when some task reports bytes', () => {
    expect(tableRows([small], outcomes).some((row) => 'bytes' in row)).toBe(false);
    const sized: MicroCase = { label: 'sized', baseline: task('json', 120), tasks: [task('msgpack', 100), task('clone')] };
    const rows = tableRows([sized], new Map([[sized.baseline, figures(10)], [sized.tasks[0], figures(20)], [sized.tasks[1], figures(30)]]));
    expect(rows.map((row) => row.bytes)).toEqual([120, 100, '']);
  });
});
