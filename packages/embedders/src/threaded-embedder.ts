/**
 * A model embedder on a thread of its own (embedder-thread.ts), for callers that must not wait
 * for an inference on their own thread: the service's event loop. Requests are answered in order;
 * each crossing costs a message each way.
 */
import { Worker } from 'node:worker_threads';
import type { EmbeddingPurpose, TextEmbedder } from './embedder.js';
import type { EmbedderThreadData, EmbedderThreadReply, EmbedderThreadRequest } from './embedder-thread.js';
import type { OpenEmbedderOptions } from './open-embedder.js';

export class ThreadedEmbedder implements TextEmbedder {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(vectors: Float32Array[]): void; reject(error: Error): void }>();
  private closed = false;

  private constructor(
    readonly name: string,
    readonly dimensions: number,
    private readonly worker: Worker,
  ) {
    worker.on('message', (reply: EmbedderThreadReply) => {
      if (!('id' in reply)) return;
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.vectors);
    });
    const failAll = (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', () => failAll(new Error(`the ${name} thread has stopped`)));
  }

  /** Opens `name` (a model embedder of the catalog) on a new thread; rejects with the thread's reason. */
  static async open(name: string, options: OpenEmbedderOptions = {}): Promise<ThreadedEmbedder> {
    const workerData: EmbedderThreadData = { name, options };
    const worker = new Worker(new URL('./embedder-thread.js', import.meta.url), { workerData });
    const opened = await new Promise<number>((resolve, reject) => {
      worker.once('message', (reply: EmbedderThreadReply) => {
        if ('kind' in reply && reply.kind === 'opened') resolve(reply.dimensions);
        else reject(new Error('kind' in reply && reply.kind === 'failed' ? reply.message : 'the embedder thread answered out of turn'));
      });
      worker.once('error', reject);
    });
    return new ThreadedEmbedder(name, opened, worker);
  }

  private request(message: Omit<Extract<EmbedderThreadRequest, { texts: string[] }>, 'id'> | { close: true }): Promise<Float32Array[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  embed(texts: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]> {
    if (this.closed) return Promise.reject(new Error(`${this.name} is closed`));
    return this.request({ texts: [...texts], purpose });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.request({ close: true }).catch(() => undefined);
    await this.worker.terminate();
  }
}
