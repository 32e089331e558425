/**
 * `npm run bench:fusion`: how keyword and a model's vector ranking fuse in hybrid mode. The
 * fusion's form and weights are chosen on one judged set (FUSION_TUNE_SET, default msmarco) and
 * reported on the other (dbpedia) as validation, never tuned per query. Rows: keyword alone,
 * semantic alone, the engine's hybrid over a grid of VectorScoring values, and reciprocal-rank
 * fusion (k = 60) of the keyword and semantic rankings computed here, for comparison. Also the
 * cosine of each query's best neighbour and of its judged passages, which sets the band
 * (cosine_floor) and the least similarity that counts as a match (min_similarity).
 *
 * Environment: IR_DATA_DIR (default ../shared/data/ir), FUSION_EMBEDDER (default
 * bge-small-en-v1.5-q), FUSION_TUNE_SET (msmarco), FUSION_VALIDATION_SET (dbpedia), SHARDS (2).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { embedderSpec, openEmbedder, type TextEmbedder } from '@evidence/embedders';
import type { VectorScoring } from '@evidence/native';
import { cleanQuery } from './quality/clean.js';
import { loadSet, type IrSet } from './quality/dataset.js';
import { ndcgByQuery, runQueries, score, type Run } from './quality/evaluate.js';
import { corpusVectors } from './quality/model-vectors.js';
import { buildOurIndex } from './quality/ours.js';

const LIMIT = 100;
const dataRoot = resolve(process.cwd(), process.env.IR_DATA_DIR || '../shared/data/ir');
const shards = Number(process.env.SHARDS || 2);
const spec = embedderSpec(process.env.FUSION_EMBEDDER || 'bge-small-en-v1.5-q');
if (!spec || spec.runs !== 'model') throw new Error(`FUSION_EMBEDDER must name a model embedder, got ${process.env.FUSION_EMBEDDER}`);
const tuneSet = process.env.FUSION_TUNE_SET || 'msmarco';
const validationSet = process.env.FUSION_VALIDATION_SET || 'dbpedia';
const cacheDir = resolve(process.cwd(), 'bench/out/vectors');

const FLOORS = [0, 0.3, 0.4, 0.5, 0.6];
const COSINE_WEIGHTS = [0.3, 0.5, 1, 1.5, 2, 3, 5, 10];
const RRF_K = 60;

function grid(): VectorScoring[] {
  const points: VectorScoring[] = [];
  for (const cosineFloor of FLOORS) for (const cosineWeight of COSINE_WEIGHTS) points.push({ minSimilarity: 0.1, keywordWeight: 1, cosineWeight, cosineFloor });
  return points;
}

function labelOf(scoring: VectorScoring): string {
  return `hybrid floor ${scoring.cosineFloor} x${scoring.cosineWeight}`;
}

function rrf(keyword: Run, semantic: Run): Run {
  const rankings = new Map<string, string[]>();
  for (const [query, keywordIds] of keyword.rankings) {
    const fused = new Map<string, number>();
    keywordIds.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
    (semantic.rankings.get(query) ?? []).forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
    rankings.set(query, [...fused.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id).slice(0, LIMIT));
  }
  return { rankings, msPerQuery: 0 };
}

function percentile(values: number[], share: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

function cosine(a: Float32Array | number[], b: Float32Array | number[]): number {
  let dot = 0;
  for (let index = 0; index < a.length; index++) dot += a[index] * b[index];
  return dot;
}

interface SetResult {
  name: string;
  rows: Array<{ label: string; ndcg10: number; recall100: number }>;
  scoring: Map<string, VectorScoring>;
  cosines: { best: number[]; relevant: number[]; random: number[] };
  perQuery: Map<string, Map<string, number>>;
}

async function study(set: IrSet, model: TextEmbedder): Promise<SetResult> {
  const cleaned = new Map(set.queries.map((query) => [query.id, cleanQuery(query.text)]));
  const passages = await corpusVectors(set.name, set.corpus, model, cacheDir);
  const queryVectors = new Map<string, number[]>();
  const queryVector = async (text: string) => {
    let vector = queryVectors.get(text);
    if (!vector) {
      vector = Array.from((await model.embed([text], 'query'))[0]);
      queryVectors.set(text, vector);
    }
    return vector;
  };
  const ours = await buildOurIndex(set.corpus, shards, set.name, { spec: spec!, passages, queryVector });
  const rows: SetResult['rows'] = [];
  const scoring = new Map<string, VectorScoring>();
  const perQuery = new Map<string, Map<string, number>>();
  const record = (label: string, run: Run) => {
    rows.push({ label, ...pick(score(set, run)) });
    perQuery.set(label, ndcgByQuery(set, run));
  };
  try {
    const keyword = await runQueries((query, limit) => ours.search(query, limit, 'keyword'), set.queries, cleaned, LIMIT);
    const semantic = await runQueries((query, limit) => ours.search(query, limit, 'semantic', { minSimilarity: 0 }), set.queries, cleaned, LIMIT);
    record('keyword', keyword);
    record('semantic', semantic);
    record(`rrf k=${RRF_K}`, rrf(keyword, semantic));
    for (const point of grid()) {
      const run = await runQueries((query, limit) => ours.search(query, limit, 'hybrid', point), set.queries, cleaned, LIMIT, 0);
      record(labelOf(point), run);
      scoring.set(labelOf(point), point);
    }
  } finally {
    await ours.close();
  }
  // The cosine bands: each query's best neighbour, its judged passages, and random passages.
  const byId = new Map(set.corpus.map((doc, at) => [doc.id, passages[at]]));
  const cosines: SetResult['cosines'] = { best: [], relevant: [], random: [] };
  for (const query of set.queries) {
    const vector = await queryVector(cleaned.get(query.id)!);
    let best = -1;
    for (const passage of passages) best = Math.max(best, cosine(vector, passage));
    cosines.best.push(best);
    for (const [id, grade] of set.qrels.get(query.id) ?? []) {
      const passage = byId.get(id);
      if (passage && grade >= 1) cosines.relevant.push(cosine(vector, passage));
    }
    for (let draw = 0; draw < 20; draw++) cosines.random.push(cosine(vector, passages[(draw * 7919 + query.id.length * 104729) % passages.length]));
  }
  return { name: set.name, rows, scoring, cosines, perQuery };
}

function pick(scores: ReturnType<typeof score>): { ndcg10: number; recall100: number } {
  return { ndcg10: scores.ndcg10, recall100: scores.recall100 };
}

const model = await openEmbedder(spec.name, {});
const started = performance.now();
const tune = await study(loadSet(dataRoot, tuneSet), model);
const validation = await study(loadSet(dataRoot, validationSet), model);
await model.close();

const hybridRows = tune.rows.filter((row) => row.label.startsWith('hybrid'));
const chosen = hybridRows.reduce((best, row) => (row.ndcg10 > best.ndcg10 ? row : best));
const lines: string[] = [];
lines.push(`# Fusion study: ${spec.name}, tuned on ${tuneSet}, validated on ${validationSet} (${shards} shards)`);
lines.push('');
lines.push(`| ranking | ${tuneSet} nDCG@10 | ${tuneSet} recall@100 | ${validationSet} nDCG@10 | ${validationSet} recall@100 |`);
lines.push('|---|---:|---:|---:|---:|');
for (const row of tune.rows) {
  const other = validation.rows.find((candidate) => candidate.label === row.label)!;
  const mark = row.label === chosen.label ? ' (chosen)' : '';
  lines.push(`| ${row.label}${mark} | ${row.ndcg10.toFixed(3)} | ${row.recall100.toFixed(3)} | ${other.ndcg10.toFixed(3)} | ${other.recall100.toFixed(3)} |`);
}
lines.push('');
for (const result of [tune, validation]) {
  const { best, relevant, random } = result.cosines;
  const band = (values: number[]) => `p10 ${percentile(values, 0.1).toFixed(3)}, p50 ${percentile(values, 0.5).toFixed(3)}, p90 ${percentile(values, 0.9).toFixed(3)}`;
  lines.push(`- ${result.name} cosines: best neighbour ${band(best)}; judged relevant ${band(relevant)}; random passages ${band(random)}`);
}
lines.push(`- chosen on ${tuneSet}: ${chosen.label} = ${JSON.stringify(tune.scoring.get(chosen.label))}`);
lines.push(`- total ${((performance.now() - started) / 1000).toFixed(0)} s`);
const report = lines.join('\n');
console.log(report);
mkdirSync(resolve(process.cwd(), 'bench/out'), { recursive: true });
writeFileSync(join(process.cwd(), 'bench/out/fusion.md'), `${report}\n`);
