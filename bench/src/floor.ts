/**
 * The in-process floor: the work behind an HTTP route called directly (no HTTP, no
 * authentication, metering or JSON), in a closed loop at a given concurrency. HTTP figures are
 * read against it.
 */
import { summariseLatencies, type LoadFigures } from './report.js';

/**
 * Run `work(i)` for i = 0, 1, 2, ... from `concurrency` loops for `seconds`; `isPartial` tells
 * an answer that part of the index did not contribute to.
 */
export async function measureFloor<Answer>(
  work: (index: number) => Promise<Answer>,
  concurrency: number,
  seconds: number,
  isPartial: (answer: Answer) => boolean = () => false,
): Promise<LoadFigures> {
  const latencies: number[] = [];
  let errors = 0;
  let partial = 0;
  let next = 0;
  const startedAt = performance.now();
  const endAt = startedAt + seconds * 1000;
  async function loop() {
    while (performance.now() < endAt) {
      const index = next++;
      const started = performance.now();
      try {
        const answer = await work(index);
        latencies.push(performance.now() - started);
        if (isPartial(answer)) partial++;
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop));
  return summariseLatencies(latencies, (performance.now() - startedAt) / 1000, errors, partial);
}
