/**
 * instruction_like measured detector against detector, in one run: the rules alone (the baseline)
 * and the rules with each model variant (the shipped configuration and the alternatives measured
 * beside it: broader negatives, sentence vectors), on
 *
 * - leave-one-family-out over the training pool: for each family, a model trained without it, then
 *   recall on its attacks (or the false-alarm rate on its clean texts). This is the figure that
 *   predicts a family the model has never seen; nothing was tuned on it.
 * - the development split (labelled pages), with a model trained without the pool's near-copies of
 *   that split's attacks (dev_overlap_ids.txt), and with the shipped model (trained on them: shown,
 *   not to be trusted as a held-out figure).
 * - real crawled pages: the share of passages flagged (all of them are false alarms).
 */
import { existsSync, readFileSync } from 'node:fs';
import { instructionFindings, sentenceSpans, shippedModel, type InstructionDetector, type InstructionModel } from '@evidence/evidence';
import { buildTrainingSet, familyGroup, trainModel, type PoolRecord, type TrainingSet, type VectorOf } from './train.js';

/** A learned model measured beside the rules: the shipped configuration or an alternative (bench/src/risk.ts names them). */
export interface ModelVariant {
  name: string;
  set: TrainingSet;
  /** The sentence vectors the variant reads (none: n-grams only). */
  vectorOf?: VectorOf;
}

/** The rules alone, then the rules with each variant's model (at the shipped threshold, 0.99). */
export function detectorNames(variants: readonly Pick<ModelVariant, 'name'>[]): string[] {
  return ['rules only', ...variants.map((variant) => `rules + ${variant.name}`)];
}

/** A variant's model trained on the records `include` accepts, ready to score (its vector function attached). */
export function trainVariant(variant: ModelVariant, include?: (record: number) => boolean): InstructionModel {
  const model = trainModel(variant.set, include);
  if (variant.vectorOf) model.embed = variant.vectorOf;
  return model;
}

/** Whether each detector flags `text`: the rules once, each model once, the union from them. */
export function flagsOf(text: string, models: ReadonlyArray<{ name: string; model: InstructionModel }>): Record<string, boolean> {
  const spans = sentenceSpans(text);
  const rules = instructionFindings(text, spans, { rules: true, model: null }).length > 0;
  const flags: Record<string, boolean> = { 'rules only': rules };
  // The union is the detector's page flag (its fragment joining only adds spans to a flagged page).
  for (const { name, model } of models) flags[`rules + ${name}`] = rules || instructionFindings(text, spans, { rules: false, model }).length > 0;
  return flags;
}

export interface Counts {
  positives: number;
  negatives: number;
  flagged: Record<string, { positives: number; negatives: number }>;
}

export function emptyCounts(names: readonly string[]): Counts {
  return { positives: 0, negatives: 0, flagged: Object.fromEntries(names.map((name) => [name, { positives: 0, negatives: 0 }])) };
}

export function count(into: Counts, positive: boolean, flags: Record<string, boolean>): void {
  if (positive) into.positives++;
  else into.negatives++;
  for (const [name, flagged] of Object.entries(flags)) if (flagged) into.flagged[name][positive ? 'positives' : 'negatives']++;
}

export interface FamilyResult {
  family: string;
  label: 'injection' | 'clean';
  counts: Counts;
}

/** Leave-one-family-out over the pool: every family (attack or clean) held out in turn. */
export function leaveOneFamilyOut(records: readonly PoolRecord[], variants: readonly ModelVariant[], onFamily?: (result: FamilyResult) => void): FamilyResult[] {
  const names = detectorNames(variants);
  const groups = [...new Set(records.map((record) => `${record.label}\t${familyGroup(record)}`))].sort();
  const results: FamilyResult[] = [];
  for (const key of groups) {
    const [label, family] = key.split('\t') as ['injection' | 'clean', string];
    const held = new Set<number>();
    records.forEach((record, index) => {
      if (record.label === label && familyGroup(record) === family) held.add(index);
    });
    const models = variants.map((variant) => ({ name: variant.name, model: trainVariant(variant, (record) => !held.has(record)) }));
    const counts = emptyCounts(names);
    for (const index of held) count(counts, label === 'injection', flagsOf(records[index].text, models));
    const result = { family, label, counts };
    results.push(result);
    onFamily?.(result);
  }
  return results;
}

export interface DevPage {
  text: string;
  injected: boolean;
  category: string;
}

export function readDevSplit(directory: string): DevPage[] {
  const read = (file: string) =>
    readFileSync(`${directory}/${file}`, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const texts = new Map(read('pages.jsonl').map((page) => [String(page.url), String(page.text)]));
  return read('labels.jsonl').map((label) => ({ text: texts.get(String(label.url)) ?? '', injected: label.injected === true, category: String(label.category) }));
}

export function readIds(path: string): Set<string> {
  return existsSync(path) ? new Set(readFileSync(path, 'utf8').split('\n').map((line) => line.trim()).filter(Boolean)) : new Set();
}

export function countPages(pages: readonly DevPage[], models: ReadonlyArray<{ name: string; model: InstructionModel }>): Counts {
  const counts = emptyCounts(['rules only', ...models.map((model) => `rules + ${model.name}`)]);
  for (const page of pages) count(counts, page.injected, flagsOf(page.text, models));
  return counts;
}

/** The shipped detector with the shipped model. */
export const SHIPPED: () => InstructionDetector = () => ({ rules: true, model: shippedModel() });

export { buildTrainingSet };
