/** The evidence gate: at most `running` calls at once, the rest in arrival order, 503 past `waiting`. */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '@evidence/schemas';
import { EvidenceGate } from '../src/evidence-gate.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('EvidenceGate', () => {
  it('runs at most `running` calls at once and starts the waiting ones in arrival order', async () => {
    const gate = new EvidenceGate(2, 10);
    const releases = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let concurrent = 0;
    let peak = 0;
    const calls = releases.map((release, index) =>
      gate.run(async () => {
        started.push(index);
        peak = Math.max(peak, ++concurrent);
        await release.promise;
        concurrent--;
        return index;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    releases[1].resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    releases.forEach((release) => release.resolve());
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it('refuses with 503 at capacity once the waiting line is full, and recovers', async () => {
    const gate = new EvidenceGate(1, 1);
    const release = deferred();
    const first = gate.run(() => release.promise);
    const second = gate.run(async () => 'second');
    const refused = await gate.run(async () => 'third').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).kind).toBe('at_capacity');
    release.resolve();
    await first;
    expect(await second).toBe('second');
    expect(await gate.run(async () => 'later')).toBe('later');
  });

  it('a failing call frees its place', async () => {
    const gate = new EvidenceGate(1, 5);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
