/**
 * Between threads: a shard's answer encoded and decoded (MessagePack, the engine's encoding,
 * read with msgpackr by the thread that uses the hits: the pool for a search, an evidence worker
 * for its retrieval; JSON; structured clone), and carried from a worker thread to this one with
 * each encoding. The engine writes hits as rows (`HitRow`), which `decodeSearchResult` makes
 * hits; the maps rows show what the same hits cost decoded key by key.
 */
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { pack, unpack } from 'msgpackr';
import { decodeSearchResult, hitRowFields } from '@evidence/native';
import { shardResultOf } from './fixtures/hits.js';
import type { MicroCase, MicroGroup } from './group.js';
import type { Encoding, TransferAnswer, TransferRequest } from './transfer-worker.js';

const HIT_COUNTS = [10, 100];

/**
 * Requests to the transfer worker, matched to answers by id (tinybench calls a task once
 * without awaiting it, to tell whether it is async).
 */
class TransferWorker {
  private readonly worker = new Worker(new URL('./transfer-worker.js', import.meta.url));
  private readonly pending = new Map<number, { resolve: (body: TransferAnswer['body']) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  constructor() {
    this.worker.on('message', ({ id, body }: TransferAnswer) => {
      this.pending.get(id)?.resolve(body);
      this.pending.delete(id);
    });
    this.worker.on('error', (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
  }

  request(hits: number, encoding: Encoding): Promise<TransferAnswer['body']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, hits, encoding } satisfies TransferRequest);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

function caseOf(hits: number, worker: TransferWorker): MicroCase {
  const result = shardResultOf(hits);
  const json = JSON.stringify(result);
  const packed = pack(result);
  const rows = pack({ ...result, hits: result.hits.map((hit) => hitRowFields.map((field) => hit[field] ?? null)) });
  const jsonBytes = Buffer.byteLength(json);
  const cloneBytes = serialize(result).length;
  return {
    label: `${hits} hits`,
    baseline: { name: 'JSON.stringify + JSON.parse', fn: () => JSON.parse(JSON.stringify(result)), bytes: jsonBytes },
    tasks: [
      { name: 'msgpackr pack + unpack', fn: () => unpack(pack(result)), bytes: packed.length },
      { name: 'msgpackr unpack only, hits as maps', fn: () => unpack(packed), bytes: packed.length },
      { name: 'decodeSearchResult, hits as rows (the pool, per shard)', fn: () => decodeSearchResult(rows), bytes: rows.length },
      { name: 'structuredClone', fn: () => structuredClone(result), bytes: cloneBytes },
      { name: 'worker -> here: object (structured clone)', fn: () => worker.request(hits, 'clone'), bytes: cloneBytes },
      { name: 'worker -> here: JSON string + JSON.parse', fn: async () => JSON.parse((await worker.request(hits, 'json')) as string), bytes: jsonBytes },
      { name: 'worker -> here: msgpackr, transferred + unpack', fn: async () => unpack((await worker.request(hits, 'msgpack')) as Uint8Array), bytes: packed.length },
    ],
  };
}

export const transferGroup: MicroGroup = {
  name: 'transfer',
  title: 'Between threads: a shard answer encoded, decoded and carried across',
  legend:
    'baseline: JSON.stringify + JSON.parse of one shard answer (hits with every engine field). Rows: msgpackr (MessagePack is the engine\'s encoding of its answer), ' +
    'structuredClone, and a round trip to a worker thread that answers with the result encoded each way (worker encodes, this thread decodes; ' +
    'includes the small request message). bytes: JSON UTF-8, msgpackr, or V8 serializer (what structured clone writes).',
  async setup() {
    const worker = new TransferWorker();
    // The worker builds its fixtures on first use; do that before anything is timed.
    for (const hits of HIT_COUNTS) await worker.request(hits, 'clone');
    return { cases: HIT_COUNTS.map((hits) => caseOf(hits, worker)), close: () => worker.close() };
  },
};
