import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FromLedgerWorker, LedgerRowTuple, LedgerWorkerData, ToLedgerWorker } from './ledger-messages.js';
import type { LedgerRow } from './records.js';

export interface LedgerWriterOptions {
  databasePath: string;
  maxRowsPerCommit?: number;
  /** while other billed calls run, rows wait this long for theirs before one commit; default 1 */
  groupCommitDelayMs?: number;
}

/** One durable group commit: rows in the transaction and the time its commit (fsync included) took. */
export interface LedgerCommit {
  rows: number;
  commitSeconds: number;
}

interface Batch {
  batchId: number;
  rows: LedgerRowTuple[];
  /** whether other billed calls were still running at the last append (see `append`) */
  othersOpen: boolean;
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The worker runs from compiled JavaScript. Under vitest this module is TypeScript source, and a
 * thread cannot load .ts on Node 20, so tests use the compiled worker next to the sources.
 */
function ledgerWorkerUrl(): URL {
  if (import.meta.url.endsWith('.js')) return new URL('./ledger-worker.js', import.meta.url);
  return new URL('../dist/ledger-worker.js', import.meta.url);
}

/**
 * Main-thread side of the usage ledger. `append` queues a row and returns a promise that
 * resolves once the row is committed with fsync. Rows appended in one event-loop turn travel
 * to the worker as one message. The worker commits the row of a lone call at once; while other
 * billed calls are still running it waits up to `groupCommitDelayMs` for their rows, so one
 * fsync serves many calls under load; messages that arrive during a commit go into the next.
 */
export class LedgerWriter {
  private openBatch: Batch | null = null;
  /** sent to the worker, not yet acknowledged */
  private readonly inFlight = new Map<number, Batch>();
  private nextBatchId = 1;
  private brokenBy: Error | null = null;
  private closing: Promise<void> | null = null;
  private readonly commitListeners: ((commit: LedgerCommit) => void)[] = [];

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: FromLedgerWorker) => this.onWorkerMessage(message));
    worker.on('error', (error) => this.breakWith(new Error(`usage ledger worker failed: ${error.message}`)));
    worker.on('exit', (code) => {
      if (this.closing === null) this.breakWith(new Error(`usage ledger worker exited with code ${code}`));
    });
    this.updateWorkerRef();
  }

  /** Starts the worker and waits until its connection is open, so a bad data dir fails here. */
  static async start(options: LedgerWriterOptions): Promise<LedgerWriter> {
    const workerUrl = ledgerWorkerUrl();
    if (!existsSync(fileURLToPath(workerUrl))) {
      throw new Error(`usage ledger worker not built: missing ${fileURLToPath(workerUrl)} (run npm run build:ts)`);
    }
    const workerData: LedgerWorkerData = {
      databasePath: options.databasePath,
      maxRowsPerCommit: options.maxRowsPerCommit ?? 512,
      groupCommitDelayMs: options.groupCommitDelayMs ?? 1,
    };
    const worker = new Worker(workerUrl, { workerData });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromLedgerWorker) => {
        if (message.type !== 'ready') return;
        cleanUp();
        resolve();
      };
      const onError = (error: Error) => {
        cleanUp();
        reject(new Error(`usage ledger worker could not start: ${error.message}`));
      };
      const onExit = (code: number) => {
        cleanUp();
        reject(new Error(`usage ledger worker exited with code ${code} while starting`));
      };
      const cleanUp = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    return new LedgerWriter(worker);
  }

  /**
   * Resolves when the row is durable; rejects if the commit failed or the worker died.
   * `othersOpen`: other billed calls are still running, so more rows will follow soon (the
   * worker may wait a moment to commit them together); false for a lone call, committed at once.
   */
  append(row: LedgerRow, othersOpen = false): Promise<void> {
    if (this.closing !== null) return Promise.reject(new Error('usage ledger is closed'));
    if (this.brokenBy !== null) return Promise.reject(this.brokenBy);
    const batch = this.openBatch ?? this.startBatch();
    batch.rows.push([row.tenant, row.route, row.credits, row.at, row.requestId]);
    batch.othersOpen = othersOpen;
    return batch.committed;
  }

  /** Called after every durable group commit (operators' metrics). */
  onCommit(listener: (commit: LedgerCommit) => void): void {
    this.commitListeners.push(listener);
  }

  /** Resolves when every row appended so far has been committed or has failed. */
  async flush(): Promise<void> {
    const waits: Promise<void>[] = [];
    if (this.openBatch !== null) waits.push(this.openBatch.committed);
    this.sendOpenBatch();
    for (const batch of this.inFlight.values()) waits.push(batch.committed);
    await Promise.allSettled(waits);
  }

  /** Commits what is queued, then stops the worker (which closes its connection). */
  close(): Promise<void> {
    if (this.closing !== null) return this.closing;
    this.closing = (async () => {
      this.sendOpenBatch();
      if (this.brokenBy !== null) return;
      const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
      this.worker.ref();
      this.post({ type: 'close' });
      await exited;
      this.breakWith(new Error('usage ledger closed before the commit was acknowledged'));
    })();
    return this.closing;
  }

  private startBatch(): Batch {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const committed = new Promise<void>((resolvePromise, rejectPromise) => {
      resolve = resolvePromise;
      reject = rejectPromise;
    });
    const batch: Batch = { batchId: this.nextBatchId++, rows: [], othersOpen: false, committed, resolve, reject };
    this.openBatch = batch;
    // every append of this event-loop turn joins the batch; it leaves before the next I/O poll
    setImmediate(() => this.sendOpenBatch());
    this.updateWorkerRef();
    return batch;
  }

  private sendOpenBatch(): void {
    const batch = this.openBatch;
    if (batch === null) return;
    this.openBatch = null;
    if (this.brokenBy !== null) {
      batch.reject(this.brokenBy);
      return;
    }
    this.inFlight.set(batch.batchId, batch);
    this.post({ type: 'append', batchId: batch.batchId, rows: batch.rows, othersOpen: batch.othersOpen });
  }

  private onWorkerMessage(message: FromLedgerWorker): void {
    if (message.type === 'committed' || message.type === 'failed') {
      const failure = message.type === 'failed' ? new Error(`usage ledger write failed: ${message.message}`) : null;
      for (const batchId of message.batchIds) {
        const pending = this.inFlight.get(batchId);
        this.inFlight.delete(batchId);
        if (pending === undefined) continue;
        if (failure === null) pending.resolve();
        else pending.reject(failure);
      }
      if (message.type === 'committed') {
        for (const listener of this.commitListeners) listener({ rows: message.rows, commitSeconds: message.commitSeconds });
      }
      this.updateWorkerRef();
    }
  }

  /** Fails everything waiting; later appends fail at once with the same error. */
  private breakWith(error: Error): void {
    if (this.brokenBy === null) this.brokenBy = error;
    for (const pending of this.inFlight.values()) pending.reject(error);
    this.inFlight.clear();
    if (this.openBatch !== null) {
      this.openBatch.reject(error);
      this.openBatch = null;
    }
  }

  /** An idle worker must not keep the process alive; one with unacknowledged rows must. */
  private updateWorkerRef(): void {
    if (this.inFlight.size > 0 || this.openBatch !== null) this.worker.ref();
    else this.worker.unref();
  }

  private post(message: ToLedgerWorker): void {
    this.worker.postMessage(message);
  }
}
