/**
 * A shard worker: one thread holding one open shard. Piscina loads this module and awaits its
 * default export, so the thread takes no work before its shard is open. Results go back as
 * MessagePack bytes, moved (not copied) to the main thread.
 */
import { workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { ShardReader, shardDirectory, shardProblem, type ShardOptions } from '@evidence/native';
import type { SearchesAnswer, ShardTask } from './tasks.js';

interface ShardWorkerData {
  dataDir: string;
  shard: number;
  shardOptions: ShardOptions;
}

/**
 * The addon answers in buffers the JS heap owns, each over an ArrayBuffer of its own, so the
 * bytes move to the main thread without a copy. Anything else (a view into a larger or shared
 * buffer) is copied once, never transferred from under another owner.
 */
function transferable(bytes: Buffer): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length && !(bytes.buffer instanceof SharedArrayBuffer)) return bytes;
  const owned = new Uint8Array(bytes.length);
  owned.set(bytes);
  return owned;
}

/** The answers of a searches task, with every buffer moved (piscina's Transferable protocol). */
class MovedAnswers {
  constructor(private readonly answers: SearchesAnswer) {}

  get [transferableSymbol](): ArrayBufferLike[] {
    return this.answers.flatMap((bytes) => (bytes ? [bytes.buffer] : []));
  }

  get [valueSymbol](): SearchesAnswer {
    return this.answers;
  }
}

async function openShard() {
  const { dataDir, shard, shardOptions } = workerData as ShardWorkerData;
  // A shard that is not the one the index was created with (lost, emptied, swapped) must not
  // serve: failing here marks it down, so answers say partial.
  const problem = shardProblem(dataDir, shard);
  if (problem) throw new Error(problem);
  const reader = ShardReader.open(shardDirectory(dataDir, shard), shardOptions);
  let loadedGeneration = 0;

  return function handleShardTask(task: ShardTask) {
    if (task.generation > loadedGeneration) {
      reader.reload();
      loadedGeneration = task.generation;
    }
    const remainingMs = task.deadlineAt - Date.now();
    if (remainingMs <= 0) return { expired: true };
    switch (task.op) {
      case 'searches': {
        // In order, each with what is left of the task's deadline.
        const answers = task.requests.map((request) => {
          const leftMs = task.deadlineAt - Date.now();
          if (leftMs <= 0) return null;
          return transferable(reader.search({ ...request, timeoutMs: Math.max(1, Math.floor(leftMs)) }));
        });
        return move(new MovedAnswers(answers));
      }
      case 'vector':
        return reader.passageVector(task.id);
      case 'document': {
        const bytes = reader.document(task.id);
        return bytes ? move(transferable(bytes)) : null;
      }
    }
  };
}

export default openShard() as Promise<(task: ShardTask) => unknown>;
