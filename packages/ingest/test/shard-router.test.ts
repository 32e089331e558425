/**
 * The shard router is part of the index format: a page's shard is fixed when it is written, and
 * the quality bench routes its corpus with the same function. The hash is the published 32-bit
 * FNV-1a, so its values are pinned here (a change would send existing pages to other shards).
 */
import { describe, expect, it } from 'vitest';
import { fnv1a32, shardForPage } from '@evidence/ingest';

describe('shard router', () => {
  it('hashes with 32-bit FNV-1a (the published test vectors)', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('routes a page id to FNV-1a modulo the shard count', () => {
    expect(shardForPage('foobar', 4)).toBe(0xbf9cf968 % 4);
    expect(shardForPage('a', 7)).toBe(0xe40c292c % 7);
    expect(shardForPage('anything', 1)).toBe(0);
  });
});
