/**
 * Peer engines on the same documents and cleaned queries: MiniSearch (BM25+, its defaults:
 * fields title and text unboosted, OR, no prefix, no fuzzy) and Orama (BM25, its defaults:
 * OR (threshold 1), prefix matching of query terms), each without and with English stemming.
 */
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import type { CorpusDoc } from './dataset.js';

export interface PeerIndex {
  engine: string;
  analyser: string;
  buildMs: number;
  search(query: string, limit: number): Promise<string[]>;
}

export function buildMiniSearch(corpus: CorpusDoc[], stemmed: boolean): PeerIndex {
  const started = performance.now();
  const index = new MiniSearch<CorpusDoc>({
    fields: ['title', 'text'],
    idField: 'id',
    ...(stemmed ? { processTerm: (term: string) => stemmer(term.toLowerCase()) } : {}),
  });
  index.addAll(corpus);
  return {
    engine: 'minisearch',
    analyser: stemmed ? 'Porter stemmer, npm stemmer' : 'default analyser',
    buildMs: performance.now() - started,
    async search(query, limit) {
      return index.search(query).slice(0, limit).map((hit) => String(hit.id));
    },
  };
}

export async function buildOrama(corpus: CorpusDoc[], stemmed: boolean): Promise<PeerIndex> {
  const started = performance.now();
  const db = create({
    schema: { title: 'string', text: 'string' } as const,
    components: { tokenizer: { language: 'english', stemming: stemmed } },
  });
  await insertMultiple(db, corpus.map((doc) => ({ id: doc.id, title: doc.title, text: doc.text })), 1000);
  return {
    engine: 'orama',
    analyser: stemmed ? 'built-in English stemmer, stemming: true' : 'default analyser',
    buildMs: performance.now() - started,
    async search(query, limit) {
      const result = await oramaSearch(db, { term: query, properties: ['title', 'text'], limit });
      return result.hits.map((hit) => String(hit.id));
    },
  };
}
