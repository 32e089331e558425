/**
 * instruction_like measured detector against detector, in one run: the rules alone (the baseline),
 * the learned model alone, and both (the shipped detector), on
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
import { buildTrainingSet, familyGroup, trainModel, type PoolRecord, type TrainingSet } from './train.js';

/** The shipped detector is 'rules + model' (model at its threshold, 0.99); the two at p >= 0.9 show the trade a lower threshold makes. */
export type DetectorName = 'rules only' | 'model only' | 'rules + model' | 'model only, p >= 0.9' | 'rules + model, p >= 0.9';
export const DETECTOR_NAMES: readonly DetectorName[] = ['rules only', 'model only', 'rules + model', 'model only, p >= 0.9', 'rules + model, p >= 0.9'];
const LOWER_THRESHOLD = 0.9;

/** Whether each detector flags `text`: the rules once, the model once, the union from them. */
export function flagsOf(text: string, model: InstructionModel): Record<DetectorName, boolean> {
  const spans = sentenceSpans(text);
  const rules = instructionFindings(text, spans, { rules: true, model: null }).length > 0;
  const learned = instructionFindings(text, spans, { rules: false, model }).length > 0;
  const lower = learned || instructionFindings(text, spans, { rules: false, model, threshold: LOWER_THRESHOLD }).length > 0;
  // The union is the shipped detector's page flag (its fragment joining only adds spans to a flagged page).
  return { 'rules only': rules, 'model only': learned, 'rules + model': rules || learned, 'model only, p >= 0.9': lower, 'rules + model, p >= 0.9': rules || lower };
}

export interface Counts {
  positives: number;
  negatives: number;
  flagged: Record<DetectorName, { positives: number; negatives: number }>;
}

export function emptyCounts(): Counts {
  const zero = () => ({ positives: 0, negatives: 0 });
  return { positives: 0, negatives: 0, flagged: Object.fromEntries(DETECTOR_NAMES.map((name) => [name, zero()])) as Counts['flagged'] };
}

export function count(into: Counts, positive: boolean, flags: Record<DetectorName, boolean>): void {
  if (positive) into.positives++;
  else into.negatives++;
  for (const name of DETECTOR_NAMES) if (flags[name]) into.flagged[name][positive ? 'positives' : 'negatives']++;
}

export interface FamilyResult {
  family: string;
  label: 'injection' | 'clean';
  counts: Counts;
}

/** Leave-one-family-out over the pool: every family (attack or clean) held out in turn. */
export function leaveOneFamilyOut(records: readonly PoolRecord[], set: TrainingSet, onFamily?: (result: FamilyResult) => void): FamilyResult[] {
  const groups = [...new Set(records.map((record) => `${record.label}\t${familyGroup(record)}`))].sort();
  const results: FamilyResult[] = [];
  for (const key of groups) {
    const [label, family] = key.split('\t') as ['injection' | 'clean', string];
    const held = new Set<number>();
    records.forEach((record, index) => {
      if (record.label === label && familyGroup(record) === family) held.add(index);
    });
    const model = trainModel(set, (record) => !held.has(record));
    const counts = emptyCounts();
    for (const index of held) count(counts, label === 'injection', flagsOf(records[index].text, model));
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

export function countPages(pages: readonly DevPage[], model: InstructionModel): Counts {
  const counts = emptyCounts();
  for (const page of pages) count(counts, page.injected, flagsOf(page.text, model));
  return counts;
}

/** The shipped detector with the shipped model. */
export const SHIPPED: () => InstructionDetector = () => ({ rules: true, model: shippedModel() });

export { buildTrainingSet };
