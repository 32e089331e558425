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
import type { EmbeddingProgress, EmbeddingShardNotice, EmbeddingWorkerData, EmbeddingWorkerMessage } from './embedding-protocol.js';

const data = workerData as EmbeddingWorkerData;
const port = parentPort!;
let stopping = false;
port.on('message', (message: EmbeddingWorkerMessage) => {
  if (message.kind === 'stop') stopping = true;
});

/**
 * Passages read per pass of a shard: at first, and at most (a fast model fills a batch's time
 * with thousands; a slow one with a few dozen, and reading more than it embeds is wasted).
 */
const FIRST_PASS_PASSAGES = 512;
const MAX_PASS_PASSAGES = 16_384;
/** Texts handed to the model per call: between two calls the thread notices a stop (16 bge passages: about 0.3 s on a free core). */
const TEXTS_PER_CALL = 16;
const MIN_BATCH_MS = 5_000;
/** A store's cost (the writer's open, the tail's append, the commit) kept under a tenth of the embedding time. */
const COMMIT_SHARE = 10;
/** How long to wait when nothing is left, or when another writer (an ingest run) holds the shard. */
const IDLE_MS = 2_000;
const LOCKED_RETRY_MS = 1_000;

function post(message: EmbeddingProgress | EmbeddingShardNotice | { kind: 'failed'; message: string }): void {
  port.postMessage(message);
}

/**
 * Store vectors through a writer opened for this commit only; waits while another writer holds
 * the shard. With `build`, also merges the shard's vector tail into its HNSW graph (the last
 * batch of a shard: nothing else would merge a short tail; a long one is merged behind commits).
 */
async function store(directory: string, options: ShardOptions, ids: string[], vectors: Float32Array, build: boolean): Promise<{ stored: number; commitMs: number } | null> {
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
      const commitMs = performance.now() - started;
      if (build) writer.buildVectors(1);
      return { stored, commitMs };
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

/** What the thread keeps per shard between rounds. */
interface ShardState {
  shard: number;
  /** Opened on first use; dropped when the shard fails, to be opened again later. */
  reader: ShardReader | null;
  /** The commit the reader last took in, and whether it left passages without vectors. */
  stamp: number;
  waiting: boolean;
  /** The last store's open + commit time, ms (batches grow with it). */
  commitMs: number;
  /** Passages to read for the next batch (follows the model's pace). */
  passPassages: number;
  /** After a failure: not before this time (epoch ms), and the failure already reported. */
  retryAt: number;
  failure: string | null;
}

/** The model could not be opened or failed: no shard can be embedded, so the thread stops. */
class ModelError extends Error {}

/** A shard that cannot be read or written is tried again after this long; the others go on. */
const SHARD_RETRY_MS = 30_000;

/**
 * One pass over one shard: take in its latest commit, and when passages wait for vectors, embed
 * a batch and store it. Returns how many vectors it stored.
 */
async function embedShard(state: ShardState, model: () => Promise<TextEmbedder>): Promise<number> {
  const { shard } = state;
  // A shard with every vector and no new commit since costs nothing (a reload rebuilds
  // per-generation tables, a scan reads every document's key).
  const stamp = commitStamp(shard);
  if (state.reader && stamp === state.stamp && !state.waiting) return 0;
  state.reader ??= ShardReader.open(shardDirectory(data.dataDir, shard), data.shardOptions);
  const report = state.reader.reload();
  state.stamp = stamp;
  state.waiting = Number(report.embedded) < Number(report.numDocs);
  post({ kind: 'progress', shard, passages: Number(report.numDocs), embedded: Number(report.embedded), stored: 0, embedMs: 0 });
  if (!state.waiting) return 0;
  const waiting = state.reader.passagesWithoutVectors(state.passPassages);
  if (waiting.length === 0) return 0;
  const embedder = await model();
  // Embed for at least MIN_BATCH_MS (longer when commits are slow), then store.
  const batchMs = Math.max(MIN_BATCH_MS, COMMIT_SHARE * state.commitMs);
  const started = performance.now();
  const ids: string[] = [];
  const vectors: Float32Array[] = [];
  for (let start = 0; start < waiting.length && !stopping; start += TEXTS_PER_CALL) {
    const chunk = waiting.slice(start, start + TEXTS_PER_CALL);
    const embedded = await embedder.embed(chunk.map((input) => input.text), 'passage');
    chunk.forEach((input, at) => {
      ids.push(input.id);
      vectors.push(embedded[at]);
    });
    if (performance.now() - started >= batchMs) break;
  }
  if (ids.length === 0) return 0;
  const embedMs = performance.now() - started;
  const flat = new Float32Array(ids.length * embedder.dimensions);
  vectors.forEach((vector, at) => flat.set(vector, at * embedder.dimensions));
  // Enough passages for the next batch's time at this batch's pace, with a fifth to spare.
  state.passPassages = Math.min(MAX_PASS_PASSAGES, Math.max(FIRST_PASS_PASSAGES, Math.ceil((ids.length / Math.max(embedMs, 1)) * batchMs * 1.2)));
  const last = ids.length === waiting.length && Number(report.embedded) + ids.length >= Number(report.numDocs);
  const outcome = await store(shardDirectory(data.dataDir, shard), data.shardOptions, ids, flat, last);
  if (!outcome) return 0;
  state.commitMs = outcome.commitMs;
  const after = state.reader.reload();
  state.stamp = commitStamp(shard);
  state.waiting = Number(after.embedded) < Number(after.numDocs);
  post({ kind: 'progress', shard, passages: Number(after.numDocs), embedded: Number(after.embedded), stored: outcome.stored, embedMs });
  return outcome.stored;
}

async function run(): Promise<void> {
  // The model is loaded when there is something to embed (an index with every vector needs none).
  const loaded: { embedder: TextEmbedder | null } = { embedder: null };
  const model = async () => {
    try {
      return (loaded.embedder ??= await openEmbedder(data.embedder, { threads: data.threads }));
    } catch (error) {
      throw new ModelError(`cannot open ${data.embedder}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const states: ShardState[] = data.shards.map((shard) => ({ shard, reader: null, stamp: -1, waiting: true, commitMs: 0, passPassages: FIRST_PASS_PASSAGES, retryAt: 0, failure: null }));
  try {
    while (!stopping) {
      let embeddedThisRound = 0;
      for (const state of states) {
        if (stopping) break;
        if (Date.now() < state.retryAt) continue;
        try {
          embeddedThisRound += await embedShard(state, model);
          if (state.failure) post({ kind: 'shard', shard: state.shard, message: null });
          state.failure = null;
        } catch (error) {
          if (error instanceof ModelError) throw error;
          // A shard that is down (missing, damaged) must not stop the others' vectors.
          const message = error instanceof Error ? error.message : String(error);
          if (message !== state.failure) post({ kind: 'shard', shard: state.shard, message });
          state.failure = message;
          state.retryAt = Date.now() + SHARD_RETRY_MS;
          state.reader?.close();
          state.reader = null;
        }
      }
      if (embeddedThisRound === 0 && !stopping) await sleep(IDLE_MS);
    }
  } finally {
    for (const state of states) state.reader?.close();
    await loaded.embedder?.close();
  }
}

run().then(
  () => port.close(),
  (error: unknown) => {
    post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    port.close();
  },
);
