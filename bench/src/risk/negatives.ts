/**
 * Real text written for people, the instruction_like model's extra negatives beside the pool's
 * clean families (none of it addresses an AI system). Two sets:
 *
 * `shipped` (what the committed model was trained with, `npm run train:risk`'s default): the
 * passages of the 22-page Dolma sample kept with the ingest tests
 * (packages/ingest/test/data/sample-0000.warc.gz, all of its pages; RISK_TRAIN_CRAWL overrides).
 *
 * `broad` (RISK_TRAIN_NEGATIVES=broad; measured by `npm run bench:risk`, not shipped: see the README):
 *
 * - real crawled pages (RISK_TRAIN_CRAWL, comma-separated WARC files; default the Dolma sample and
 *   the articles crawl of ../shared/data/crawl): the passages of the even-numbered pages of each
 *   file, as ingest cuts them. The odd-numbered pages are never trained on: `npm run bench:risk`
 *   reports its real-page false-alarm rate on them (see {@link splitPages}).
 * - web texts of many genres (RISK_TRAIN_GENRES, default ../shared/data/signals/content_type/records.jsonl:
 *   how-tos, FAQs, job ads, reviews, legal text, forum posts; `text` of each line);
 * - web passages (RISK_TRAIN_PASSAGES, default ../shared/data/ir/msmarco/corpus.jsonl: MS MARCO's
 *   Bing passages; `text` of each line).
 *
 * The hidden-text set (../shared/data/hidden-text) is not used: its pages carry hidden attacks.
 * A file that is missing is left out and said on stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { crawlPassages, type CrawlPassage } from './crawl-passages.js';

export const SHIPPED_TRAIN_CRAWL = 'packages/ingest/test/data/sample-0000.warc.gz';
export const BROAD_TRAIN_CRAWLS = '../shared/data/crawl/sample-0000.warc.gz,../shared/data/crawl/articles-dev.warc.gz';
export type NegativeSet = 'shipped' | 'broad';
const DEFAULT_GENRES = '../shared/data/signals/content_type/records.jsonl';
const DEFAULT_PASSAGES = '../shared/data/ir/msmarco/corpus.jsonl';

/** The passages of a crawl's even-numbered pages (in file order: trained on) and of its odd-numbered ones (held out). */
export function splitPages(passages: readonly CrawlPassage[]): { trained: CrawlPassage[]; heldOut: CrawlPassage[] } {
  const order = new Map<string, number>();
  for (const passage of passages) if (!order.has(passage.url)) order.set(passage.url, order.size);
  const trained = passages.filter((passage) => order.get(passage.url)! % 2 === 0);
  const heldOut = passages.filter((passage) => order.get(passage.url)! % 2 === 1);
  return { trained, heldOut };
}

/** The crawl files of a set (RISK_TRAIN_CRAWL overrides; resolved from the working directory). */
export function trainCrawlFiles(set: NegativeSet): string[] {
  const files = process.env.RISK_TRAIN_CRAWL || (set === 'shipped' ? SHIPPED_TRAIN_CRAWL : BROAD_TRAIN_CRAWLS);
  return files.split(',').map((file) => resolve(process.cwd(), file.trim())).filter(Boolean);
}

function textsOf(path: string, what: string): string[] {
  if (!existsSync(path)) {
    console.error(`risk: ${path} not found: training without ${what}`);
    return [];
  }
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => String((JSON.parse(line) as { text?: unknown }).text ?? ''));
}

export interface ExtraNegatives {
  texts: string[];
  /** What went in, for the weights file's header and the bench's log. */
  sources: Array<{ path: string; texts: number }>;
}

/** Every extra negative text of a set, in a fixed order (so training stays deterministic). */
export async function extraNegatives(set: NegativeSet): Promise<ExtraNegatives> {
  const negatives: ExtraNegatives = { texts: [], sources: [] };
  const add = (path: string, texts: string[]) => {
    negatives.texts.push(...texts);
    negatives.sources.push({ path, texts: texts.length });
  };
  for (const file of trainCrawlFiles(set)) {
    if (!existsSync(file)) {
      console.error(`risk: ${file} not found: training without its pages`);
      continue;
    }
    const passages = await crawlPassages(file);
    if (set === 'shipped') add(file, passages.map((passage) => passage.text));
    else add(`${file} (even-numbered pages)`, splitPages(passages).trained.map((passage) => passage.text));
  }
  if (set === 'shipped') return negatives;
  const genres = resolve(process.cwd(), process.env.RISK_TRAIN_GENRES || DEFAULT_GENRES);
  add(genres, textsOf(genres, 'genre-labelled web texts'));
  const passages = resolve(process.cwd(), process.env.RISK_TRAIN_PASSAGES || DEFAULT_PASSAGES);
  add(passages, textsOf(passages, 'web passages'));
  return negatives;
}
