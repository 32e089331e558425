/** The micro-benchmark runner's pure parts: group selection and the printed table's rows. */
import { describe, expect, it } from 'vitest';
import type { TaskResult } from 'tinybench';
import { selectGroups, type MicroCase, type MicroTask } from '../src/micro/group.js';
import { microseconds, outcomeOf, ratio, tableRows, type TaskOutcome } from '../src/micro/table.js';

const task = (name: string, bytes?: number): MicroTask => ({ name, fn: () => undefined, ...(bytes === undefined ? {} : { bytes }) });
const figures = (opsPerSecond: number, p50Ms = 0.01, p99Ms = 0.02): TaskOutcome => ({ opsPerSecond, p50Ms, p99Ms });

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

  it('reads ops/s as 1000 / mean latency of a completed task, and the error of a failed one', () => {
    const completed = { state: 'completed', latency: { mean: 0.004, p50: 0.003, p99: 0.01 } } as unknown as TaskResult;
    expect(outcomeOf(completed)).toEqual({ opsPerSecond: 250_000, p50Ms: 0.003, p99Ms: 0.01 });
    expect(outcomeOf({ state: 'errored', error: new Error('boom') } as TaskResult)).toEqual({ error: 'boom' });
    expect(outcomeOf({ state: 'not-started' } as TaskResult)).toEqual({ error: 'not-started' });
    expect(outcomeOf(undefined)).toEqual({ error: 'not run' });
  });
});

describe('tableRows', () => {
  const small: MicroCase = { label: 'small', baseline: task('floor'), tasks: [task('fast'), task('slow')] };
  const large: MicroCase = { label: 'large', baseline: task('floor'), tasks: [task('fast')] };
  const outcomes = new Map<MicroTask, TaskOutcome>([
    [small.baseline, figures(1000, 0.5, 2)],
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
    expect(rows[0]).toEqual({ case: 'small', task: 'baseline: floor', 'ops/s': 1000, 'p50 µs': 500, 'p99 µs': 2000, 'vs baseline': '1.00x' });
    expect(rows[4]['ops/s']).toBe('error: boom');
  });

  it('has a bytes column only when some task reports bytes', () => {
    expect(tableRows([small], outcomes).some((row) => 'bytes' in row)).toBe(false);
    const sized: MicroCase = { label: 'sized', baseline: task('json', 120), tasks: [task('msgpack', 100), task('clone')] };
    const rows = tableRows([sized], new Map([[sized.baseline, figures(10)], [sized.tasks[0], figures(20)], [sized.tasks[1], figures(30)]]));
    expect(rows.map((row) => row.bytes)).toEqual([120, 100, '']);
  });
});
