#!/usr/bin/env node
/**
 * The numbers in packages/embedders/MEASURED.md, from the built package (npm run build:ts first)
 * and the judged IR sets (IR_DATA_DIR, default ../shared/data/ir from the repository root):
 *
 *   node packages/embedders/scripts/measure.mjs speed     passages/s by threads and batch size, ms per query
 *   node packages/embedders/scripts/measure.mjs memory    RSS before and after loading the model
 *   node packages/embedders/scripts/measure.mjs quality   nDCG@10 by exact cosine, with and without the query instruction
 *
 * `quality` embeds every passage of a set once (a few minutes of CPU) and keeps the vectors in
 * EMBEDDING_CACHE_DIR (default /tmp/evidence-embedders-cache) for later runs; QUALITY_BATCH_SIZE
 * (default the embedder's) sets how many passages share an inference. The cache is keyed by set,
 * model name and batch size only: empty it after changing the tokenizer or the model.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_BATCH_SIZE, OnnxEmbedder, WordPieceTokenizer, modelFiles } from '@evidence/embedders';
// The quality benchmark's reading of BEIR sets, its metrics and its paired comparison.
import { loadSet } from '../../../bench/dist/quality/dataset.js';
import { ndcgByQuery, score } from '../../../bench/dist/quality/evaluate.js';
import { describeDifference, pairedDifference } from '../../../bench/dist/quality/paired.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const dataRoot = resolve(repoRoot, process.env.IR_DATA_DIR || '../shared/data/ir');
const cacheDir = process.env.EMBEDDING_CACHE_DIR || '/tmp/evidence-embedders-cache';
const SPEED_PASSAGES = 300;
const RANKING_DEPTH = 100;

/** A corpus document as it is embedded: title and text, as BEIR evaluations of bge join them. */
function passageText(doc) {
  return `${doc.title} ${doc.text}`.trim();
}

function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

/** Best of ROUNDS runs, configurations taken in turn, so that other work on the machine weighs on each alike. */
const ROUNDS = 5;

async function speed() {
  const set = loadSet(dataRoot, 'msmarco');
  const passages = set.corpus.slice(0, SPEED_PASSAGES).map(passageText);
  const queries = set.queries.map((query) => query.text);
  const tokenizer = WordPieceTokenizer.fromFile(modelFiles().tokenizer);
  const tokens = passages.reduce((sum, text) => sum + tokenizer.encode(text).ids.length, 0);
  console.log(`${passages.length} msmarco passages, ${(tokens / passages.length).toFixed(0)} tokens each on average; ${queries.length} msmarco queries; best of ${ROUNDS} rounds`);
  const configurations = [];
  for (const spinWait of [false, true]) {
    for (const threads of [1, 2]) {
      for (const batchSize of [1, 16, 32]) configurations.push({ threads, batchSize, spinWait });
    }
  }
  const models = [];
  for (const configuration of configurations) {
    const model = await OnnxEmbedder.open(configuration);
    await model.embed(passages.slice(0, 32), 'passage');
    models.push({ configuration, model, passageSeconds: Infinity, queryMs: [] });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const entry of models) {
      const started = performance.now();
      await entry.model.embed(passages, 'passage');
      entry.passageSeconds = Math.min(entry.passageSeconds, (performance.now() - started) / 1000);
      if (entry.configuration.batchSize !== 1) continue;
      const times = [];
      for (const text of queries) {
        const queryStarted = performance.now();
        await entry.model.embed([text], 'query');
        times.push(performance.now() - queryStarted);
      }
      times.sort((a, b) => a - b);
      if (entry.queryMs.length === 0 || percentile(times, 0.5) < percentile(entry.queryMs, 0.5)) entry.queryMs = times;
    }
  }
  for (const { configuration, model, passageSeconds, queryMs } of models) {
    const label = `threads ${configuration.threads}, batch ${String(configuration.batchSize).padStart(2)}, ${configuration.spinWait ? 'spinning' : 'no spinning'}`;
    let line = `${label}: ${(passages.length / passageSeconds).toFixed(1)} passages/s, ${(tokens / passageSeconds).toFixed(0)} tokens/s`;
    if (queryMs.length > 0) {
      const mean = queryMs.reduce((sum, value) => sum + value, 0) / queryMs.length;
      line += `; a query alone ${mean.toFixed(1)} ms mean, p50 ${percentile(queryMs, 0.5).toFixed(1)}, p95 ${percentile(queryMs, 0.95).toFixed(1)}`;
    }
    console.log(line);
    await model.close();
  }
}

async function memory() {
  const megabytes = (bytes) => (bytes / 2 ** 20).toFixed(0);
  const before = process.memoryUsage().rss;
  const model = await OnnxEmbedder.open({ threads: 2 });
  const loaded = process.memoryUsage().rss;
  const passages = loadSet(dataRoot, 'msmarco').corpus.slice(0, 64).map(passageText);
  await model.embed(passages, 'passage');
  const used = process.memoryUsage().rss;
  console.log(`RSS: ${megabytes(before)} MiB before loading, ${megabytes(loaded)} MiB after loading, ${megabytes(used)} MiB after embedding 64 passages in batches of ${DEFAULT_BATCH_SIZE}`);
  await model.close();
}

/** The set's passage vectors, from the cache when they were embedded before with the same model and batching. */
async function passageVectors(model, set) {
  mkdirSync(cacheDir, { recursive: true });
  const key = `${set.name}-${set.corpus.length}-${model.name}-batch${model.batchSize}`;
  const file = join(cacheDir, `${key}.f32`);
  const bytes = set.corpus.length * model.dimensions * 4;
  if (existsSync(file) && readFileSync(file).length === bytes) {
    const data = readFileSync(file);
    console.log(`${set.name}: passage vectors from ${file}`);
    return new Float32Array(data.buffer, data.byteOffset, data.length / 4);
  }
  const vectors = new Float32Array(set.corpus.length * model.dimensions);
  const chunk = 256;
  const started = performance.now();
  for (let start = 0; start < set.corpus.length; start += chunk) {
    const embedded = await model.embed(set.corpus.slice(start, start + chunk).map(passageText), 'passage');
    embedded.forEach((vector, index) => vectors.set(vector, (start + index) * model.dimensions));
    const done = Math.min(set.corpus.length, start + chunk);
    process.stderr.write(`\r${set.name}: ${done}/${set.corpus.length} passages embedded, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  process.stderr.write('\n');
  writeFileSync(`${file}.tmp`, Buffer.from(vectors.buffer));
  renameSync(`${file}.tmp`, file);
  console.log(`${set.name}: ${set.corpus.length} passages embedded in ${((performance.now() - started) / 1000).toFixed(0)} s, cached in ${file}`);
  return vectors;
}

/** Corpus ids by descending cosine (dot product of unit vectors), the top RANKING_DEPTH. */
function exactRanking(query, passages, corpus, dimensions) {
  const scores = new Float32Array(corpus.length);
  for (let row = 0; row < corpus.length; row++) {
    let dot = 0;
    const offset = row * dimensions;
    for (let index = 0; index < dimensions; index++) dot += query[index] * passages[offset + index];
    scores[row] = dot;
  }
  const order = Array.from(corpus.keys()).sort((a, b) => scores[b] - scores[a]);
  return order.slice(0, RANKING_DEPTH).map((row) => corpus[row].id);
}

async function quality() {
  const sets = (process.env.QUALITY_SETS || 'msmarco,dbpedia').split(',');
  const batchSize = Number(process.env.QUALITY_BATCH_SIZE || DEFAULT_BATCH_SIZE);
  const plain = await OnnxEmbedder.open({ threads: 2, batchSize, queryInstruction: false });
  const instructed = await OnnxEmbedder.open({ threads: 2, queryInstruction: true });
  for (const name of sets) {
    const set = loadSet(dataRoot, name);
    const passages = await passageVectors(plain, set);
    const runs = {};
    for (const [label, model] of [['without instruction', plain], ['with instruction', instructed]]) {
      const rankings = new Map();
      let elapsed = 0;
      for (const query of set.queries) {
        const started = performance.now();
        const [vector] = await model.embed([query.text], 'query');
        elapsed += performance.now() - started;
        rankings.set(query.id, exactRanking(vector, passages, set.corpus, model.dimensions));
      }
      const run = { rankings, msPerQuery: elapsed / set.queries.length };
      runs[label] = run;
      const scores = score(set, run);
      console.log(`${name} ${label}: nDCG@10 ${scores.ndcg10.toFixed(3)}, recall@100 ${scores.recall100.toFixed(3)} over ${scores.judgedQueries} judged queries; ${run.msPerQuery.toFixed(1)} ms to embed a query`);
    }
    const difference = pairedDifference(ndcgByQuery(set, runs['with instruction']), ndcgByQuery(set, runs['without instruction']));
    console.log(`${name} with - without instruction, nDCG@10 by query: ${describeDifference(difference)}`);
  }
  await plain.close();
  await instructed.close();
}

const studies = { speed, memory, quality };
const chosen = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(studies);
const unknown = chosen.filter((study) => !studies[study]);
if (unknown.length > 0) {
  console.error(`unknown study ${unknown.join(', ')}: choose from ${Object.keys(studies).join(', ')}`);
  process.exit(2);
}
for (const study of chosen) await studies[study]();
