/**
 * Engine against engine: our one shard searched in this thread (top 10, exact total, MessagePack
 * decoded) against Apache Lucene on the same passages and queries, one thread, in its three
 * modes (bench/src/peers/lucene.ts; the peer's README says what each mode does). With
 * LUCENE_PER_QUERY=1 it also times each bench query alone in both engines (ours: the mean of
 * one query repeated; Lucene: its two-pass exact mode on a one-query file), so a query whose
 * cost differs from the rest shows which it is. Needs an index
 * of one shard in DATA_DIR, the JSONL it was built from (BENCH_CORPUS), the peer's sources and a
 * JDK 21+; without any of them the group is skipped and says which.
 */
import { ShardReader, decodeSearchResult, readManifest, shardDirectory, shardOptionsOf } from '@evidence/native';
import { LUCENE_MODE_LABELS, luceneIndexFor, prepareLucenePeer, runLuceneBench } from '../peers/lucene.js';
import { BENCH_QUERIES } from '../queries.js';
import { isUnavailable, type MicroGroup, type MicroTask } from './group.js';

export const luceneGroup: MicroGroup = {
  name: 'lucene',
  title: 'Engine against Apache Lucene: one index as one shard, one thread, the bench queries, top 10',
  legend:
    'baseline: our one shard searched in this thread, top-10 with the exact total, MessagePack decoded (as in the shard group). ' +
    "Rows: Lucene on the same passages (fields title and text, title^1.5 OR text, BM25 1.2/0.75, one segment), one thread, each call parsing the query and reading the top-10 stored ids; measured by the peer's own closed loop. " +
    'ops/s = 1000 / p50 for every row; the note gives Lucene\'s calls per second of wall time too.',
  async setup() {
    const dataDir = process.env.DATA_DIR || './data';
    const corpusPath = process.env.BENCH_CORPUS;
    const manifest = readManifest(dataDir);
    if (!manifest) return { unavailable: `no index in ${dataDir}: set DATA_DIR, or build one with npm run ingest` };
    if (manifest.shards !== 1) {
      return { unavailable: `the index in ${dataDir} has ${manifest.shards} shards: engine against engine compares one index as one shard (ingest with SHARDS=1)` };
    }
    if (!corpusPath) return { unavailable: 'BENCH_CORPUS: the JSONL the index in DATA_DIR was built from (Lucene indexes the same passages)' };
    const peer = prepareLucenePeer();
    if (isUnavailable(peer)) return peer;
    const index = await luceneIndexFor(peer, dataDir, corpusPath);
    if (isUnavailable(index)) return index;
    const seconds = Number(process.env.LUCENE_SECONDS || 10);
    const warmup = Number(process.env.LUCENE_WARMUP_SECONDS || 5);
    console.log(`lucene peer: 1 thread, ${warmup} s warm-up + ${seconds} s per mode`);
    const lucene = runLuceneBench(peer, index, 1, seconds, warmup);
    if (isUnavailable(lucene)) return lucene;

    const reader = ShardReader.open(shardDirectory(dataDir, 0), shardOptionsOf(manifest));
    const perQuery = process.env.LUCENE_PER_QUERY === '1' ? perQueryTable(reader, (text) => runLuceneBench(peer, index, 1, 2, 1, ['count'], [text])) : [];
    let next = 0;
    const query = () => BENCH_QUERIES[next++ % BENCH_QUERIES.length];
    const tasks: MicroTask[] = lucene.figures.map((figures) => ({
      name: LUCENE_MODE_LABELS[figures.mode],
      fn: () => undefined,
      measured: { meanMs: figures.mean, p50Ms: figures.p50, p99Ms: figures.p99 },
    }));
    const qps = lucene.figures.map((figures) => `${figures.mode} ${figures.qps.toFixed(0)}`).join(', ');
    return {
      note: [
        `index: ${dataDir}, ${reader.numDocs()} passages in one shard; Lucene: ${index.passages} passages exported (${index.summary})`,
        ...lucene.header,
        `Lucene calls per second of wall time (1 thread): ${qps}`,
        ...perQuery,
      ].join('\n'),
      cases: [
        {
          label: '1 shard, 1 thread',
          baseline: { name: 'ours: one shard, this thread, top-10 + exact total + decode', fn: () => decodeSearchResult(reader.search({ query: query(), limit: 10 })) },
          tasks,
        },
      ],
      close: async () => reader.close(),
    };
  },
};

/** How long one search of `text` takes on `reader` (top 10, exact total, decoded), mean ms over about a second. */
function oneQueryMeanMs(reader: ShardReader, text: string): number {
  const search = () => decodeSearchResult(reader.search({ query: text, limit: 10 }));
  for (let i = 0; i < 50; i++) search();
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < 1000) {
    search();
    calls++;
  }
  return (performance.now() - started) / calls;
}

/**
 * Each bench query alone: our mean ms, Lucene's two-pass exact-total mode (p50 and mean of its
 * own 2 s loop), and the ratio, as markdown lines; a query's share of our time shows where a
 * cycle over all of them goes.
 */
function perQueryTable(reader: ShardReader, lucene: (text: string) => ReturnType<typeof runLuceneBench>): string[] {
  console.log(`per query: ${BENCH_QUERIES.length} queries, ours about 1 s each, Lucene 1 s warm-up + 2 s each`);
  const rows = BENCH_QUERIES.map((text) => {
    const total = decodeSearchResult(reader.search({ query: text, limit: 10 })).total;
    const ours = oneQueryMeanMs(reader, text);
    const run = lucene(text);
    const figures = isUnavailable(run) ? undefined : run.figures[0];
    return { text, total, ours, lucene: figures };
  });
  const oursSum = rows.reduce((sum, row) => sum + row.ours, 0);
  const lines = ['', '| query | our total | ours mean ms | share of ours | Lucene two-pass p50 ms | mean ms | Lucene / ours (mean) |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const row of rows) {
    const l = row.lucene;
    const ratio = l ? `${(l.mean / row.ours).toFixed(2)}x` : 'n/a';
    lines.push(`| ${row.text} | ${row.total} | ${row.ours.toFixed(3)} | ${((100 * row.ours) / oursSum).toFixed(1)}% | ${l ? l.p50.toFixed(3) : 'n/a'} | ${l ? l.mean.toFixed(3) : 'n/a'} | ${ratio} |`);
  }
  const lucSum = rows.every((row) => row.lucene) ? rows.reduce((sum, row) => sum + row.lucene!.mean, 0) : NaN;
  lines.push(`| all ${rows.length}, summed | | ${oursSum.toFixed(3)} | 100% | | ${Number.isNaN(lucSum) ? 'n/a' : lucSum.toFixed(3)} | ${Number.isNaN(lucSum) ? 'n/a' : `${(lucSum / oursSum).toFixed(2)}x`} |`);
  return lines;
}
