/**
 * Where an index lives under DATA_DIR: `index.json` (the manifest: shard count and vector
 * dimensions, fixed when the index is created), `shards/N/` (one engine shard each) and
 * `ledger.jsonl` (the admission ledger the ingest appends to).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface IndexManifest {
  shards: number;
  dimensions: number;
  created_at: number;
}

export const MANIFEST_FILE = 'index.json';
export const LEDGER_FILE = 'ledger.jsonl';

export function shardDirectory(dataDir: string, shard: number): string {
  return join(dataDir, 'shards', String(shard));
}

export function ledgerPath(dataDir: string): string {
  return join(dataDir, LEDGER_FILE);
}

export function readManifest(dataDir: string): IndexManifest | null {
  const path = join(dataDir, MANIFEST_FILE);
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, 'utf8')) as IndexManifest;
}

/** The manifest of DATA_DIR, created with `shards` and `dimensions` when there is none yet. */
export function ensureManifest(dataDir: string, shards: number, dimensions = 128): IndexManifest {
  const existing = readManifest(dataDir);
  if (existing) return existing;
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`shard count must be a positive integer, got ${shards}`);
  mkdirSync(dataDir, { recursive: true });
  const manifest: IndexManifest = { shards, dimensions, created_at: Math.floor(Date.now() / 1000) };
  const path = join(dataDir, MANIFEST_FILE);
  writeFileSync(`${path}.tmp`, JSON.stringify(manifest, null, 2));
  renameSync(`${path}.tmp`, path);
  return manifest;
}
