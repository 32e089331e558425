/**
 * The vectors of the index this node serves: which embedder made them (recorded in index.json),
 * the model that embeds query texts when it is a model, and the background embedder that gives
 * newly ingested passages their vectors.
 */
import { NO_EMBEDDER, ThreadedEmbedder, type EmbedderSpec } from '@evidence/embedders';
import { shardOptionsOf, type IndexManifest } from '@evidence/native';
import type { ServerConfig } from '../config.js';
import { BackgroundEmbedding, type EmbeddingStatus } from './background-embedding.js';
import { QueryVectors } from './query-vectors.js';

export interface IndexVectors {
  /** The embedder of the index's vectors. */
  spec: EmbedderSpec;
  /** Whether searches rank by vector (false with EMBEDDER=none: keyword only). */
  serving: boolean;
  /** Query vectors from the model (null when the engine embeds queries itself, or with EMBEDDER=none). */
  queries: QueryVectors | null;
  /** This node's background embedder (null when the engine embeds at ingest, or no model runs here). */
  background: BackgroundEmbedding | null;
  close(): Promise<void>;
}

export async function openIndexVectors(
  config: Pick<ServerConfig, 'dataDir' | 'embedder' | 'embedThreads'>,
  manifest: IndexManifest,
  spec: EmbedderSpec,
  log: (message: string, fields?: Record<string, unknown>) => void,
): Promise<IndexVectors> {
  const serving = config.embedder !== NO_EMBEDDER;
  if (spec.runs === 'engine' || !serving) {
    return { spec, serving, queries: null, background: null, close: async () => {} };
  }
  // Query texts are embedded on a thread of their own (onnxruntime-node runs an inference on the
  // calling thread: 3 to 5 ms a query that the event loop must not wait for), one intra-op thread
  // so that the shard workers keep the cores.
  const model = await ThreadedEmbedder.open(spec.name, { threads: 1 });
  const background = new BackgroundEmbedding({
    dataDir: config.dataDir,
    shards: manifest.shards,
    shardOptions: shardOptionsOf(manifest),
    embedder: spec.name,
    threads: config.embedThreads,
    log,
  });
  return {
    spec,
    serving,
    queries: new QueryVectors(model),
    background,
    async close() {
      await background.close();
      await model.close();
    },
  };
}

export type { EmbeddingStatus };
