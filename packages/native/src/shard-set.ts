/**
 * The shard set of an index: created once with the manifest, each shard stamped with an id that
 * the manifest records. A shard is served only when its directory holds an index and the stamp
 * the manifest names: a shard lost (or swapped for an empty one) while the service was down reads
 * as down, so its answers are partial, never complete over missing data. Only the creation of an
 * index makes shards; readers and ingest never recreate a lost one.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addon } from './addon.js';
import { DEFAULT_VECTOR_DIMENSIONS, HASHING_EMBEDDER, readManifest, shardDirectory, shardOptionsOf, writeManifest, type IndexManifest } from './layout.js';

/** The stamp in each shard directory: which shard of which index it is. */
export const SHARD_STAMP_FILE = 'shard.json';

/** Tantivy writes this when it creates an index; a directory without it holds no shard. */
const INDEX_META_FILE = 'meta.json';

interface ShardStamp {
  shard: number;
  id: string;
}

function readStamp(directory: string): ShardStamp | null {
  try {
    const stamp = JSON.parse(readFileSync(join(directory, SHARD_STAMP_FILE), 'utf8')) as ShardStamp;
    return typeof stamp.id === 'string' ? stamp : null;
  } catch {
    return null;
  }
}

/** Stamp a shard directory, or read the stamp another process wrote first. */
function stampShard(directory: string, shard: number): string {
  const stamp: ShardStamp = { shard, id: randomBytes(8).toString('hex') };
  try {
    writeFileSync(join(directory, SHARD_STAMP_FILE), JSON.stringify(stamp), { flag: 'wx' });
    return stamp.id;
  } catch (error) {
    const existing = readStamp(directory);
    if (existing) return existing.id;
    throw error;
  }
}

function hasIndex(directory: string): boolean {
  return existsSync(join(directory, INDEX_META_FILE));
}

/**
 * The manifest of DATA_DIR. When there is none, a new index is created: `shards` empty shards,
 * each stamped, and the manifest that records them. A manifest from before shard sets were
 * recorded is adopted when every shard it counts is there (a missing one stays unrecorded and
 * reads as down).
 */
export function ensureManifest(
  dataDir: string,
  shards: number,
  embedder: { name: string; dimensions: number } = { name: HASHING_EMBEDDER, dimensions: DEFAULT_VECTOR_DIMENSIONS },
): IndexManifest {
  const existing = readManifest(dataDir);
  if (existing) return existing.shard_ids ? existing : adoptShardSet(dataDir, existing);
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`shard count must be a positive integer, got ${shards}`);
  const shape = { dimensions: embedder.dimensions, embedder: embedder.name };
  const shardIds: string[] = [];
  for (let shard = 0; shard < shards; shard++) {
    const directory = shardDirectory(dataDir, shard);
    const writer = addon.ShardWriter.open(directory, shardOptionsOf(shape));
    writer.close();
    shardIds.push(stampShard(directory, shard));
  }
  const manifest: IndexManifest = { shards, ...shape, created_at: Math.floor(Date.now() / 1000), shard_ids: shardIds };
  writeManifest(dataDir, manifest);
  return manifest;
}

function adoptShardSet(dataDir: string, manifest: IndexManifest): IndexManifest {
  const directories = Array.from({ length: manifest.shards }, (_, shard) => shardDirectory(dataDir, shard));
  if (!directories.every(hasIndex)) return manifest;
  const adopted: IndexManifest = { ...manifest, shard_ids: directories.map((directory, shard) => stampShard(directory, shard)) };
  writeManifest(dataDir, adopted);
  return adopted;
}

/**
 * Why shard `shard` of the index in `dataDir` cannot serve as part of it, or null when it can:
 * its directory or index is missing, or it is not the shard the manifest recorded.
 */
export function shardProblem(dataDir: string, shard: number, manifest: IndexManifest | null = readManifest(dataDir)): string | null {
  const directory = shardDirectory(dataDir, shard);
  if (!hasIndex(directory)) return `shard ${shard} is missing: no index at ${directory}`;
  const expected = manifest?.shard_ids?.[shard];
  if (!expected) return null;
  const stamp = readStamp(directory);
  if (stamp?.id === expected) return null;
  const found = stamp ? `its stamp is ${stamp.id}` : `it has no ${SHARD_STAMP_FILE}`;
  return `shard ${shard} at ${directory} is not the shard this index was created with (${found}, the manifest records ${expected})`;
}

/** Throw the first shard problem of an index (ingest refuses to write into a broken shard set). */
export function assertShardSet(dataDir: string, manifest: IndexManifest): void {
  for (let shard = 0; shard < manifest.shards; shard++) {
    const problem = shardProblem(dataDir, shard, manifest);
    if (problem) throw new Error(`${problem}; restore the shard directory from a backup, or rebuild the index into a new DATA_DIR`);
  }
}
