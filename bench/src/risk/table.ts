/** Markdown tables of bench:risk. */
import type { CategoryScore, FlagScore } from './score.js';

const f3 = (value: number) => value.toFixed(3);

export function flagTable(scores: readonly FlagScore[]): string {
  const lines = ['| flag | TP | FP | FN | precision | recall | F1 |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const score of scores) {
    const measured = score.truePositives + score.falsePositives + score.falseNegatives > 0;
    lines.push(
      `| ${score.flag} | ${score.truePositives} | ${score.falsePositives} | ${score.falseNegatives} | ` +
        (measured ? `${f3(score.precision)} | ${f3(score.recall)} | ${f3(score.f1)} |` : 'n/a | n/a | n/a |'),
    );
  }
  return lines.join('\n');
}

/** Per category: how many pages raised instruction_like (recall for attacks, false alarms for clean pages). */
export function categoryTable(scores: readonly CategoryScore[]): string {
  const lines = ['| category | pages | should flag | flagged instruction_like | rate |', '|---|---:|---:|---:|---:|'];
  for (const score of scores) lines.push(`| ${score.category} | ${score.pages} | ${score.positives} | ${score.flagged} | ${f3(score.rate)} |`);
  return lines.join('\n');
}
