/**
 * Where an index lives under DATA_DIR: `index.json` (the manifest: shard count, vector
 * dimensions and the shard set, fixed when the index is created), `shards/N/` (one engine shard
 * each, stamped with its id in `shard.json`) and `ledger.jsonl` (the admission ledger the ingest
 * appends to).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VectorSourceName } from '../addon.cjs';

export interface IndexManifest {
  shards: number;
  dimensions: number;
  created_at: number;
  /**
   * The shard set: the id stamped into each shard directory (`shard.json`) when the shard was
   * created. A shard whose directory, index or stamp is not there is down, never made anew.
   * Absent in manifests written before the shard set was recorded (adopted at the next open).
   */
  shard_ids?: string[];
  /**
   * The embedder that makes the index's vectors (`hashing`, or a model's name such as
   * `bge-small-en-v1.5-q`), fixed when the index is created: a model's vectors are comparable
   * only with vectors of the same model. Absent in manifests written before it was recorded,
   * whose vectors all came from `hashing`.
   */
  embedder?: string;
}

/** The engine's own model-free embedder; every other embedder runs outside the engine. */
export const HASHING_EMBEDDER = 'hashing';

/** How a shard of this index is opened: its dimensions, and whether the engine embeds. */
export function shardOptionsOf(manifest: Pick<IndexManifest, 'dimensions' | 'embedder'>): { dimensions: number; vectors: VectorSourceName } {
  return { dimensions: manifest.dimensions, vectors: (manifest.embedder ?? HASHING_EMBEDDER) === HASHING_EMBEDDER ? 'hashing' : 'external' };
}

export const MANIFEST_FILE = 'index.json';
/** Vector dimensions of a new index (the default embedder's). */
export const DEFAULT_VECTOR_DIMENSIONS = 128;
export const LEDGER_FILE = 'ledger.jsonl';
/** Hidden text of crawled pages, one line per page that hid some (written by ingest, read by the risk flags). */
export const HIDDEN_TEXT_FILE = 'hidden-text.jsonl';
/** The page link log: one line per admitted page with links (written by ingest, read by the graph routes). */
export const LINKS_FILE = 'links.tsv';

export function shardDirectory(dataDir: string, shard: number): string {
  return join(dataDir, 'shards', String(shard));
}

export function ledgerPath(dataDir: string): string {
  return join(dataDir, LEDGER_FILE);
}

export function readManifest(dataDir: string): IndexManifest | null {
  const path = join(dataDir, MANIFEST_FILE);
  if (!existsSync(path)) return null;
  let manifest: IndexManifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as IndexManifest;
  } catch (error) {
    throw new Error(`${path} is not a readable index manifest (${(error as Error).message}); restore it from a backup: the shard count and shard set are recorded there`);
  }
  if (!Number.isInteger(manifest?.shards) || manifest.shards < 0 || !Number.isInteger(manifest.dimensions) || manifest.dimensions < 1) {
    throw new Error(`${path} is not a valid index manifest: it needs an integer shards and dimensions`);
  }
  if (manifest.embedder !== undefined && (typeof manifest.embedder !== 'string' || manifest.embedder === '')) {
    throw new Error(`${path} is not a valid index manifest: embedder must be a non-empty string`);
  }
  return manifest;
}

/** Write the manifest atomically (a reader never sees half of it). */
export function writeManifest(dataDir: string, manifest: IndexManifest): void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, MANIFEST_FILE);
  writeFileSync(`${path}.tmp`, JSON.stringify(manifest, null, 2));
  renameSync(`${path}.tmp`, path);
}
