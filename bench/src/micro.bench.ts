/**
 * `npm run bench`: tinybench micro-benchmarks of the search path, in groups (bench/src/micro/),
 * one table per group, every task beside the baseline of its case.
 *
 *   BENCH_GROUPS=parse,merge   groups to run, in that order (default: all of them)
 *   BENCH_MS=1000              time per task, ms
 *   DATA_DIR=./data            the index the shard and lucene groups search; without one those
 *                              groups are skipped with a message and the others run
 *   BENCH_CORPUS=FILE.jsonl    lucene group: the JSONL the index in DATA_DIR was built from
 *   LUCENE_SECONDS=10          lucene group: seconds per Lucene mode (after LUCENE_WARMUP_SECONDS=5)
 */
import { Bench } from 'tinybench';
import { embedGroup } from './micro/embed.js';
import { groundGroup } from './micro/ground.js';
import { luceneGroup } from './micro/lucene.js';
import { isUnavailable, selectGroups, type MicroGroup, type MicroTask } from './micro/group.js';
import { mergeGroup } from './micro/merge.js';
import { parseGroup } from './micro/parse.js';
import { shardSearchGroup } from './micro/shard-search.js';
import { outcomeOf, tableRows, type TaskOutcome } from './micro/table.js';
import { transferGroup } from './micro/transfer.js';

const GROUPS: readonly MicroGroup[] = [parseGroup, shardSearchGroup, luceneGroup, mergeGroup, transferGroup, groundGroup, embedGroup];

function timePerTask(): number {
  const raw = process.env.BENCH_MS;
  const ms = raw === undefined || raw === '' ? 1000 : Number(raw);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`BENCH_MS must be a positive number of milliseconds, got ${raw}`);
  return ms;
}

/** Runs one group and prints its table; false when the group could not run here. */
async function runGroup(group: MicroGroup, time: number): Promise<boolean> {
  console.log(`\n== ${group.name}: ${group.title}`);
  const setup = await group.setup();
  if (isUnavailable(setup)) {
    console.log(`skipped: ${setup.unavailable}`);
    return false;
  }
  try {
    const bench = new Bench({ name: group.name, time, warmup: true });
    const named = new Map<MicroTask, string>();
    for (const entry of setup.cases) {
      for (const task of [entry.baseline, ...entry.tasks]) {
        if (task.measured) continue;
        // tinybench names tasks uniquely; the case label makes them so across cases.
        const name = `${entry.label} | ${task.name}`;
        named.set(task, name);
        bench.add(name, task.fn);
      }
    }
    await bench.run();
    const outcomes = new Map<MicroTask, TaskOutcome>();
    for (const [task, name] of named) outcomes.set(task, outcomeOf(bench.getTask(name)?.result));
    for (const entry of setup.cases) {
      for (const task of [entry.baseline, ...entry.tasks]) if (task.measured) outcomes.set(task, task.measured);
    }
    console.log(group.legend);
    if (setup.note) console.log(setup.note);
    console.table(tableRows(setup.cases, outcomes));
    return true;
  } finally {
    await setup.close?.();
  }
}

let groups: MicroGroup[];
let time: number;
try {
  groups = selectGroups(GROUPS, process.env.BENCH_GROUPS);
  time = timePerTask();
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
console.log(`${groups.length} group(s), ${time} ms per task; ops/s = 1000 / p50 latency; vs baseline = ops/s over the case baseline's (above 1x: faster)`);
let ran = 0;
for (const group of groups) {
  if (await runGroup(group, time)) ran++;
}
if (ran === 0) process.exitCode = 2;
