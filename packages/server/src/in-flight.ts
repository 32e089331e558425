import { errors } from '@evidence/schemas';

/**
 * Calls under way, so a shutdown can let them finish: intake stops first (no new calls), then
 * `drained` waits for the running ones (bounded), and only then do the pools and the ledger
 * close. Without it, a SIGTERM cut calls off mid-way ("Terminating worker thread").
 */
export class InFlight {
  private running = 0;
  private waiters: (() => void)[] = [];
  private stopped = false;

  get count(): number {
    return this.running;
  }

  /** Whether a shutdown has begun: a call that fails from here on is not charged. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** From now on `track` refuses new calls with a 503 (retry-after), before anything is reserved. */
  stopIntake(): void {
    this.stopped = true;
  }

  async track<T>(work: () => Promise<T>): Promise<T> {
    if (this.stopped) throw errors.shuttingDown();
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      if (this.running === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves true once nothing runs, or false when `timeoutMs` passed first. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
