/**
 * CPU time, for the cost of an answer apart from how the cores were shared: a process's (every
 * thread's, user + system) and the whole machine's busy time, both from /proc (Linux). On a
 * system without /proc both are null and the bench leaves the CPU columns out.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    const asked = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim());
    ticksPerSecond = Number.isFinite(asked) && asked > 0 ? asked : 100;
  }
  return ticksPerSecond;
}

/** User + system CPU seconds of process `pid` so far (all its threads), or null. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return null;
  }
}

/** CPU seconds the whole machine spent busy (not idle or waiting for I/O) so far, or null. */
export function machineBusySeconds(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [, ...values] = line.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = values.map(Number);
    return (user + nice + system + irq + softirq + steal) / clockTicks();
  } catch {
    return null;
  }
}

/** CPU milliseconds per answer over a run: made just before it, `stop(answers)` just after. */
export function cpuMeter(processSeconds: () => number | null): { stop(answers: number): { processMs: number | null; machineMs: number | null } } {
  const processBefore = processSeconds();
  const machineBefore = machineBusySeconds();
  return {
    stop(answers) {
      const processAfter = processSeconds();
      const machineAfter = machineBusySeconds();
      const per = (before: number | null, after: number | null) => (before === null || after === null || answers <= 0 ? null : ((after - before) * 1000) / answers);
      return { processMs: per(processBefore, processAfter), machineMs: per(machineBefore, machineAfter) };
    },
  };
}

/** This process's CPU seconds (every thread), for the in-process floor. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}
