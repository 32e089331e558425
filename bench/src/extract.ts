/**
 * `npm run bench:extract`: main-text extraction and hidden text on real pages, each beside its
 * peers or baseline in the same run (README, "Ingest from crawl files").
 *
 * 1. Main text on the 91 development pages of the article-extraction benchmark: ours,
 *    Readability.js alone and trafilatura (PyPI, installed on first use into a venv under
 *    bench/out/; the column is skipped, with the reason, when it cannot be) by the benchmark's
 *    metric, on the even-indexed pages (tuned on), the odd ones (not tuned on) and all, with
 *    pages/s; the pages where we lose most to the best peer; then the service end to end (the
 *    crawl WARC of the same pages ingested, passages read back and joined).
 * 2. Hidden text on the hidden-text set: attacked pages flagged, twins and furniture pages
 *    flagged, payloads leaked into passages, recall per technique (the rule has no parameter per
 *    technique: leave-one-technique-out), beside the baseline "any hidden prose flags the page".
 * 3. Real crawled pages: share of pages and passages carrying hidden_text.
 *
 * Data: SHARED_DATA (default ../shared/data from the repository root). Output: stdout and
 * bench/out/extract.md.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureCrawlFlags, measureHiddenSet, type Rate } from './extract/hidden-text.js';
import { measureMainText, measureService, type SystemRow } from './extract/main-text.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED = resolve(process.env.SHARED_DATA ?? join(ROOT, '..', 'shared', 'data'));
const OUT = join(ROOT, 'bench', 'out');
const TRAFILATURA_SCRIPT = join(ROOT, 'bench', 'src', 'extract', 'trafilatura_extract.py');

const lines: string[] = [];
const say = (line = ''): void => {
  console.log(line);
  lines.push(line);
};
const f3 = (value: number): string => value.toFixed(3);
const share = ({ hit, of }: Rate): string => `${hit}/${of} (${of === 0 ? '-' : `${Math.round((100 * hit) / of)}%`})`;

function systemRow(row: SystemRow): string {
  const cell = (score: SystemRow['even']): string => `${f3(score.precision)} / ${f3(score.recall)} / **${f3(score.f1)}**`;
  return `| ${row.name} | ${cell(row.even)} | ${cell(row.odd)} | ${cell(row.all)} | ${row.pagesPerSecond === undefined ? '-' : row.pagesPerSecond.toFixed(1)} |`;
}

async function main(): Promise<void> {
  const extraction = join(SHARED, 'extraction');
  const hidden = join(SHARED, 'hidden-text');
  const crawl = join(SHARED, 'crawl');
  for (const directory of [extraction, hidden, crawl]) {
    if (!existsSync(directory)) {
      console.error(`bench:extract needs ${directory}; set SHARED_DATA to the folder holding extraction/, hidden-text/ and crawl/. Nothing was measured.`);
      process.exit(2);
    }
  }
  mkdirSync(OUT, { recursive: true });

  say('## Main text: article-extraction benchmark, development half (91 pages)');
  say();
  say('Precision / recall / F1 by the benchmark metric (word 4-shingles). Even-indexed pages: tuned on; odd: not tuned on.');
  say();
  const main = measureMainText(extraction, OUT, TRAFILATURA_SCRIPT, (line) => console.error(line));
  say('| system | even (46, tuned) | odd (45, held out) | all 91 | pages/s |');
  say('|---|---|---|---|---:|');
  for (const row of main.rows) say(systemRow(row));
  const service = await measureService(extraction, join(crawl, 'articles-dev.warc.gz'));
  if ('skipped' in service) say(`| service end to end | skipped: ${service.skipped} | | | |`);
  else say(`${systemRow(service.row)} (ingest, ${service.admitted}/${service.pages} pages admitted)`);
  for (const reason of main.skipped) say(`\nskipped: ${reason}`);
  say();
  say(`Pages where ours loses most to ${main.losses[0]?.peerName ?? 'the peer'} (page F1, ours vs peer):`);
  say();
  for (const loss of main.losses) say(`- ${loss.url}: ${f3(loss.ours)} vs ${f3(loss.peer)}`);

  say();
  say('## Hidden text: hidden-text set (40 attacked, 40 untouched twins, 10 furniture pages)');
  say();
  const set = await measureHiddenSet(hidden);
  say('| | attacked flagged | twins flagged | furniture flagged | payloads leaked into passages |');
  say('|---|---:|---:|---:|---:|');
  say(`| ours | ${share(set.attacked)} | ${share(set.clean)} | ${share(set.furniture)} | ${share(set.leaks)} |`);
  say(`| baseline: any hidden prose (6+ words) flags | ${share(set.baseline.attacked)} | ${share(set.baseline.clean)} | ${share(set.baseline.furniture)} | |`);
  say();
  say('Recall per technique (no parameter per technique, so each row is what an unseen technique of its kind gets); the two parts of the rule alone, and the baseline:');
  say();
  say('| technique | flagged | rule 1 alone (addresses an AI) | rule 2 alone (prose hidden inside the main text) | baseline |');
  say('|---|---:|---:|---:|---:|');
  for (const [technique, rates] of set.byTechnique) say(`| ${technique} | ${share(rates.full)} | ${share(rates.instruction)} | ${share(rates.prose)} | ${share(rates.baseline)} |`);

  say();
  say('## Hidden text on real crawled pages (none attacked)');
  say();
  say('| crawl file | pages | pages with hidden_text | passages | passages with hidden_text | hidden pieces found | baseline: pages with hidden prose | ms/page (extract + judge) |');
  say('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const name of ['sample-0000.warc.gz', 'articles-dev.warc.gz']) {
    const file = join(crawl, name);
    if (!existsSync(file)) continue;
    const result = await measureCrawlFlags(file);
    const percent = (part: number, whole: number): string => `${part} (${whole === 0 ? '-' : ((100 * part) / whole).toFixed(1)}%)`;
    say(`| ${name} | ${result.pages} | ${percent(result.flaggedPages, result.pages)} | ${result.passages} | ${percent(result.hiddenPassages, result.passages)} | ${result.hiddenPieces} | ${percent(result.baselinePages, result.pages)} | ${result.msPerPage.toFixed(1)} |`);
  }
  writeFileSync(join(OUT, 'extract.md'), lines.join('\n') + '\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
