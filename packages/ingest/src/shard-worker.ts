/**
 * One shard's engine writer in a thread of its own, so shards index in parallel while the main
 * thread reads and splits (the engine's add is the largest cost of a run). Kept tiny on purpose:
 * open the writer, then answer requests in the order they arrive.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ShardWriter } from '@evidence/native';
import type { ShardReply, ShardRequest, ShardWorkerData } from './shard-protocol.js';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function serve(port: NonNullable<typeof parentPort>, data: ShardWorkerData): void {
  const reply = (message: ShardReply) => port.postMessage(message);
  let writer: ShardWriter;
  try {
    writer = ShardWriter.open(data.directory, { dimensions: data.dimensions });
  } catch (error) {
    reply({ kind: 'failed', message: errorMessage(error) });
    port.close();
    return;
  }
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
          reply({ kind: 'deleted', deleted: writer.delete(request.ids) });
          return;
        case 'commit':
          writer.commit();
          reply({ kind: 'committed' });
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
