/**
 * The main thread's end of one shard worker: requests go out in order and replies come back in
 * the same order, so a FIFO of waiters pairs them. A failure (engine error, worker crash) is
 * kept and raised at the caller's next await rather than lost in a fire-and-forget request.
 */
import { Worker } from 'node:worker_threads';
import type { ShardReply, ShardRequest, ShardWorkerData } from './shard-protocol.js';

/**
 * Resolved against this module: from `dist/` it is a sibling; from `src/` (tests run the
 * TypeScript sources) it is the built copy, since a worker thread cannot load TypeScript.
 */
const WORKER_FILE = new URL('../dist/shard-worker.js', import.meta.url);

interface Waiter {
  promise: Promise<ShardReply>;
  resolve(reply: ShardReply): void;
  reject(error: Error): void;
}

function newWaiter(): Waiter {
  let resolve!: (reply: ShardReply) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<ShardReply>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  // Fire-and-forget requests never await their promise; the failure is read from `failure`.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

export class ShardConnection {
  readonly shard: number;
  private readonly worker: Worker;
  private readonly waiting: Waiter[] = [];
  private readonly exited: Promise<void>;
  private failure: Error | undefined;

  private constructor(shard: number, data: ShardWorkerData) {
    this.shard = shard;
    this.worker = new Worker(WORKER_FILE, { workerData: data });
    // The worker says `opened` (or `failed`) before anything is asked.
    this.waiting.push(newWaiter());
    this.worker.on('message', (reply: ShardReply) => this.receive(reply));
    this.worker.on('error', (error) => this.fail(`shard ${shard} worker crashed: ${error.message}`));
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', (code) => {
        if (this.waiting.length > 0) this.fail(`shard ${shard} worker exited (code ${code}) with requests unanswered`);
        resolve();
      });
    });
  }

  /** Start the worker and wait until its writer is open. */
  static async open(shard: number, data: ShardWorkerData): Promise<ShardConnection> {
    const connection = new ShardConnection(shard, data);
    await connection.waiting[0].promise.catch(() => {});
    if (connection.failure !== undefined) {
      const failure = connection.failure;
      await connection.worker.terminate();
      throw failure;
    }
    return connection;
  }

  private receive(reply: ShardReply): void {
    const waiter = this.waiting.shift();
    if (waiter === undefined) return;
    if (reply.kind === 'failed') {
      this.failure ??= new Error(`shard ${this.shard}: ${reply.message}`);
      waiter.reject(this.failure);
      return;
    }
    waiter.resolve(reply);
  }

  private fail(message: string): void {
    this.failure ??= new Error(message);
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure);
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.waiting.length;
  }

  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  send(request: ShardRequest): Promise<ShardReply> {
    const waiter = newWaiter();
    if (this.failure !== undefined) {
      waiter.reject(this.failure);
      return waiter.promise;
    }
    this.waiting.push(waiter);
    this.worker.postMessage(request);
    return waiter.promise;
  }

  /** Wait until at most `limit` requests are unanswered (backpressure on the reader). */
  async settle(limit: number): Promise<void> {
    while (this.waiting.length > limit) {
      await this.waiting[this.waiting.length - 1 - limit].promise.catch(() => {});
      this.throwIfFailed();
    }
    this.throwIfFailed();
  }

  /** Close the writer (dropping uncommitted work) and let the thread end. */
  async close(): Promise<void> {
    if (this.failure === undefined) {
      await this.send({ op: 'close' }).catch(() => {});
    }
    if (this.failure !== undefined) await this.worker.terminate();
    await this.exited;
  }
}
