/**
 * Which shard holds a page. All passages of a page live on one shard, so deleting a page or
 * reading its neighbours touches one shard. FNV-1a is stable across processes and languages,
 * which a future id-routed lookup will need.
 */

/** 32-bit FNV-1a of the UTF-16 code units of `text`. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function shardForPage(pageId: string, shards: number): number {
  return fnv1a32(pageId) % shards;
}
