/**
 * Admission for the evidence capabilities (ground, changes, assemble_context). Each of their
 * calls sends several searches to every shard (candidates, counts, story expansion), so 256 of
 * them at once filled the shard queues and nearly every call was refused with 503. The gate lets
 * `running` calls search at a time and queues the rest in order, so under load they wait their
 * turn instead of failing; only past `waiting` queued calls does a call get 503 at capacity
 * (with retry-after), and nothing is charged for it.
 */
import { errors } from '@evidence/schemas';

export class EvidenceGate {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly waitListeners: ((seconds: number) => void)[] = [];

  constructor(
    readonly running: number,
    readonly waiting: number,
  ) {}

  /** Shard queue room the gate leaves to plain searches: it admits calls whose searches use at most a quarter of MAX_QUEUE. */
  static forQueue(maxQueue: number): EvidenceGate {
    const running = Math.max(2, Math.floor(maxQueue / 4 / SEARCHES_PER_CALL));
    return new EvidenceGate(running, maxQueue);
  }

  /** Calls searching now, and calls waiting their turn (operators' metrics). */
  stats(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.queue.length };
  }

  /** Called with the time each call that had to wait spent waiting. */
  onWait(listener: (seconds: number) => void): void {
    this.waitListeners.push(listener);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) throw errors.atCapacity(1);
      const waitStartedAt = performance.now();
      await new Promise<void>((resolve) => this.queue.push(resolve));
      const seconds = (performance.now() - waitStartedAt) / 1000;
      for (const listener of this.waitListeners) listener(seconds);
    } else {
      this.active++;
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** Searches per shard one evidence call sends at most in the common case (ground: candidates,
 * the lexical count, three story-expansion scatters; with max_age or a vertical a few more). */
export const SEARCHES_PER_CALL = 8;
