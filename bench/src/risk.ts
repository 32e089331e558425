/**
 * `npm run bench:risk [-- path ...]`: precision, recall and F1 of each risk flag on labelled pages,
 * a per-category table, and the cost of the checks per passage.
 *
 * A path is either a directory in the layout of `../shared/data/injection` (`pages.jsonl` in ingest
 * format, `labels.jsonl` with `url`, `injected`, `category`) or one JSONL file whose lines carry
 * `text`, `category` and either `flags` (the flags the page should raise) or `injected`. Without
 * `flags`, the truth is instruction_like = injected and no other text flag. low_trust_source is not
 * measured (it reads host_rank only). Default path: ../shared/data/injection (from the repo root).
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { riskReport, stripInstructionLike } from '@evidence/evidence';
import { measuredFlags, scoreFlags, type LabelledPage } from './risk/score.js';
import { categoryTable, flagTable } from './risk/table.js';

const TRUSTED_HOST = { hostRank: 0.8 };
/** Time each set for at least this long. */
const MIN_TIMING_MS = 1000;

function readJsonl(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function loadPages(path: string): LabelledPage[] {
  if (statSync(path).isDirectory()) {
    const texts = new Map(readJsonl(join(path, 'pages.jsonl')).map((page) => [String(page.url), String(page.text)]));
    return readJsonl(join(path, 'labels.jsonl')).map((label) => {
      const text = texts.get(String(label.url));
      if (text === undefined) throw new Error(`no page for label ${String(label.url)}`);
      return { id: String(label.url), category: String(label.category), text, expected: measuredFlags(label) };
    });
  }
  return readJsonl(path).map((row, index) => ({
    id: String(row.id ?? row.url ?? index),
    category: String(row.category ?? 'uncategorised'),
    text: String(row.text),
    expected: measuredFlags(row),
  }));
}

/** Microseconds per passage of `work` over every page, repeated until it ran {@link MIN_TIMING_MS}. */
function microsecondsPerPassage(pages: readonly LabelledPage[], work: (text: string) => unknown): number {
  let passages = 0;
  const started = performance.now();
  do {
    for (const page of pages) work(page.text);
    passages += pages.length;
  } while (performance.now() - started < MIN_TIMING_MS);
  return ((performance.now() - started) * 1000) / passages;
}

/** Written for this repository (attack families, hidden text, role markers, hard clean pages): always here. */
const IN_REPOSITORY_SET = 'bench/data/risk-families.jsonl';
const JUDGED_SET = process.env.RISK_DATA || '../shared/data/injection';

function defaultPaths(): string[] {
  if (existsSync(resolve(process.cwd(), JUDGED_SET))) return [JUDGED_SET];
  // The labelled injection split is not part of the repository: measure the in-repository set alone.
  console.error(`bench:risk: ${resolve(process.cwd(), JUDGED_SET)} not found (the labelled injection split is not in the repository; RISK_DATA points at one): measuring ${IN_REPOSITORY_SET} only`);
  return [IN_REPOSITORY_SET];
}

const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : defaultPaths();
const summaries: Array<Record<string, unknown>> = [];

for (const raw of paths) {
  const path = resolve(process.cwd(), raw);
  if (!existsSync(path)) throw new Error(`bench:risk: ${path} does not exist`);
  const pages = loadPages(path);
  const results = pages.map((page) => ({ page, flags: riskReport(page.text, TRUSTED_HOST).flags }));
  const scores = scoreFlags(results);
  const meanChars = pages.reduce((sum, page) => sum + page.text.length, 0) / Math.max(1, pages.length);
  const reportUs = microsecondsPerPassage(pages, (text) => riskReport(text, TRUSTED_HOST));
  const stripUs = microsecondsPerPassage(pages, (text) => stripInstructionLike(text));
  const hardClean = results.filter(({ page }) => page.category.startsWith('clean_hard'));
  const hardCleanFlagged = hardClean.filter(({ flags }) => flags.includes('instruction_like')).length;

  console.log(`\n## bench:risk on ${raw} (${pages.length} pages, mean ${meanChars.toFixed(0)} characters)\n`);
  console.log(flagTable(scores.flags));
  console.log('');
  console.log(categoryTable(scores.categories));
  console.log(
    `\nhard clean pages flagged instruction_like: ${hardCleanFlagged} of ${hardClean.length}` +
      (hardClean.length > 0 ? ` (${((100 * hardCleanFlagged) / hardClean.length).toFixed(1)}%)` : ''),
  );
  console.log(
    `cost: riskReport ${reportUs.toFixed(1)} us per passage (${(reportUs / (meanChars / 1000)).toFixed(1)} us per 1,000 characters), ` +
      `${Math.round(1e6 / reportUs).toLocaleString('en')} passages/s on one thread; stripInstructionLike ${stripUs.toFixed(1)} us per passage`,
  );
  summaries.push({ path: raw, pages: pages.length, meanChars, ...scores, hardClean: { pages: hardClean.length, flagged: hardCleanFlagged }, reportUs, stripUs });
}

const outFile = resolve(process.cwd(), 'bench/out/risk.json');
mkdirSync(resolve(outFile, '..'), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(summaries, null, 2)}\n`);
console.log(`\nwrote ${outFile}`);
