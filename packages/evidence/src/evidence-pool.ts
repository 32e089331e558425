/**
 * The evidence computations run in worker threads (the event loop only routes and writes): a
 * small piscina pool of EVIDENCE_THREADS threads. A task carries the hits the main thread
 * gathered (structured clone) and comes back as the response body.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { errors, type ChangesResponse, type ContextPack, type CorroborateResponse, type GroundResponse } from '@evidence/schemas';
import type { CorroborateTask } from './corroboration.js';
import type { ChangesTask, ContextTask, EvidenceTask, GroundTask } from './types.js';

const workerFilename = fileURLToPath(new URL('./worker-entry.cjs', import.meta.url));

export interface EvidencePoolOptions {
  threads: number;
  /** Tasks that may wait before the pool answers 503 at capacity. */
  maxQueue: number;
}

export class EvidencePool {
  private readonly piscina: Piscina;

  constructor(options: EvidencePoolOptions) {
    this.piscina = new Piscina({
      filename: workerFilename,
      minThreads: options.threads,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      idleTimeout: Number.MAX_SAFE_INTEGER,
    });
  }

  ground(task: GroundTask): Promise<GroundResponse> {
    return this.run({ op: 'ground', task });
  }

  changes(task: ChangesTask): Promise<ChangesResponse> {
    return this.run({ op: 'changes', task });
  }

  context(task: ContextTask): Promise<ContextPack> {
    return this.run({ op: 'context', task });
  }

  corroborate(task: CorroborateTask): Promise<CorroborateResponse> {
    return this.run({ op: 'corroborate', task });
  }

  private async run<T>(task: EvidenceTask): Promise<T> {
    try {
      return (await this.piscina.run(task)) as T;
    } catch (error) {
      if (error instanceof Error && /queue is at limit/i.test(error.message)) throw errors.atCapacity(1);
      throw error;
    }
  }

  get threads(): number {
    return this.piscina.threads.length;
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
