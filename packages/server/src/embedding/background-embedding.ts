/**
 * Vectors behind ingest: ingest makes passages searchable by keyword at once, and this node's
 * embedder thread gives them their vectors afterwards (see embedding-worker.ts). Until every
 * passage has one, semantic and hybrid answers say how many of the passages they could reach
 * (`semantic_coverage`), and /describe shows the progress; the log says when it is complete.
 */
import { Worker } from 'node:worker_threads';
import type { EmbeddingProgress, EmbeddingShardNotice, EmbeddingWorkerData } from './embedding-protocol.js';
import { takeEmbeddingLock } from './embedding-lock.js';

/** What the background embedder has done, for /describe, /metrics and the log. */
export interface EmbeddingStatus {
  /** Whether this node runs the embedder (false: another node holds the lock, or EMBED_THREADS=0). */
  running: boolean;
  passages: number;
  embedded: number;
  /**
   * Passages given their vectors per second of wall time since this run of the embedder began
   * (model, storing and committing together; 0 when idle).
   */
  passages_per_second: number;
  complete: boolean;
  /** Whether every shard has reported at least once (before that the counts are partial). */
  reported: boolean;
}

export interface BackgroundEmbeddingOptions {
  dataDir: string;
  shards: number;
  shardOptions: EmbeddingWorkerData['shardOptions'];
  embedder: string;
  threads: number;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

/** How often a progress line is logged while vectors are being made. */
const LOG_EVERY_MS = 10_000;
/** How long close() waits for the thread to stop between two model calls before ending it anyway. */
const STOP_GRACE_MS = 120_000;

export class BackgroundEmbedding {
  private readonly worker: Worker | null;
  private readonly lock: { release(): void } | null;
  private readonly perShard = new Map<number, EmbeddingProgress>();
  private rate = 0;
  /** When this run of work began (the first batch stored after idle) and the vectors there were then. */
  private runStart: { at: number; embedded: number } | null = null;
  private lastLogAt = 0;
  private announcedComplete = false;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly options: BackgroundEmbeddingOptions) {
    this.lock = options.threads > 0 && options.shards > 0 ? takeEmbeddingLock(options.dataDir) : null;
    if (!this.lock) {
      this.worker = null;
      return;
    }
    const workerData: EmbeddingWorkerData = {
      dataDir: options.dataDir,
      shards: Array.from({ length: options.shards }, (_, shard) => shard),
      shardOptions: options.shardOptions,
      embedder: options.embedder,
      threads: options.threads,
    };
    this.worker = new Worker(new URL('./embedding-worker.js', import.meta.url), { workerData });
    this.worker.on('message', (message: EmbeddingProgress | EmbeddingShardNotice | { kind: 'failed'; message: string }) => {
      if (message.kind === 'failed') {
        options.log(`background embedding stopped: ${message.message}`);
        return;
      }
      if (message.kind === 'shard') {
        options.log(
          message.message === null
            ? `background embedding: shard ${message.shard} can be embedded again`
            : `background embedding: shard ${message.shard} skipped, tried again in 30 s: ${message.message}`,
          { shard: message.shard },
        );
        return;
      }
      this.record(message);
    });
    this.worker.on('error', (error) => options.log(`background embedding stopped: ${error.message}`));
    this.exited = new Promise((resolve) => this.worker!.once('exit', () => resolve()));
  }

  private record(progress: EmbeddingProgress): void {
    this.perShard.set(progress.shard, progress);
    const now = Date.now();
    const status = this.status();
    if (progress.stored > 0 && status.reported) {
      // The rate is the vectors stored over wall time since the run began (counted once every
      // shard has reported, so a shard's earlier vectors are not taken for new ones): a batch's
      // model time alone leaves out storing and committing, which is most of the work for a fast
      // model (the static model's estimate read 5x too short so).
      if (this.runStart === null) {
        this.runStart = { at: now - progress.embedMs, embedded: status.embedded - progress.stored };
      }
      const seconds = (now - this.runStart.at) / 1000;
      if (seconds > 0) this.rate = (status.embedded - this.runStart.embedded) / seconds;
    }
    if (status.complete) {
      if (!this.announcedComplete) {
        this.announcedComplete = true;
        // How long this run took, from its first batch: the time until fully indexed.
        const took = this.runStart === null ? '' : ` (${Math.round((now - this.runStart.at) / 1000)} s for ${status.embedded - this.runStart.embedded})`;
        this.options.log(`embedding complete: all ${status.passages} passages have vectors${took}`, { passages: status.passages });
      }
      this.runStart = null;
      this.rate = 0;
      return;
    }
    this.announcedComplete = false;
    if (progress.stored > 0 && status.reported && now - this.lastLogAt >= LOG_EVERY_MS) {
      this.lastLogAt = now;
      const left = status.passages - status.embedded;
      const eta = this.rate > 0 ? ` (about ${Math.ceil(left / this.rate)} s left)` : '';
      this.options.log(`embedding: ${status.embedded} of ${status.passages} passages have vectors, ${this.rate.toFixed(0)}/s${eta}`, {
        embedded: status.embedded,
        passages: status.passages,
      });
    }
  }

  status(): EmbeddingStatus {
    let passages = 0;
    let embedded = 0;
    for (const progress of this.perShard.values()) {
      passages += progress.passages;
      embedded += progress.embedded;
    }
    const reported = this.perShard.size === this.options.shards;
    const complete = reported && embedded >= passages;
    return { running: this.worker !== null, passages, embedded, passages_per_second: complete ? 0 : Math.round(this.rate), complete, reported };
  }

  async close(): Promise<void> {
    if (this.worker) {
      this.worker.postMessage({ kind: 'stop' });
      // The thread stops between two model calls. It is never ended inside one: onnxruntime-node
      // aborts the whole process ("terminate called after throwing an instance of 'Napi::Error'",
      // SIGABRT) when a thread is terminated mid-inference, and a call on a busy machine took more
      // than the 5 s this waited before (a test server crashed so). Only a thread stuck for
      // STOP_GRACE_MS is ended anyway.
      const stopped = await Promise.race([this.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref())]);
      if (!stopped) {
        this.options.log(`background embedding did not stop within ${STOP_GRACE_MS / 1000} s; ending its thread`);
        await this.worker.terminate();
      }
    }
    this.lock?.release();
  }
}
