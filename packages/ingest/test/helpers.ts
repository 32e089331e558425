/** Shared test helpers: temporary data directories, JSONL files and reading shards back. */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShardReader, decodeDocument, decodeSearchResult, ledgerPath, readManifest, shardDirectory, type NativeDocument, type ShardSearchResult } from '@evidence/native';
import type { LedgerEvent } from '../src/ledger.js';

export const PACKAGE_DIRECTORY = fileURLToPath(new URL('..', import.meta.url));

/**
 * Shard writers run in worker threads loaded from dist/ (a worker cannot load TypeScript), and
 * the CLI test runs dist/cli.js: fail with the fix rather than test stale code.
 */
export function assertBuilt(): void {
  const sourceDirectory = join(PACKAGE_DIRECTORY, 'src');
  for (const source of readdirSync(sourceDirectory)) {
    if (!source.endsWith('.ts')) continue;
    const built = join(PACKAGE_DIRECTORY, 'dist', source.replace(/\.ts$/, '.js'));
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(join(sourceDirectory, source)).mtimeMs) {
      throw new Error(`packages/ingest/dist is missing or older than src/${source}: run npx tsc -b packages/ingest`);
    }
  }
}

export function temporaryDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'ingest-test-'));
}

export function removeDirectory(directory: string): void {
  rmSync(directory, { recursive: true, force: true });
}

export function writeJsonl(directory: string, name: string, records: Array<object | string>): string {
  const path = join(directory, name);
  writeFileSync(path, records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record))).join('\n') + '\n');
  return path;
}

export function readLedger(dataDir: string): LedgerEvent[] {
  const path = ledgerPath(dataDir);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LedgerEvent);
}

/** Open a reader on every shard, run `use`, close them. */
export function withReaders<T>(dataDir: string, use: (readers: ShardReader[]) => T): T {
  const manifest = readManifest(dataDir);
  if (manifest === null) throw new Error(`no index in ${dataDir}`);
  const readers: ShardReader[] = [];
  try {
    for (let shard = 0; shard < manifest.shards; shard++) {
      readers.push(ShardReader.open(shardDirectory(dataDir, shard), { dimensions: manifest.dimensions }));
    }
    return use(readers);
  } finally {
    for (const reader of readers) reader.close();
  }
}

export function totalDocuments(dataDir: string): number {
  return withReaders(dataDir, (readers) => readers.reduce((sum, reader) => sum + reader.numDocs(), 0));
}

/** Search every shard; hits are not merged by score, only collected. */
export function searchAll(dataDir: string, query: string): ShardSearchResult {
  return withReaders(dataDir, (readers) => {
    const merged: ShardSearchResult = { hits: [], total: 0, timed_out: false, elapsed_us: 0 };
    for (const reader of readers) {
      const result = decodeSearchResult(reader.search({ query, limit: 100 }));
      merged.hits.push(...result.hits);
      merged.total += result.total;
    }
    return merged;
  });
}

export function findDocument(dataDir: string, id: string): NativeDocument | null {
  return withReaders(dataDir, (readers) => {
    for (const reader of readers) {
      const encoded = reader.document(id);
      if (encoded !== null) return decodeDocument(encoded);
    }
    return null;
  });
}

/** A paragraph of exactly `words` words, each distinct enough to search for by `marker`. */
export function paragraph(words: number, marker = 'word'): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index++) parts.push(index === 0 ? marker : `w${index}`);
  return parts.join(' ');
}
