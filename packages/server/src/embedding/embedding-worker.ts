/**
 * The background embedder's thread: finds the passages of each shard that have no vector yet,
 * embeds them with the index's model and stores the vectors through a shard writer it holds only
 * for the store and commit (so an ingest run waits at most one commit for the shard). Each commit
 * announces the new vectors to every reader of the index. Progress goes to the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEmbedder, type TextEmbedder } from '@evidence/embedders';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { COMMIT_FILE, ShardReader, ShardWriter, shardDirectory, type ShardOptions } from '@evidence/native';
import type { EmbeddingProgress, EmbeddingWorkerData, EmbeddingWorkerMessage } from './embedding-protocol.js';

const data = workerData as EmbeddingWorkerData;
const port = parentPort!;
let stopping = false;
port.on('message', (message: EmbeddingWorkerMessage) => {
  if (message.kind === 'stop') stopping = true;
});

/** Passages read per pass of a shard, and the least time of embedding between two commits. */
const PASSAGES_PER_PASS = 512;
/** Texts handed to the model per call (between two calls the thread can notice a stop). */
const TEXTS_PER_CALL = 64;
const MIN_BATCH_MS = 5_000;
/** A commit's cost (the writer loads the whole vector file) kept under a tenth of the embedding time. */
const COMMIT_SHARE = 10;
/** How long to wait when nothing is left, or when another writer (an ingest run) holds the shard. */
const IDLE_MS = 2_000;
const LOCKED_RETRY_MS = 1_000;

function post(message: EmbeddingProgress | { kind: 'failed'; message: string }): void {
  port.postMessage(message);
}

/** Store vectors through a writer opened for this commit only; waits while another writer holds the shard. */
async function store(directory: string, options: ShardOptions, ids: string[], vectors: Float32Array): Promise<{ stored: number; commitMs: number } | null> {
  for (;;) {
    if (stopping) return null;
    const started = performance.now();
    let writer: ShardWriter;
    try {
      writer = ShardWriter.open(directory, options);
    } catch (error) {
      if (/ELOCKED/.test((error as Error).message)) {
        await sleep(LOCKED_RETRY_MS);
        continue;
      }
      throw error;
    }
    try {
      const stored = writer.addVectors(ids, vectors);
      writer.commit();
      return { stored, commitMs: performance.now() - started };
    } finally {
      writer.close();
    }
  }
}

/** When the shard's last commit was announced (commit.json's mtime), or 0 when it cannot be read. */
function commitStamp(shard: number): number {
  try {
    return statSync(join(shardDirectory(data.dataDir, shard), COMMIT_FILE)).mtimeMs;
  } catch {
    return 0;
  }
}

async function run(): Promise<void> {
  // The model is loaded when there is something to embed (an index with every vector needs none).
  let embedder: TextEmbedder | null = null;
  const readers = data.shards.map((shard) => ShardReader.open(shardDirectory(data.dataDir, shard), data.shardOptions));
  const commitMs = data.shards.map(() => 0);
  /** The commit each reader last took in, and whether it left passages without vectors. */
  const seen = data.shards.map(() => ({ stamp: -1, waiting: true }));
  try {
    while (!stopping) {
      let embeddedThisRound = 0;
      for (const [index, shard] of data.shards.entries()) {
        if (stopping) break;
        const reader = readers[index];
        // A shard with every vector and no new commit since costs nothing (a reload rebuilds
        // per-generation tables, a scan reads every document's key).
        const stamp = commitStamp(shard);
        if (stamp === seen[index].stamp && !seen[index].waiting) continue;
        const report = reader.reload();
        seen[index] = { stamp, waiting: Number(report.embedded) < Number(report.numDocs) };
        post({ kind: 'progress', shard, passages: Number(report.numDocs), embedded: Number(report.embedded), stored: 0, embedMs: 0 });
        if (!seen[index].waiting) continue;
        const waiting = reader.passagesWithoutVectors(PASSAGES_PER_PASS);
        if (waiting.length === 0) continue;
        embedder ??= await openEmbedder(data.embedder, { threads: data.threads });
        const model = embedder;
        // Embed for at least MIN_BATCH_MS (longer when commits are slow), then store.
        const batchMs = Math.max(MIN_BATCH_MS, COMMIT_SHARE * commitMs[index]);
        const started = performance.now();
        const ids: string[] = [];
        const vectors: Float32Array[] = [];
        for (let start = 0; start < waiting.length && !stopping; start += TEXTS_PER_CALL) {
          const chunk = waiting.slice(start, start + TEXTS_PER_CALL);
          const embedded = await model.embed(chunk.map((input) => input.text), 'passage');
          chunk.forEach((input, at) => {
            ids.push(input.id);
            vectors.push(embedded[at]);
          });
          if (performance.now() - started >= batchMs) break;
        }
        if (ids.length === 0) continue;
        const embedMs = performance.now() - started;
        const dimensions = model.dimensions;
        const flat = new Float32Array(ids.length * dimensions);
        vectors.forEach((vector, at) => flat.set(vector, at * dimensions));
        const outcome = await store(shardDirectory(data.dataDir, shard), data.shardOptions, ids, flat);
        if (!outcome) break;
        commitMs[index] = outcome.commitMs;
        embeddedThisRound += outcome.stored;
        const after = reader.reload();
        seen[index] = { stamp: commitStamp(shard), waiting: Number(after.embedded) < Number(after.numDocs) };
        post({ kind: 'progress', shard, passages: Number(after.numDocs), embedded: Number(after.embedded), stored: outcome.stored, embedMs });
      }
      if (embeddedThisRound === 0 && !stopping) await sleep(IDLE_MS);
    }
  } finally {
    for (const reader of readers) reader.close();
    await embedder?.close();
  }
}

run().then(
  () => port.close(),
  (error: unknown) => {
    post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    port.close();
  },
);
