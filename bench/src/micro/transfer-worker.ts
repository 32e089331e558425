/**
 * The far side of the transfer group's round trips: holds the fixture shard results and answers
 * each request with one of them, encoded as asked (as a shard worker answers the pool).
 */
import { parentPort } from 'node:worker_threads';
import { pack } from 'msgpackr';
import type { ShardSearchResult } from '@evidence/native';
import { shardResultOf } from './fixtures/hits.js';

export type Encoding = 'clone' | 'json' | 'msgpack';

export interface TransferRequest {
  id: number;
  hits: number;
  encoding: Encoding;
}

/** The answer to request `id`: the result itself, as a JSON string, or as MessagePack bytes. */
export interface TransferAnswer {
  id: number;
  body: ShardSearchResult | string | Uint8Array;
}

const results = new Map<number, ShardSearchResult>();

function resultOf(hits: number): ShardSearchResult {
  let result = results.get(hits);
  if (!result) {
    result = shardResultOf(hits);
    results.set(hits, result);
  }
  return result;
}

function answer(message: TransferAnswer, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}

parentPort?.on('message', ({ id, hits, encoding }: TransferRequest) => {
  const result = resultOf(hits);
  switch (encoding) {
    case 'clone':
      answer({ id, body: result });
      break;
    case 'json':
      answer({ id, body: JSON.stringify(result) });
      break;
    case 'msgpack': {
      // msgpackr packs into a buffer it reuses: one copy into an ArrayBuffer of its own makes
      // the hand-over a transfer (as the shard worker does with the engine's bytes).
      const bytes = new Uint8Array(pack(result));
      answer({ id, body: bytes }, [bytes.buffer]);
      break;
    }
  }
});
