/**
 * `npm run bench:risk [-- path ...]`: precision, recall and F1 of each risk flag on labelled pages,
 * a per-category table, and the cost of the checks per passage.
 *
 * A path is either a directory in the layout of `../shared/data/injection` (`pages.jsonl` in ingest
 * format, `labels.jsonl` with `url`, `injected`, `category`) or one JSONL file whose lines carry
 * `text`, `category` and either `flags` (the flags the page should raise) or `injected`. Without
 * `flags`, the truth is instruction_like = injected and no other text flag. low_trust_source is not
 * measured (it reads host_rank only). Default path: ../shared/data/injection (from the repo root).
 *
 * Then instruction_like detector against detector in the same run (bench/src/risk/detectors.ts):
 * the rules alone, the learned model alone and both, by leave-one-family-out over the training
 * pool (RISK_TRAIN_DATA, default ../shared/data/injection-train/pool.jsonl; RISK_LOFO=0 skips it),
 * on the development split (its near-copies in the pool left out of training), on the passages of
 * real crawled pages (RISK_CRAWL, default ../shared/data/crawl/articles-dev.warc.gz, comma-separated
 * for several) and the cost per passage of each.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { instructionFindings, riskReport, shippedModel, stripInstructionLike } from '@evidence/evidence';
import { crawlPassages } from './risk/crawl-passages.js';
import { count, countPages, DETECTOR_NAMES, emptyCounts, flagsOf, leaveOneFamilyOut, readDevSplit, readIds, type Counts, type FamilyResult } from './risk/detectors.js';
import { buildTrainingSet, readPool, trainModel } from './risk/train.js';
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

// ------------------------------------------------------------------ instruction_like: rules, model, both

const f3 = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
const share = (part: number, whole: number) => (whole === 0 ? NaN : part / whole);

function detectorTable(counts: Counts, what: { positives: string; negatives: string }): string {
  const lines = [
    `| detector | ${what.positives} flagged | recall | ${what.negatives} flagged | false-alarm rate | precision |`,
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const name of DETECTOR_NAMES) {
    const { positives, negatives } = counts.flagged[name];
    lines.push(
      `| ${name} | ${positives} of ${counts.positives} | ${f3(share(positives, counts.positives))} | ${negatives} of ${counts.negatives} | ` +
        `${f3(share(negatives, counts.negatives))} | ${f3(share(positives, positives + negatives))} |`,
    );
  }
  return lines.join('\n');
}

const POOL = resolve(process.cwd(), process.env.RISK_TRAIN_DATA || '../shared/data/injection-train/pool.jsonl');
const DEV = resolve(process.cwd(), JUDGED_SET);
const CRAWLS = (process.env.RISK_CRAWL || '../shared/data/crawl/articles-dev.warc.gz').split(',').map((file) => resolve(process.cwd(), file.trim()));
const TRAIN_CRAWL = resolve(process.cwd(), process.env.RISK_TRAIN_CRAWL || 'packages/ingest/test/data/sample-0000.warc.gz');
const instruction: Record<string, unknown> = {};

if (existsSync(POOL)) {
  const started = performance.now();
  const records = readPool(POOL);
  const extra = existsSync(TRAIN_CRAWL) ? (await crawlPassages(TRAIN_CRAWL)).map((passage) => passage.text) : [];
  const set = buildTrainingSet(records, extra);
  console.log(`\n## instruction_like: rules only, model only, rules + model\n`);
  console.log(`training pool ${POOL}: ${records.length} records; ${set.examples.length} sentence examples, ${set.bags.length} multi-sentence attacks (featurised in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

  if (process.env.RISK_LOFO !== '0') {
    console.log('\n### Leave-one-family-out over the pool (each family scored by a model trained without it; nothing tuned on these)\n');
    console.log(`| family | kind | records | ${DETECTOR_NAMES.join(' | ')} |`);
    console.log(`|---|---|---:|${DETECTOR_NAMES.map(() => '---:|').join('')}`);
    const results = leaveOneFamilyOut(records, set, ({ family, label, counts }: FamilyResult) => {
      const total = label === 'injection' ? counts.positives : counts.negatives;
      const cell = (name: (typeof DETECTOR_NAMES)[number]) => {
        const flagged = counts.flagged[name][label === 'injection' ? 'positives' : 'negatives'];
        return `${flagged} (${f3(share(flagged, total))})`;
      };
      console.log(`| ${family} | ${label === 'injection' ? 'attack: recall' : 'clean: false alarms'} | ${total} | ${DETECTOR_NAMES.map(cell).join(' | ')} |`);
    });
    const pooled = emptyCounts();
    for (const { counts } of results) {
      pooled.positives += counts.positives;
      pooled.negatives += counts.negatives;
      for (const name of DETECTOR_NAMES) {
        pooled.flagged[name].positives += counts.flagged[name].positives;
        pooled.flagged[name].negatives += counts.flagged[name].negatives;
      }
    }
    const english = emptyCounts();
    for (const { counts, family } of results) {
      if (family === 'cyberseceval' || family === 'prompts') continue;
      english.positives += counts.positives;
      english.negatives += counts.negatives;
      for (const name of DETECTOR_NAMES) {
        english.flagged[name].positives += counts.flagged[name].positives;
        english.flagged[name].negatives += counts.flagged[name].negatives;
      }
    }
    const macro = (name: (typeof DETECTOR_NAMES)[number]) => {
      const attacks = results.filter((result) => result.label === 'injection');
      return attacks.reduce((sum, result) => sum + share(result.counts.flagged[name].positives, result.counts.positives), 0) / attacks.length;
    };
    console.log('\nAll families pooled (every record judged by the model that never saw its family):\n');
    console.log(detectorTable(pooled, { positives: 'attacks', negatives: 'clean texts' }));
    console.log(`\nmean recall over attack families: ${DETECTOR_NAMES.map((name) => `${name} ${f3(macro(name))}`).join(', ')}`);
    console.log('\nWithout cyberseceval (machine-translated, whole user requests) and prompts/* (benign role prompts):\n');
    console.log(detectorTable(english, { positives: 'attacks', negatives: 'clean texts' }));
    instruction.lofo = { families: results, pooled, withoutCyberSecEvalAndPrompts: english };
  }

  if (existsSync(join(DEV, 'labels.jsonl'))) {
    const overlap = readIds(resolve(POOL, '..', 'dev_overlap_ids.txt'));
    const devModel = trainModel(set, (index) => !overlap.has(records[index].id));
    const pages = readDevSplit(DEV);
    const honest = countPages(pages, devModel);
    const shipped = countPages(pages, shippedModel());
    console.log(`\n### Development split ${JUDGED_SET} (${pages.length} pages), model trained without the pool's ${overlap.size} near-copies of its attacks\n`);
    console.log(detectorTable(honest, { positives: 'attacked pages', negatives: 'clean pages' }));
    console.log('\nThe same pages with the shipped model (trained on those near-copies too, so its recall here is not a held-out figure):\n');
    console.log(detectorTable(shipped, { positives: 'attacked pages', negatives: 'clean pages' }));
    instruction.dev = { withoutOverlap: honest, shipped };
  }

  const realPages: Record<string, unknown> = {};
  for (const file of CRAWLS) {
    if (!existsSync(file)) {
      console.error(`bench:risk: ${file} not found: no real-page false-alarm rate for it`);
      continue;
    }
    const passages = await crawlPassages(file);
    const counts = emptyCounts();
    const examples: string[] = [];
    for (const passage of passages) {
      const flags = flagsOf(passage.text, shippedModel());
      count(counts, false, flags);
      if (flags['rules + model'] && examples.length < 12) {
        for (const finding of instructionFindings(passage.text)) examples.push(`- "${passage.text.slice(finding.start, finding.end).slice(0, 100)}": ${finding.reason.slice(0, 120)}`);
      }
    }
    const pages = new Set(passages.map((passage) => passage.url)).size;
    const rulesUs = microsecondsPerPassage(passages.map((passage) => ({ id: '', category: '', expected: [], text: passage.text })), (text) => instructionFindings(text, undefined, { rules: true, model: null }));
    const bothUs = microsecondsPerPassage(passages.map((passage) => ({ id: '', category: '', expected: [], text: passage.text })), (text) => instructionFindings(text));
    const name = file.split('/').pop();
    const trainedOn = name === TRAIN_CRAWL.split('/').pop();
    console.log(
      `\n### Real crawled pages: ${name} (${pages} pages, ${passages.length} passages as ingest cuts them; every flag is a false alarm)` +
        (trainedOn ? ' - its passages are training negatives of the model (RISK_TRAIN_CRAWL): not a held-out figure' : '') +
        '\n',
    );
    console.log(detectorTable(counts, { positives: 'attacks', negatives: 'passages' }));
    console.log(examples.length > 0 ? `\nflagged by rules + model:\n${examples.join('\n')}` : '\nno passage flagged by rules + model');
    console.log(`\ncost of instruction_like on these passages: rules only ${rulesUs.toFixed(1)} us per passage, rules + model ${bothUs.toFixed(1)} us per passage`);
    realPages[name ?? file] = { pages, passages: passages.length, counts, rulesUs, bothUs, trainedOn };
  }
  instruction.realPages = realPages;
} else {
  console.error(`bench:risk: ${POOL} not found (RISK_TRAIN_DATA names the injection-train pool): no leave-one-family-out figures`);
}
summaries.push({ instruction_like: instruction });

const outFile = resolve(process.cwd(), 'bench/out/risk.json');
mkdirSync(resolve(outFile, '..'), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(summaries, null, 2)}\n`);
console.log(`\nwrote ${outFile}`);
