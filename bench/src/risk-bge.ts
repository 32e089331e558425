/**
 * `npm run bench:risk-bge`: the instruction_like model with bge-small-en-v1.5 sentence vectors
 * appended to its n-grams (broad negatives, bench/src/risk/negatives.ts), measured beside the same
 * model without them, by leave-one-family-out over the injection-train pool, on the development
 * split (without the pool's near-copies of its attacks) and on the odd-numbered (never trained on)
 * pages of both shared crawls. Not part of `bench:risk`: bge runs asynchronously (ONNX Runtime)
 * and costs about 6 ms a sentence, so every sentence is embedded once up front (about 108,000,
 * 20 minutes on one thread; kept in bench/out/risk-bge-cache.{json,f32} and reused when present).
 *
 * A record is judged by its sentences (each sentence's model score, the rules on the whole text);
 * bench:risk's detectors also judge clauses, so its figures for the same model differ a little.
 * Printed: recall, clean false alarms and precision at several thresholds (the shipped one is 0.99).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { instructionFindings, modelScore, sentenceSpans, type InstructionModel } from '@evidence/evidence';
import { OnnxEmbedder } from '@evidence/embedders';
import { crawlPassages } from './risk/crawl-passages.js';
import { readIds } from './risk/detectors.js';
import { extraNegatives, splitPages, trainCrawlFiles } from './risk/negatives.js';
import { buildTrainingSet, familyGroup, readPool, trainModel, type TrainingSet, type VectorOf } from './risk/train.js';

const POOL = resolve(process.cwd(), process.env.RISK_TRAIN_DATA || '../shared/data/injection-train/pool.jsonl');
const DEV = resolve(process.cwd(), process.env.RISK_DATA || '../shared/data/injection');
const CACHE = resolve(process.cwd(), 'bench/out/risk-bge-cache');
/** Sentences of a text the trainer reads (MAX_SENTENCES of bench/src/risk/train.ts). */
const TRAINED_SENTENCES = 40;
const THRESHOLDS = [0.9, 0.95, 0.98, 0.99, 0.995, 0.999];
const MARKUP_TAG = /<\/?[A-Za-z][^<>]*>/g;
const withoutTags = (sentence: string) => (sentence.includes('<') ? sentence.replace(MARKUP_TAG, ' ') : sentence);
const sentencesOf = (text: string) => sentenceSpans(text).map((span) => withoutTags(text.slice(span.start, span.end)));

if (!existsSync(POOL)) throw new Error(`bench:risk-bge: ${POOL} not found (RISK_TRAIN_DATA names the pool)`);
const records = readPool(POOL);
const negatives = await extraNegatives('broad');
const devTexts = existsSync(resolve(DEV, 'pages.jsonl'))
  ? new Map(readFileSync(resolve(DEV, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => { const page = JSON.parse(line) as { url: string; text: string }; return [page.url, page.text] as const; }))
  : new Map<string, string>();
const heldOutPassages: string[] = [];
for (const file of trainCrawlFiles('broad')) if (existsSync(file)) heldOutPassages.push(...splitPages(await crawlPassages(file)).heldOut.map((passage) => passage.text));

// Every sentence any model will see, embedded once.
const wanted = new Set<string>();
for (const record of records) {
  for (const sentence of sentencesOf(record.text)) wanted.add(sentence);
  if (record.carrier) for (const part of record.carrier.split('<<INJECTION>>')) for (const sentence of sentencesOf(part).slice(0, TRAINED_SENTENCES)) wanted.add(sentence);
}
// Training reads the first sentences of a negative text only (bench/src/risk/train.ts); judging reads every sentence.
for (const text of negatives.texts) for (const sentence of sentencesOf(text).slice(0, TRAINED_SENTENCES)) wanted.add(sentence);
for (const text of [...devTexts.values(), ...heldOutPassages]) for (const sentence of sentencesOf(text)) wanted.add(sentence);
const vectors = new Map<string, Float32Array>();
if (existsSync(`${CACHE}.json`)) {
  const list = JSON.parse(readFileSync(`${CACHE}.json`, 'utf8')) as string[];
  const bytes = readFileSync(`${CACHE}.f32`);
  const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const dimensions = all.length / Math.max(1, list.length);
  list.forEach((sentence, index) => vectors.set(sentence, all.subarray(index * dimensions, (index + 1) * dimensions)));
}
const missing = [...wanted].filter((sentence) => !vectors.has(sentence));
if (missing.length > 0) {
  console.log(`bench:risk-bge: embedding ${missing.length} sentences with bge-small-en-v1.5 (${vectors.size} cached)`);
  const embedder = await OnnxEmbedder.open();
  const started = performance.now();
  for (let index = 0; index < missing.length; index++) {
    const [vector] = await embedder.embed([missing[index].slice(0, 2000)], 'passage');
    vectors.set(missing[index], vector);
    if (index % 5000 === 4999) console.log(`  ${index + 1} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  await embedder.close();
  const list = [...vectors.keys()];
  const dimensions = vectors.get(list[0])!.length;
  const all = new Float32Array(list.length * dimensions);
  list.forEach((sentence, index) => all.set(vectors.get(sentence)!, index * dimensions));
  mkdirSync(resolve(CACHE, '..'), { recursive: true });
  writeFileSync(`${CACHE}.json`, JSON.stringify(list));
  writeFileSync(`${CACHE}.f32`, Buffer.from(all.buffer));
}
const dimensions = vectors.values().next().value!.length;
const vectorOf: VectorOf = (sentence) => vectors.get(sentence) ?? null;

const variants: Array<{ name: string; set: TrainingSet; vectorOf?: VectorOf }> = [
  { name: 'n-grams, broad negatives', set: buildTrainingSet(records, negatives.texts) },
  { name: `n-grams + bge-small vectors (${dimensions}), broad negatives`, set: buildTrainingSet(records, negatives.texts, undefined, vectorOf, dimensions), vectorOf },
];
const train = (variant: (typeof variants)[number], include?: (record: number) => boolean): InstructionModel => {
  const model = trainModel(variant.set, include);
  if (variant.vectorOf) model.embed = variant.vectorOf;
  return model;
};
/** [rules flag the text, highest model score of its sentences]. */
const judge = (model: InstructionModel, text: string): [boolean, number] => {
  const rules = instructionFindings(text, undefined, { rules: true, model: null }).length > 0;
  let best = 0;
  for (const sentence of sentencesOf(text)) best = Math.max(best, modelScore(model, sentence) ?? 0);
  return [rules, best];
};

const groups = [...new Set(records.map((record) => `${record.label}\t${familyGroup(record)}`))].sort();
const overlap = readIds(resolve(POOL, '..', 'dev_overlap_ids.txt'));
const devLabels = existsSync(resolve(DEV, 'labels.jsonl'))
  ? readFileSync(resolve(DEV, 'labels.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { url: string; injected: boolean })
  : [];
const f3 = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
const summary: Record<string, unknown> = {};
for (const variant of variants) {
  const lofo: Array<{ family: string; label: string; judged: Array<[boolean, number]> }> = [];
  for (const key of groups) {
    const [label, family] = key.split('\t');
    const held = new Set<number>();
    records.forEach((record, index) => {
      if (record.label === label && familyGroup(record) === family) held.add(index);
    });
    const model = train(variant, (index) => !held.has(index));
    lofo.push({ family, label, judged: [...held].map((index) => judge(model, records[index].text)) });
  }
  const devModel = train(variant, (index) => !overlap.has(records[index].id));
  const dev = devLabels.map((label) => ({ injected: label.injected, judged: judge(devModel, devTexts.get(label.url) ?? '') }));
  const full = train(variant);
  const crawl = heldOutPassages.map((text) => judge(full, text));
  console.log(`\n## ${variant.name}\n`);
  console.log('| p >= | leave-one-family-out recall | clean texts flagged | precision | dev attacks | dev clean flagged | held-out crawl passages flagged |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  const rows = [];
  for (const threshold of THRESHOLDS) {
    const flagged = ([rules, score]: [boolean, number]) => rules || score >= threshold;
    let hits = 0, attacks = 0, alarms = 0, clean = 0;
    for (const result of lofo) {
      const count = result.judged.filter(flagged).length;
      if (result.label === 'injection') { hits += count; attacks += result.judged.length; } else { alarms += count; clean += result.judged.length; }
    }
    const devHits = dev.filter((page) => page.injected && flagged(page.judged)).length;
    const devAlarms = dev.filter((page) => !page.injected && flagged(page.judged)).length;
    const crawlAlarms = crawl.filter(flagged).length;
    console.log(`| ${threshold} | ${hits} of ${attacks} (${f3(hits / attacks)}) | ${alarms} of ${clean} | ${f3(hits / (hits + alarms))} | ${devHits} of ${dev.filter((page) => page.injected).length} | ${devAlarms} of ${dev.filter((page) => !page.injected).length} | ${crawlAlarms} of ${crawl.length} |`);
    rows.push({ threshold, hits, attacks, alarms, clean, devHits, devAlarms, crawlAlarms, crawlPassages: crawl.length });
  }
  const perFamily = lofo.filter((result) => result.label === 'injection').map((result) => `${result.family} ${f3(result.judged.filter(([rules, score]) => rules || score >= 0.99).length / result.judged.length)}`);
  console.log(`\nper attack family at p >= 0.99: ${perFamily.join(', ')}`);
  summary[variant.name] = rows;
}
const out = resolve(process.cwd(), 'bench/out/risk-bge.json');
writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\nwrote ${out}`);
