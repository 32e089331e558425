/**
 * content_type on genre-labelled web texts (SIGNALS_DATA/content_type/records.jsonl; no URLs or
 * HTML, so only the text model is measured): macro-F1 over the nine types the data covers, per
 * half: `tune` (texts whose id's SHA-256 has an even second byte: the committed model was
 * trained on it, so that figure is in-sample) and `check` (never trained or tuned on). Also the
 * coarse grouping the data's README suggests (article, reference and document as one
 * informational type). Beside it: always the tune half's majority type. Then how well the
 * model's probability (its confidence) ranks: accuracy per band.
 */
import { contentTypeFromText } from '@evidence/ingest';
import { halfOf, macroF1, readJsonl, type Half } from './halves.js';
import { percent, table, type SignalSection } from './section.js';

interface LabelledText {
  id: string;
  text: string;
  content_type: string;
}

const INFORMATIONAL = new Set(['article', 'reference', 'document']);
const coarse = (type: string): string => (INFORMATIONAL.has(type) ? 'informational' : type);

export const contentTypeSection: SignalSection = {
  name: 'content_type',
  async run() {
    const texts = readJsonl<LabelledText>('content_type/records.jsonl');
    if (texts === undefined) return ['skipped: no content_type/records.jsonl'];
    const labels = [...new Set(texts.map((text) => text.content_type))].sort();
    const coarseLabels = [...new Set(labels.map(coarse))].sort();
    const counts = new Map<string, number>();
    for (const text of texts) if (halfOf(text.id, 1) === 'tune') counts.set(text.content_type, (counts.get(text.content_type) ?? 0) + 1);
    const majority = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    const rows: Array<Array<string | number>> = [];
    const bands = [0, 0.4, 0.6, 0.8, 1.01];
    const bandCounts = bands.slice(1).map(() => ({ texts: 0, right: 0 }));
    let elapsed = 0;
    let perLabelCheck: Record<string, number> = {};
    for (const half of ['tune', 'check'] as const satisfies readonly Half[]) {
      const scored = texts.filter((text) => halfOf(text.id, 1) === half);
      const pairs: Array<[string, string]> = [];
      for (const text of scored) {
        const started = performance.now();
        const answer = contentTypeFromText('', text.text);
        elapsed += performance.now() - started;
        pairs.push([text.content_type, answer.type]);
        if (half === 'check') {
          const band = bands.findIndex((edge, index) => answer.probability >= edge && answer.probability < bands[index + 1]);
          bandCounts[band].texts++;
          if (answer.type === text.content_type) bandCounts[band].right++;
        }
      }
      const fine = macroF1(pairs, labels);
      if (half === 'check') perLabelCheck = fine.perLabel;
      const grouped = macroF1(pairs.map(([truth, predicted]) => [coarse(truth), coarse(predicted)]), coarseLabels);
      const always = macroF1(scored.map((text) => [text.content_type, majority]), labels);
      const alwaysGrouped = macroF1(scored.map((text) => [coarse(text.content_type), coarse(majority)]), coarseLabels);
      rows.push([`ours (text model)${half === 'tune' ? ', in-sample' : ''}`, half, scored.length, percent(fine.macro), percent(grouped.macro)]);
      rows.push([`baseline: always ${majority}`, half, scored.length, percent(always.macro), percent(alwaysGrouped.macro)]);
    }
    return [
      ...table(['classifier', 'half', 'texts', 'macro-F1 (9 types)', 'macro-F1 (coarse, 7)'], rows),
      '',
      `Check half, F1 per type: ${labels.map((label) => `${label} ${percent(perLabelCheck[label])}`).join(', ')}.`,
      '',
      'Check half: accuracy per band of the model\'s probability (the confidence the signal reports)',
      '',
      ...table(['probability', 'texts', 'right'], bandCounts.map((band, index) => [`${bands[index].toFixed(2)}-${Math.min(1, bands[index + 1]).toFixed(2)}`, band.texts, percent(band.right / Math.max(1, band.texts))])),
      '',
      `Cost: ${(elapsed / texts.length).toFixed(2)} ms per text (median text 1,950 characters).`,
    ];
  },
};
