/**
 * Peer server (run as its own process by bench/src/http-load.ts): Fastify over MiniSearch, what
 * a TypeScript team would build instead. It holds the passages the index at DATA_DIR holds,
 * read from the JSONL it was built from (BENCH_CORPUS; see passages.ts), in one in-memory
 * MiniSearch (BM25+, fields title and text, OR, no prefix or fuzzy matching: its defaults),
 * and answers GET /search?q=...&limit=10 with the top hits as JSON (GET /stats: passages held). Like the real /search it
 * drops explicit passages unless safe=false. No authentication, metering or vertical routing.
 *
 *   BENCH_CORPUS=FILE.jsonl DATA_DIR=DIR PORT=0 node bench/dist/peers/fastify-minisearch.js
 */
import Fastify from 'fastify';
import MiniSearch from 'minisearch';
import { loadIndexedPassages, type PeerPassage } from './passages.js';

const corpusPath = process.env.BENCH_CORPUS;
const dataDir = process.env.DATA_DIR || './data';
if (!corpusPath) {
  console.error('BENCH_CORPUS: the JSONL the index at DATA_DIR was built from');
  process.exit(2);
}

const loadStarted = performance.now();
const corpus = await loadIndexedPassages(corpusPath, dataDir);
const index = new MiniSearch<PeerPassage>({
  fields: ['title', 'text'],
  storeFields: ['url', 'title', 'text', 'safety'],
  idField: 'id',
});
index.addAll(corpus.passages);
console.log(
  `fastify peer: ${corpus.passages.length} passages indexed (of ${corpus.split} split from ${corpusPath}) in ${((performance.now() - loadStarted) / 1000).toFixed(1)}s`,
);

interface SearchQuery {
  q?: string;
  limit?: string;
  safe?: string;
}

const app = Fastify({ logger: false });
app.get<{ Querystring: SearchQuery }>('/search', async (request, reply) => {
  const query = request.query.q?.trim();
  if (!query) return reply.code(400).type('text/plain; charset=utf-8').send('q: a non-empty query');
  const limit = Math.max(0, Math.min(100, Number(request.query.limit ?? 10) || 0));
  const safe = request.query.safe !== 'false';
  const matches = index.search(query, safe ? { filter: (hit) => hit.safety !== 'explicit' } : {});
  return {
    results: matches.slice(0, limit).map((hit) => ({ id: hit.id, url: hit.url, title: hit.title, snippet: hit.text, score: hit.score })),
    total: matches.length,
  };
});

app.get('/stats', async () => ({ passages: corpus.passages.length, split: corpus.split }));

const address = await app.listen({ host: process.env.HOST || '127.0.0.1', port: Number(process.env.PORT || 0) });
console.log(`fastify peer listening on ${address}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
