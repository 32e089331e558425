/**
 * `npm run bench:ingest`: ingest throughput of the whole pipeline (`ingestFiles`, what
 * `npm run ingest` runs, its shard writers in threads of their own) against the Lucene peer
 * indexing the same file in the same run.
 *
 * Input: BENCH_CORPUS (ingest-format JSONL), or a demo corpus of INGEST_PASSAGES passages
 * (default 200,000; the bar is on 1,000,000) generated into bench/out. Ours: a fresh
 * index with SHARDS shards (default 2) and EMBEDDER (default hashing), reporting passages/s until
 * the last commit (every passage searchable by keyword) and the seconds until every vector was
 * in a shard's HNSW graph (the summary's `fullyIndexedSeconds`). Lucene: BM25 only (no vectors),
 * one writer, the passages its own splitter makes from the same records, added then
 * force-merged to one segment. The table goes to stdout and bench/out/ingest.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedderForIndex, embedderSetting } from '@evidence/embedders';
import { ingestFiles } from '@evidence/ingest';
import { peerCommand, prepareLucenePeer } from './peers/lucene.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'bench', 'out');

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

function corpus(): string {
  if (process.env.BENCH_CORPUS) {
    if (!existsSync(process.env.BENCH_CORPUS)) throw new Error(`BENCH_CORPUS ${process.env.BENCH_CORPUS} does not exist`);
    return process.env.BENCH_CORPUS;
  }
  const passages = positiveInteger('INGEST_PASSAGES', 200_000);
  const file = join(OUT, `ingest-demo-${passages}.jsonl`);
  if (!existsSync(file)) {
    mkdirSync(OUT, { recursive: true });
    console.log(`generating ${passages} demo passages into ${file}`);
    const made = spawnSync(process.execPath, [join(ROOT, 'packages', 'demo-corpus', 'dist', 'demo-corpus.js'), '--passages', String(passages), '--now', '1795000000', '--out', file], { stdio: 'inherit' });
    if (made.status !== 0) throw new Error(`the demo corpus generator failed (exit ${made.status})`);
  }
  return file;
}

async function main(): Promise<void> {
  const file = corpus();
  const shards = positiveInteger('SHARDS', 2);
  const embedder = embedderForIndex(embedderSetting(process.env.EMBEDDER || 'hashing'), null);
  const work = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  try {
    console.log(`ours: ingestFiles(${file}), ${shards} shards, ${embedder.name} vectors`);
    const summary = await ingestFiles([file], { dataDir: join(work, 'data'), shards, embedder, log: (line) => console.log(`  ${line}`) });
    const fully = summary.fullyIndexedSeconds === null ? 'when the background embedder is done' : summary.fullyIndexedSeconds.toFixed(1);
    const rows: string[][] = [
      ['engine', 'passages', 'searchable by keyword after s', 'passages/s', 'fully indexed after s'],
      [`ours, ${shards} shard(s), ${embedder.name} vectors`, String(summary.passagesAdded), summary.elapsedSeconds.toFixed(1), String(Math.round(summary.passagesPerSecond)), fully],
    ];
    let ratio = '';
    const peer = prepareLucenePeer();
    if ('unavailable' in peer) {
      rows.push(['Lucene', 'unavailable', peer.unavailable, '', '']);
    } else {
      console.log('Lucene peer: index (BM25 only, one writer, force-merged to one segment)');
      const indexed = peerCommand(peer, ['index', file, join(work, 'lucene'), '--fields', 'title,text']);
      if (indexed.status !== 0) throw new Error(`the Lucene peer could not index ${file}: ${indexed.stderr.trim().split('\n').slice(-5).join('\n')}`);
      const read = /read \d+ lines: (\d+) passages .*; ([\d.]+) s, (\d+) passages\/s/.exec(indexed.stdout);
      const total = /total ([\d.]+) s/.exec(indexed.stdout);
      if (!read || !total) throw new Error(`unexpected output from the Lucene peer:\n${indexed.stdout}`);
      rows.push(['Lucene 10 (BM25 only)', read[1], read[2], read[3], `${total[1]} (with the force-merge)`]);
      ratio = `ours / Lucene, passages/s until searchable: ${(summary.passagesPerSecond / Number(read[3])).toFixed(2)}x`;
    }
    const table = [
      `| ${rows[0].join(' | ')} |`,
      `|${rows[0].map(() => '---').join('|')}|`,
      ...rows.slice(1).map((row) => `| ${row.join(' | ')} |`),
    ].join('\n');
    const report = [
      `# Ingest (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
      '',
      `Input: ${file}. Ours admits pages (copies and removals applied, so its passage count is lower) and builds vectors; Lucene indexes every passage, BM25 only.`,
      '',
      table,
      '',
      ratio,
      '',
    ].join('\n');
    console.log(report);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, 'ingest.md'), report);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
