/**
 * The shape of one micro-benchmark group: cases, each a baseline and the tasks read against it
 * (the table's ratio column), and which groups a run measures (BENCH_GROUPS).
 */

/** What a row reports of one task (ms). */
export interface TaskFigures {
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

export interface MicroTask {
  name: string;
  fn: () => unknown;
  /** Bytes the task moves or produces, when that is part of what it measures. */
  bytes?: number;
  /**
   * Figures measured outside this process (a peer engine's own bench, run during setup): the
   * task is not timed here and `fn` is never called.
   */
  measured?: TaskFigures;
}

/** One input size or setting: tasks are compared with the baseline of their own case. */
export interface MicroCase {
  label: string;
  baseline: MicroTask;
  tasks: MicroTask[];
}

export interface MicroSetup {
  cases: MicroCase[];
  /** A line printed above the table (e.g. the index measured). */
  note?: string;
  close?: () => Promise<void>;
}

/** Why a group cannot run here (e.g. no index); the other groups still run. */
export interface MicroUnavailable {
  unavailable: string;
}

export interface MicroGroup {
  /** The name BENCH_GROUPS selects it by. */
  name: string;
  title: string;
  /** What the baseline is and what the rows measure. */
  legend: string;
  setup(): Promise<MicroSetup | MicroUnavailable>;
}

/** Whether a step (a group's setup, a peer's preparation) could not run here. */
export function isUnavailable<Ready extends object>(value: Ready | MicroUnavailable): value is MicroUnavailable {
  return 'unavailable' in value;
}

/**
 * The groups named in `selection` (comma-separated, e.g. "parse,merge"), in the order given;
 * every group when the selection is empty. An unknown name throws, naming the known ones.
 */
export function selectGroups<Group extends { name: string }>(groups: readonly Group[], selection: string | undefined): Group[] {
  const names = (selection ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return [...groups];
  const chosen: Group[] = [];
  for (const name of names) {
    const group = groups.find((candidate) => candidate.name === name);
    if (!group) throw new Error(`unknown bench group "${name}": one of ${groups.map((known) => known.name).join(', ')}`);
    if (!chosen.includes(group)) chosen.push(group);
  }
  return chosen;
}
