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
 * the rules alone, and the rules with each model variant (the shipped configuration; broad
 * negatives, bench/src/risk/negatives.ts; broad negatives plus potion-base-2M sentence vectors,
 * bench/src/risk/vectors.ts, RISK_VECTORS=none leaves it out), by leave-one-family-out over the
 * training pool (RISK_TRAIN_DATA, default ../shared/data/injection-train/pool.jsonl; RISK_LOFO=0
 * skips it), on the development split (its near-copies in the pool left out of training), on the
 * passages of real crawled pages split into odd- and even-numbered pages (RISK_CRAWL, default the
 * Dolma sample and the articles crawl of ../shared/data/crawl, comma-separated; the broad variants
 * train on the even-numbered pages only) and the cost per passage.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { instructionFindings, riskReport, shippedModel, stripInstructionLike } from '@evidence/evidence';
import { crawlPassages } from './risk/crawl-passages.js';
import { count, countPages, detectorNames, emptyCounts, flagsOf, leaveOneFamilyOut, readDevSplit, readIds, trainVariant, type Counts, type FamilyResult, type ModelVariant } from './risk/detectors.js';
import { extraNegatives, splitPages, trainCrawlFiles } from './risk/negatives.js';
import { buildTrainingSet, readPool } from './risk/train.js';
import { staticSentenceVectors } from './risk/vectors.js';
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

// ------------------------------------------------------------------ instruction_like: rules, model variants

const f3 = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
const share = (part: number, whole: number) => (whole === 0 ? NaN : part / whole);

function detectorTable(counts: Counts, what: { positives: string; negatives: string }): string {
  const lines = [
    `| detector | ${what.positives} flagged | recall | ${what.negatives} flagged | false-alarm rate | precision |`,
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const name of Object.keys(counts.flagged)) {
    const { positives, negatives } = counts.flagged[name];
    lines.push(
      `| ${name} | ${positives} of ${counts.positives} | ${f3(share(positives, counts.positives))} | ${negatives} of ${counts.negatives} | ` +
        `${f3(share(negatives, counts.negatives))} | ${f3(share(positives, positives + negatives))} |`,
    );
  }
  return lines.join('\n');
}

function addCounts(into: Counts, from: Counts): void {
  into.positives += from.positives;
  into.negatives += from.negatives;
  for (const name of Object.keys(into.flagged)) {
    into.flagged[name].positives += from.flagged[name].positives;
    into.flagged[name].negatives += from.flagged[name].negatives;
  }
}

const POOL = resolve(process.cwd(), process.env.RISK_TRAIN_DATA || '../shared/data/injection-train/pool.jsonl');
const DEV = resolve(process.cwd(), JUDGED_SET);
const CRAWLS = (process.env.RISK_CRAWL || '../shared/data/crawl/sample-0000.warc.gz,../shared/data/crawl/articles-dev.warc.gz').split(',').map((file) => resolve(process.cwd(), file.trim()));
const instruction: Record<string, unknown> = {};

if (existsSync(POOL)) {
  const started = performance.now();
  const records = readPool(POOL);
  const shippedNegatives = await extraNegatives('shipped');
  const broadNegatives = await extraNegatives('broad');
  const vectors = process.env.RISK_VECTORS === 'none' ? null : staticSentenceVectors();
  // The shipped configuration first (the committed weights are trained so), then the alternatives measured beside it.
  const variants: ModelVariant[] = [
    { name: 'model', set: buildTrainingSet(records, shippedNegatives.texts) },
    { name: 'model, broad negatives', set: buildTrainingSet(records, broadNegatives.texts) },
  ];
  if (vectors) {
    variants.push({
      name: `model, broad negatives + ${vectors.name} vectors`,
      set: buildTrainingSet(records, broadNegatives.texts, undefined, vectors.vectorOf, vectors.dimensions),
      vectorOf: vectors.vectorOf,
    });
  }
  const names = detectorNames(variants);
  console.log(`\n## instruction_like: rules only, and rules + each model variant (model at p >= 0.99)\n`);
  console.log(`training pool ${POOL}: ${records.length} records`);
  for (const variant of variants) console.log(`- ${variant.name}: ${variant.set.examples.length} sentence examples, ${variant.set.bags.length} multi-sentence attacks${variant.set.dimensions > 0 ? `, ${variant.set.dimensions}-dimension sentence vectors` : ''}`);
  console.log(`extra negatives: shipped ${shippedNegatives.sources.map((source) => `${source.texts} texts of ${source.path}`).join(', ')}; broad ${broadNegatives.sources.map((source) => `${source.texts} texts of ${source.path}`).join(', ')}`);
  console.log(`(featurised in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

  if (process.env.RISK_LOFO !== '0') {
    console.log('\n### Leave-one-family-out over the pool (each family scored by models trained without it; nothing tuned on these)\n');
    console.log(`| family | kind | records | ${names.join(' | ')} |`);
    console.log(`|---|---|---:|${names.map(() => '---:|').join('')}`);
    const results = leaveOneFamilyOut(records, variants, ({ family, label, counts }: FamilyResult) => {
      const total = label === 'injection' ? counts.positives : counts.negatives;
      const cell = (name: string) => {
        const flagged = counts.flagged[name][label === 'injection' ? 'positives' : 'negatives'];
        return `${flagged} (${f3(share(flagged, total))})`;
      };
      console.log(`| ${family} | ${label === 'injection' ? 'attack: recall' : 'clean: false alarms'} | ${total} | ${names.map(cell).join(' | ')} |`);
    });
    const pooled = emptyCounts(names);
    const english = emptyCounts(names);
    for (const result of results) {
      addCounts(pooled, result.counts);
      if (result.family !== 'cyberseceval' && result.family !== 'prompts') addCounts(english, result.counts);
    }
    const macro = (name: string) => {
      const attacks = results.filter((result) => result.label === 'injection');
      return attacks.reduce((sum, result) => sum + share(result.counts.flagged[name].positives, result.counts.positives), 0) / attacks.length;
    };
    console.log('\nAll families pooled (every record judged by models that never saw its family):\n');
    console.log(detectorTable(pooled, { positives: 'attacks', negatives: 'clean texts' }));
    console.log(`\nmean recall over attack families: ${names.map((name) => `${name} ${f3(macro(name))}`).join(', ')}`);
    console.log('\nWithout cyberseceval (machine-translated, whole user requests) and prompts/* (benign role prompts):\n');
    console.log(detectorTable(english, { positives: 'attacks', negatives: 'clean texts' }));
    instruction.lofo = { families: results, pooled, withoutCyberSecEvalAndPrompts: english };
  }

  if (existsSync(join(DEV, 'labels.jsonl'))) {
    const overlap = readIds(resolve(POOL, '..', 'dev_overlap_ids.txt'));
    const pages = readDevSplit(DEV);
    const honest = countPages(pages, variants.map((variant) => ({ name: variant.name, model: trainVariant(variant, (index) => !overlap.has(records[index].id)) })));
    const shipped = countPages(pages, [{ name: 'shipped weights', model: shippedModel() }]);
    console.log(`\n### Development split ${JUDGED_SET} (${pages.length} pages), models trained without the pool's ${overlap.size} near-copies of its attacks\n`);
    console.log(detectorTable(honest, { positives: 'attacked pages', negatives: 'clean pages' }));
    console.log('\nThe same pages with the shipped weights (trained on those near-copies too, so their recall here is not a held-out figure):\n');
    console.log(detectorTable(shipped, { positives: 'attacked pages', negatives: 'clean pages' }));
    instruction.dev = { withoutOverlap: honest, shipped };
  }

  // Real pages: every flag is a false alarm. The broad variants trained on each crawl's even-numbered
  // pages, the shipped configuration on every page of the Dolma sample: the odd-numbered pages of the
  // articles crawl are held out from every variant.
  const fullModels = [{ name: 'shipped weights', model: shippedModel() }, ...variants.map((variant) => ({ name: variant.name, model: trainVariant(variant) }))];
  const realPages: Record<string, unknown> = {};
  for (const file of CRAWLS) {
    if (!existsSync(file)) {
      console.error(`bench:risk: ${file} not found: no real-page false-alarm rate for it`);
      continue;
    }
    const passages = await crawlPassages(file);
    const { trained, heldOut } = splitPages(passages);
    const name = file.split('/').pop() ?? file;
    const inShipped = trainCrawlFiles('shipped').some((shipped) => shipped.split('/').pop() === name);
    const parts: Array<[string, typeof passages, string]> = [
      ['odd-numbered pages', heldOut, inShipped ? 'held out from the broad variants; the shipped configuration trained on them' : 'held out from every variant'],
      ['even-numbered pages', trained, 'trained on by the broad variants' + (inShipped ? ' and the shipped configuration' : '')],
    ];
    const summary: Record<string, unknown> = {};
    for (const [part, members, note] of parts) {
      const counts = emptyCounts(['rules only', ...fullModels.map((model) => `rules + ${model.name}`)]);
      const examples: string[] = [];
      for (const passage of members) {
        const flags = flagsOf(passage.text, fullModels);
        count(counts, false, flags);
        if (flags['rules + shipped weights'] && examples.length < 12) {
          for (const finding of instructionFindings(passage.text)) examples.push(`- "${passage.text.slice(finding.start, finding.end).slice(0, 100)}": ${finding.reason.slice(0, 120)}`);
        }
      }
      const pageCount = new Set(members.map((passage) => passage.url)).size;
      console.log(`\n### Real crawled pages: ${name}, ${part} (${pageCount} pages, ${members.length} passages as ingest cuts them; every flag is a false alarm; ${note})\n`);
      console.log(detectorTable(counts, { positives: 'attacks', negatives: 'passages' }));
      console.log(examples.length > 0 ? `\nflagged by the shipped detector:\n${examples.join('\n')}` : '\nno passage flagged by the shipped detector');
      summary[part] = { pages: pageCount, passages: members.length, counts };
    }
    const asPages = passages.map((passage) => ({ id: '', category: '', expected: [], text: passage.text }));
    const rulesUs = microsecondsPerPassage(asPages, (text) => instructionFindings(text, undefined, { rules: true, model: null }));
    const bothUs = microsecondsPerPassage(asPages, (text) => instructionFindings(text));
    const cost: Record<string, number> = { 'rules only': rulesUs, 'rules + shipped model': bothUs };
    const vectorVariant = variants.find((variant) => variant.vectorOf);
    if (vectorVariant) {
      const model = fullModels.find((entry) => entry.name === vectorVariant.name)!.model;
      cost[`rules + ${vectorVariant.name}`] = microsecondsPerPassage(asPages, (text) => instructionFindings(text, undefined, { rules: true, model }));
    }
    console.log(`\ncost of instruction_like on these passages: ${Object.entries(cost).map(([detector, us]) => `${detector} ${us.toFixed(1)} us`).join(', ')} per passage`);
    realPages[name] = { ...summary, cost };
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
