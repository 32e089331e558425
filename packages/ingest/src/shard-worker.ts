/**
 * One shard's engine writer in a thread of its own, so shards index in parallel while the main
 * thread reads and splits (the engine's add is the largest cost of a run). Kept small on purpose:
 * open the writer, then answer requests in the order they arrive. A story rewrite also reads the
 * shard, with a reader opened for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ShardReader, ShardWriter } from '@evidence/native';
import type { ShardReply, ShardRequest, ShardWorkerData } from './shard-protocol.js';
import { stalePassages } from './shard-rewrite.js';

/** Passages per `replace` call, like the adds. */
const PASSAGES_PER_REPLACE = 1000;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Open the shard's writer, waiting out a short hold by another writer (ELOCKED) for up to `lockWaitMs`. */
function openWriter(data: ShardWorkerData): ShardWriter {
  const giveUpAt = Date.now() + data.lockWaitMs;
  for (;;) {
    try {
      return ShardWriter.open(data.directory, data.shardOptions);
    } catch (error) {
      if (!/ELOCKED/.test(errorMessage(error)) || Date.now() >= giveUpAt) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

function serve(port: NonNullable<typeof parentPort>, data: ShardWorkerData): void {
  const reply = (message: ShardReply) => port.postMessage(message);
  let writer: ShardWriter;
  try {
    writer = openWriter(data);
  } catch (error) {
    reply({ kind: 'failed', message: errorMessage(error) });
    port.close();
    return;
  }
  /** A rewrite must not bring back a committed passage deleted since (the reader still sees it). */
  const deletedSinceCommit = new Set<string>();
  reply({ kind: 'opened' });
  port.on('message', (request: ShardRequest) => {
    try {
      switch (request.op) {
        case 'add': {
          const report = writer.add(request.passages);
          reply({ kind: 'added', added: report.added, skipped: report.skipped });
          return;
        }
        case 'delete':
          for (const id of request.ids) deletedSinceCommit.add(id);
          reply({ kind: 'deleted', deleted: writer.delete(request.ids) });
          return;
        case 'replace': {
          // A reader for this rewrite only: rewrites come once per commit, and an open reader
          // would keep every file of the shard mapped for the rest of the run.
          const reader = ShardReader.open(data.directory, data.shardOptions);
          let passages;
          try {
            passages = stalePassages(reader, request.stories, deletedSinceCommit);
          } finally {
            reader.close();
          }
          for (let start = 0; start < passages.length; start += PASSAGES_PER_REPLACE) {
            writer.replace(passages.slice(start, start + PASSAGES_PER_REPLACE));
          }
          reply({ kind: 'replaced', replaced: passages.length });
          return;
        }
        case 'commit':
          writer.commit();
          deletedSinceCommit.clear();
          reply({ kind: 'committed' });
          return;
        case 'buildVectors': {
          const report = writer.buildVectors(request.threads);
          reply({ kind: 'vectorsBuilt', records: Number(report.records), graphVectors: Number(report.graphVectors), seconds: report.seconds });
          return;
        }
        case 'vectorTail':
          reply({ kind: 'vectorTail', records: Number(writer.vectorTail().records) });
          return;
        case 'close':
          writer.close();
          reply({ kind: 'closed' });
          port.close();
          return;
      }
    } catch (error) {
      reply({ kind: 'failed', message: errorMessage(error) });
    }
  });
}

if (parentPort === null) throw new Error('shard-worker must run as a worker thread');
serve(parentPort, workerData as ShardWorkerData);
