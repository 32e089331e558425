/**
 * quality: no public set labels page quality on SPEC's scale, so the score is checked on what it
 * is meant to tell apart: on the real article pages of `shared/data/extraction` (development half),
 * the article body a person marked (prose written to be read) against the rest of the same page's
 * visible text (menus, link lists, footers, cookie notices: boilerplate). Reported: the ROC AUC of
 * the score for article over boilerplate, and the mean score of each, beside the trivial baseline
 * of word count (longer is better). Pages in two halves by the second byte of the SHA-256 of their id (the data's own split used the first); nothing was tuned
 * on either (the thresholds are the papers').
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { countWords, qualityScore } from '@evidence/ingest';
import { signalsDataDir } from './data-dir.js';
import { microsecondsPer, rocAuc, table, type SignalSection } from './section.js';

const BLOCK = /<\/?(?:p|div|li|ul|ol|h[1-6]|br|tr|td|th|table|section|article|header|footer|nav|aside|form|button|option|blockquote|pre|figure|figcaption|dd|dt)\b[^>]*>/gi;

/** A page's visible text, one block per line: scripts, styles and comments out, block tags as line breaks. */
function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(BLOCK, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#0*39;|&apos;|&rsquo;/g, "'")
    .replace(/&quot;|&ldquo;|&rdquo;/g, '"')
    .replace(/&[a-z]+;|&#\d+;/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function normalised(text: string): string {
  return text.replace(/\W+/gu, ' ').trim().toLowerCase();
}

export const qualitySection: SignalSection = {
  name: 'quality',
  async run() {
    const root = join(signalsDataDir(), '../extraction');
    const truth = JSON.parse(readFileSync(join(root, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string }>;
    const samples: Array<{ half: number; text: string; article: boolean }> = [];
    for (const [id, { articleBody }] of Object.entries(truth)) {
      const html = gunzipSync(readFileSync(join(root, 'pages', `${id}.html.gz`))).toString('utf8');
      const article = normalised(articleBody);
      // Boilerplate: the page's visible lines that are not part of the article body.
      const boilerplate = visibleText(html)
        .split('\n')
        .filter((line) => {
          const words = normalised(line);
          return words !== '' && !article.includes(words);
        })
        .join('\n');
      const half = createHash('sha256').update(id).digest()[1] % 2;
      samples.push({ half, text: articleBody, article: true });
      if (countWords(boilerplate) > 0) samples.push({ half, text: boilerplate, article: false });
    }
    const scored = samples.map((sample) => ({ ...sample, quality: qualityScore(sample.text), words: countWords(sample.text) }));
    const rows: Array<Array<string | number>> = [];
    for (const half of [0, 1]) {
      const inHalf = scored.filter((sample) => sample.half === half);
      const mean = (article: boolean): number => {
        const chosen = inHalf.filter((sample) => sample.article === article);
        return chosen.reduce((sum, sample) => sum + sample.quality, 0) / Math.max(1, chosen.length);
      };
      rows.push([
        `half ${half} (${inHalf.filter((sample) => sample.article).length} pages)`,
        rocAuc(inHalf.map((sample) => ({ score: sample.words, positive: sample.article }))),
        rocAuc(inHalf.map((sample) => ({ score: sample.quality, positive: sample.article }))),
        mean(true),
        mean(false),
      ]);
    }
    const cost = microsecondsPer(scored, (sample) => qualityScore(sample.text));
    return [...table(['pages', 'AUC word count (baseline)', 'AUC quality', 'mean quality, article', 'mean quality, boilerplate'], rows), '', `Cost: ${cost.toFixed(1)} µs per page text.`];
  },
};
