/** One section of `npm run bench:signals`: a signal's figures beside its baseline, as Markdown lines. */
export interface SignalSection {
  name: string;
  run(): Promise<string[]>;
}

export function percent(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '-';
}

export function table(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string[] {
  const cell = (value: string | number): string => (typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(3)) : value);
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)];
}

/** Microseconds per call of `work` over `items` (after one warm-up pass). */
export function microsecondsPer<T>(items: readonly T[], work: (item: T) => unknown): number {
  for (const item of items) work(item);
  const started = process.hrtime.bigint();
  for (const item of items) work(item);
  return Number(process.hrtime.bigint() - started) / 1000 / Math.max(1, items.length);
}

/** Area under the ROC curve of `scores` for `positive` against the rest (ties count half). */
export function rocAuc(scored: ReadonlyArray<{ score: number; positive: boolean }>): number {
  const positives = scored.filter((item) => item.positive);
  const negatives = scored.filter((item) => !item.positive);
  if (positives.length === 0 || negatives.length === 0) return Number.NaN;
  let wins = 0;
  for (const positive of positives) {
    for (const negative of negatives) {
      if (positive.score > negative.score) wins += 1;
      else if (positive.score === negative.score) wins += 0.5;
    }
  }
  return wins / (positives.length * negatives.length);
}

export interface BinaryCounts {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export function precisionRecallF1(counts: BinaryCounts): { precision: number; recall: number; f1: number } {
  const precision = counts.truePositives / Math.max(1, counts.truePositives + counts.falsePositives);
  const recall = counts.truePositives / Math.max(1, counts.truePositives + counts.falseNegatives);
  return { precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
}
