/**
 * Our engine, built the way the ingest builds it but from BEIR documents: one passage per corpus
 * document, routed to a shard by the ingest's own router (shardForPage: FNV-1a of the page id),
 * embedded and HNSW-indexed by the shard writer, then searched through a ShardPool.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmbedderSpec } from '@evidence/embedders';
import { fnv1a32, shardForPage } from '@evidence/ingest';
import { ShardWriter, ensureManifest, shardDirectory, shardOptionsOf, type Passage, type VectorScoring } from '@evidence/native';
import { ShardPool, type PoolSearchRequest } from '@evidence/pool';
import type { CorpusDoc } from './dataset.js';

import type { SearchMode } from '@evidence/schemas';
export { SEARCH_MODES, type SearchMode } from '@evidence/schemas';

const PASSAGE_SUFFIX = ':0';
const FETCHED_AT = 1_700_000_000;

export function passageFor(doc: CorpusDoc): Passage {
  const text = doc.text;
  return {
    id: `${doc.id}${PASSAGE_SUFFIX}`,
    pageId: doc.id,
    passageNo: 0,
    url: `https://corpus.invalid/${doc.id}`,
    host: 'corpus.invalid',
    registrableDomain: 'corpus.invalid',
    owner: 'corpus.invalid',
    title: doc.title,
    text,
    vertical: 'reference',
    lang: 'en',
    hostRank: 0.5,
    quality: 50,
    fetchedAt: FETCHED_AT,
    source: 'cc',
    storyId: `s-${fnv1a32(text).toString(16)}`,
    tld: 'invalid',
    wordCount: text.split(/\s+/).filter(Boolean).length,
  };
}

/** The corpus id of a hit id (`${_id}:0`). */
export function corpusIdOf(passageId: string): string {
  return passageId.endsWith(PASSAGE_SUFFIX) ? passageId.slice(0, -PASSAGE_SUFFIX.length) : passageId;
}

export interface OurIndex {
  dataDir: string;
  pool: ShardPool;
  passagesPerShard: number[];
  /** Writing, embedding, HNSW, commit, and opening the pool (first answer), ms. */
  buildMs: number;
  search(query: string, limit: number, mode: SearchMode, scoring?: VectorScoring): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A model's vectors for the index: the passages' (in corpus order, precomputed as the background
 * embedder would store them) and the query vector of a text. Without it, the hashing embedder.
 */
export interface ModelVectors {
  spec: EmbedderSpec;
  passages: Float32Array[];
  queryVector(text: string): Promise<number[]>;
}

export async function buildOurIndex(corpus: CorpusDoc[], shards: number, label: string, model?: ModelVectors): Promise<OurIndex> {
  const started = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), `quality-${label}-`));
  const manifest = model ? ensureManifest(dataDir, shards, model.spec) : ensureManifest(dataDir, shards);
  const byShard: Passage[][] = Array.from({ length: manifest.shards }, () => []);
  corpus.forEach((doc, at) => {
    const passage = passageFor(doc);
    if (model) passage.embedding = Array.from(model.passages[at]);
    byShard[shardForPage(doc.id, manifest.shards)].push(passage);
  });
  const passagesPerShard: number[] = [];
  for (let shard = 0; shard < manifest.shards; shard++) {
    const writer = ShardWriter.open(shardDirectory(dataDir, shard), shardOptionsOf(manifest));
    try {
      const passages = byShard[shard];
      for (let start = 0; start < passages.length; start += 1000) writer.add(passages.slice(start, start + 1000));
      passagesPerShard.push(writer.commit().numDocs);
    } finally {
      writer.close();
    }
  }
  const pool = new ShardPool({
    dataDir,
    shards: manifest.shards,
    replicas: 1,
    shardOptions: shardOptionsOf(manifest),
    maxQueue: 1024,
    queryVector: model?.queryVector,
    vectorScoring: model?.spec.scoring,
  });
  const search = async (query: string, limit: number, mode: SearchMode, scoring?: VectorScoring): Promise<string[]> => {
    // `mode` is being added to PoolSearchRequest; until it lands the pool ignores it (and the
    // intersection type keeps this compiling both before and after).
    const request: PoolSearchRequest & { mode?: SearchMode } = { query, limit, timeoutMs: 10_000, mode, vectorScoring: scoring };
    const result = await pool.search(request as PoolSearchRequest);
    if (result.partial) throw new Error(`partial answer (${result.shardsDown} shards down) for ${JSON.stringify(query)} in ${mode}`);
    return result.hits.map((hit) => corpusIdOf(hit.id));
  };
  await search('warm up', 1, 'keyword');
  return {
    dataDir,
    pool,
    passagesPerShard,
    buildMs: performance.now() - started,
    search,
    async close() {
      await pool.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
