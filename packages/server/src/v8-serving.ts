/**
 * The one V8 setting a serving process needs, set when a server starts (process-wide: the
 * shard, evidence and ledger worker threads share it).
 *
 * Allocation-site pretenuring off. V8 watches which allocation sites' objects survive young
 * collections and, past a threshold, allocates that site's later objects straight into the old
 * generation. A server that takes load in its first seconds, while its code is still cold and
 * every request is slow, has the per-request objects of its hottest sites (decoded shard
 * answers, hits, the answer's JSON parts) outlive a scavenge or two and pretenured for good:
 * measured on the 1M index under 16 connections then 414 requests/s, the main thread's old
 * generation then grew about 10 MB/s and a mark-compact ran every second (38 to 47 in 45 s,
 * against 6 to 12), with about 30 ms stalls: p99 29 to 36 ms in every such run against 6.5 to
 * 13.7 ms for a server first loaded after a few idle seconds, and 7 to 10% fewer answers per
 * second. With pretenuring off, the same early load ran 6 mark-compacts and a p99 of 7.9 ms
 * (bench/results/2026-11-26-engine-per-query.md). A request's objects die young; nothing the
 * server keeps for long is allocated per request, so nothing is lost by never pretenuring.
 */
import { setFlagsFromString } from 'node:v8';

/** Idempotent: setting the flag again changes nothing. */
export function applyServingV8Flags(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
