/** Precision, recall and F1 per risk flag and per category, from pages with the flags they should raise. */
import type { RiskFlag } from '@evidence/evidence';

/** The flags measured: low_trust_source reads host_rank, not text. */
export const MEASURED_FLAGS = ['instruction_like', 'hidden_text', 'role_markers'] as const;
export type MeasuredFlag = (typeof MEASURED_FLAGS)[number];

export interface LabelledPage {
  id: string;
  category: string;
  text: string;
  expected: MeasuredFlag[];
}

export interface FlagScore {
  flag: MeasuredFlag;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface CategoryScore {
  category: string;
  pages: number;
  /** Pages that should raise instruction_like. */
  positives: number;
  /** Pages that did. */
  flagged: number;
  /** flagged / pages: recall for a category of attacks, the false-alarm rate for a clean one. */
  rate: number;
}

/** The flags a label says a page should raise: its `flags` list, else instruction_like when `injected`. */
export function measuredFlags(label: Record<string, unknown>): MeasuredFlag[] {
  if (Array.isArray(label.flags)) return MEASURED_FLAGS.filter((flag) => (label.flags as unknown[]).includes(flag));
  return label.injected === true ? ['instruction_like'] : [];
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? 0 : numerator / denominator);

export function scoreFlags(results: ReadonlyArray<{ page: LabelledPage; flags: readonly RiskFlag[] }>): { flags: FlagScore[]; categories: CategoryScore[] } {
  const flags = MEASURED_FLAGS.map((flag): FlagScore => {
    let truePositives = 0;
    let falsePositives = 0;
    let falseNegatives = 0;
    for (const { page, flags: raised } of results) {
      const expected = page.expected.includes(flag);
      const got = raised.includes(flag);
      if (expected && got) truePositives++;
      else if (got) falsePositives++;
      else if (expected) falseNegatives++;
    }
    const precision = ratio(truePositives, truePositives + falsePositives);
    const recall = ratio(truePositives, truePositives + falseNegatives);
    return { flag, truePositives, falsePositives, falseNegatives, precision, recall, f1: ratio(2 * precision * recall, precision + recall) };
  });
  const byCategory = new Map<string, CategoryScore>();
  for (const { page, flags: raised } of results) {
    const score = byCategory.get(page.category) ?? { category: page.category, pages: 0, positives: 0, flagged: 0, rate: 0 };
    score.pages++;
    if (page.expected.includes('instruction_like')) score.positives++;
    if (raised.includes('instruction_like')) score.flagged++;
    score.rate = score.flagged / score.pages;
    byCategory.set(page.category, score);
  }
  const categories = [...byCategory.values()].sort((left, right) => left.category.localeCompare(right.category));
  return { flags, categories };
}
