/**
 * The claim relation's figures on returned gold abstracts (SciFact README): per relation, how
 * often an asserted one is right (precision) and how many were asserted; the decided share
 * (supports or contradicts; qualifies and unresolved are undecided); Cohen's kappa of the decided
 * items against the gold label.
 */
import type { GoldLabel } from './scifact.js';

export interface RelationFigures {
  gold: number;
  supports: { asserted: number; right: number };
  contradicts: { asserted: number; right: number };
  decided: number;
  kappa: number | null;
}

export function relationFigures(judged: Array<{ label: GoldLabel; relation: string }>): RelationFigures {
  const supports = { asserted: 0, right: 0 };
  const contradicts = { asserted: 0, right: 0 };
  // Confusion of the decided items: [predicted supports, predicted contradicts] x [gold SUPPORT, gold CONTRADICT].
  const table = [
    [0, 0],
    [0, 0],
  ];
  for (const { label, relation } of judged) {
    const gold = label === 'SUPPORT' ? 0 : 1;
    if (relation === 'supports') {
      supports.asserted++;
      if (gold === 0) supports.right++;
      table[0][gold]++;
    } else if (relation === 'contradicts') {
      contradicts.asserted++;
      if (gold === 1) contradicts.right++;
      table[1][gold]++;
    }
  }
  const decided = supports.asserted + contradicts.asserted;
  return { gold: judged.length, supports, contradicts, decided, kappa: cohenKappa(table) };
}

/** Cohen's kappa of a 2x2 table (rows: predicted, columns: gold); null when nothing was decided. */
export function cohenKappa(table: number[][]): number | null {
  const total = table[0][0] + table[0][1] + table[1][0] + table[1][1];
  if (total === 0) return null;
  const observed = (table[0][0] + table[1][1]) / total;
  const expected = ((table[0][0] + table[0][1]) * (table[0][0] + table[1][0]) + (table[1][0] + table[1][1]) * (table[0][1] + table[1][1])) / (total * total);
  return expected === 1 ? 0 : (observed - expected) / (1 - expected);
}

export function ratio(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : (part / whole).toFixed(2);
}
