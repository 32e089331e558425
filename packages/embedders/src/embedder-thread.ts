/**
 * The thread of a ThreadedEmbedder: opens one model embedder and answers embed requests in the
 * order they come. onnxruntime-node runs an inference on the thread that calls it, so the
 * service's main thread hands query texts to this one instead.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbeddingPurpose } from './embedder.js';
import { openEmbedder, type OpenEmbedderOptions } from './open-embedder.js';

export interface EmbedderThreadData {
  name: string;
  options: OpenEmbedderOptions;
}

export type EmbedderThreadRequest = { id: number; texts: string[]; purpose: EmbeddingPurpose } | { id: number; close: true };
export type EmbedderThreadReply =
  | { kind: 'opened'; dimensions: number }
  | { kind: 'failed'; message: string }
  | { id: number; vectors: Float32Array[] }
  | { id: number; error: string };

const port = parentPort!;
const { name, options } = workerData as EmbedderThreadData;

try {
  const embedder = await openEmbedder(name, options);
  port.postMessage({ kind: 'opened', dimensions: embedder.dimensions } satisfies EmbedderThreadReply);
  let queue = Promise.resolve();
  port.on('message', (request: EmbedderThreadRequest) => {
    queue = queue.then(async () => {
      if ('close' in request) {
        await embedder.close();
        port.postMessage({ id: request.id, vectors: [] } satisfies EmbedderThreadReply);
        port.close();
        return;
      }
      try {
        const vectors = await embedder.embed(request.texts, request.purpose);
        // copied, not transferred: a vector may be a view into a buffer it shares (1.5 KiB each)
        port.postMessage({ id: request.id, vectors } satisfies EmbedderThreadReply);
      } catch (error) {
        port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies EmbedderThreadReply);
      }
    });
  });
} catch (error) {
  port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies EmbedderThreadReply);
  port.close();
}
