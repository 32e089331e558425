/**
 * The CPU clocks bench:http reads per run: a process's own time (every thread) and the
 * machine's busy time both grow by at least the CPU a busy loop burns (counted in CPU time, so
 * a busy machine does not change the outcome), and a process that is gone reads as null.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuMeter, machineBusySeconds, ownCpuSeconds, processCpuSeconds } from '../src/cpu-time.js';

/** Spin until this process has used `milliseconds` more CPU (however busy the machine is). */
function burn(milliseconds: number): void {
  const until = ownCpuSeconds() + milliseconds / 1000;
  let sink = 0;
  while (ownCpuSeconds() < until) sink += Math.sqrt(sink + 1);
  expect(sink).toBeGreaterThan(0);
}

describe.runIf(process.platform === 'linux')('CPU time from /proc', () => {
  it('counts a busy loop in the process and in the machine', () => {
    const meter = cpuMeter(() => processCpuSeconds(process.pid));
    burn(300);
    const used = meter.stop(1);
    // /proc counts in clock ticks (10 ms): 300 ms of CPU reads as at least 250.
    expect(used.processMs).toBeGreaterThanOrEqual(250);
    expect(used.machineMs).toBeGreaterThanOrEqual(250);
    expect(meter.stop(0)).toEqual({ processMs: null, machineMs: null });
  });

  it('reads a process that has exited as null', () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    expect(processCpuSeconds(Number(child.stdout))).toBeNull();
    expect(machineBusySeconds()).toBeGreaterThan(0);
  });
});
