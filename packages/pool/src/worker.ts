/**
 * A shard worker: one thread holding one open shard. Piscina loads this module and awaits its
 * default export, so the thread takes no work before its shard is open. Results go back as
 * MessagePack bytes, moved (not copied) to the main thread.
 */
import { workerData } from 'node:worker_threads';
import { move } from 'piscina';
import { ShardReader } from '@evidence/native';
import type { ShardTask } from './tasks.js';

interface ShardWorkerData {
  shardDirectory: string;
  dimensions: number;
}

function transferable(bytes: Buffer): Uint8Array {
  // The addon's buffers live outside the V8 heap and cannot be transferred; one copy into a
  // V8-owned buffer makes the hand-over to the main thread zero-copy.
  const owned = new Uint8Array(bytes.length);
  owned.set(bytes);
  return owned;
}

async function openShard() {
  const { shardDirectory, dimensions } = workerData as ShardWorkerData;
  const reader = ShardReader.open(shardDirectory, { dimensions });
  let loadedGeneration = 0;

  return function handleShardTask(task: ShardTask) {
    if (task.generation > loadedGeneration) {
      reader.reload();
      loadedGeneration = task.generation;
    }
    const remainingMs = task.deadlineAt - Date.now();
    if (remainingMs <= 0) return { expired: true };
    switch (task.op) {
      case 'search': {
        const bytes = reader.search({ ...task.request, timeoutMs: Math.max(1, Math.floor(remainingMs)) });
        return move(transferable(bytes));
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
