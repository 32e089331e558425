/**
 * The evidence computations run in worker threads (the event loop only routes and writes): a
 * small piscina pool of EVIDENCE_THREADS threads. Ground, changes, assemble_context and
 * corroborate retrieve from the worker: each task carries a MessagePort to the shard pool
 * (`servePort`; for changes, to the admission ledger too), and its hits reach the worker as the
 * shards' bytes, decoded there once. A task answers its response body, or its error as data (so
 * a ServiceError keeps its kind and whether the call ran).
 */
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { errors, type ChangesResponse, type ContextPack, type CorroborateResponse, type GroundResponse } from '@evidence/schemas';
import { reviveError, servePort, type LedgerLookup, type ShardSearcher } from './shard-searcher.js';
import type { ChangesCall, ContextCall, CorroborateCall, EvidenceTask, GroundCall } from './types.js';
import type { EvidenceMessage, EvidenceOutcome, EvidenceWorkerData } from './worker.js';

const workerFilename = fileURLToPath(new URL('./worker-entry.cjs', import.meta.url));

export interface EvidencePoolOptions {
  threads: number;
  /** Tasks that may wait before the pool answers 503 at capacity. */
  maxQueue: number;
  /**
   * Calls a thread holds at once: a call waits for the shards between its computations, so a
   * thread interleaves several (the evidence gate bounds how many run in all).
   */
  callsPerThread: number;
  /** DATA_DIR (the workers follow its hidden-text record). */
  dataDir: string;
}

export class EvidencePool {
  private readonly piscina: Piscina;

  constructor(options: EvidencePoolOptions) {
    this.piscina = new Piscina({
      filename: workerFilename,
      minThreads: options.threads,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      concurrentTasksPerWorker: options.callsPerThread,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      workerData: { dataDir: options.dataDir } satisfies EvidenceWorkerData,
    });
  }

  ground(call: GroundCall, shards: ShardSearcher): Promise<GroundResponse> {
    return this.run({ op: 'ground', call }, shards);
  }

  /** `ledger`: what the admission ledger says of the URLs the call named (`known_urls`). */
  changes(call: ChangesCall, shards: ShardSearcher, ledger: LedgerLookup): Promise<ChangesResponse> {
    return this.run({ op: 'changes', call }, shards, ledger);
  }

  context(call: ContextCall, shards: ShardSearcher): Promise<ContextPack> {
    return this.run({ op: 'context', call }, shards);
  }

  corroborate(call: CorroborateCall, shards: ShardSearcher): Promise<CorroborateResponse> {
    return this.run({ op: 'corroborate', call }, shards);
  }

  private async run<T>(task: EvidenceTask, shards: ShardSearcher, ledger?: LedgerLookup): Promise<T> {
    const channel = new MessageChannel();
    servePort(channel.port1, shards, ledger);
    let outcome: EvidenceOutcome;
    try {
      const message: EvidenceMessage = { task, port: channel.port2 };
      outcome = (await this.piscina.run(message, { transferList: [channel.port2] })) as EvidenceOutcome;
    } catch (error) {
      if (error instanceof Error && /queue is at limit/i.test(error.message)) throw errors.atCapacity(1);
      throw error;
    } finally {
      channel.port1.close();
    }
    if ('error' in outcome) throw reviveError(outcome.error);
    return outcome.body as T;
  }

  get threads(): number {
    return this.piscina.threads.length;
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
