/**
 * vertical: on the Curlie-labelled sites, each half apart (the setting was chosen on TRAIN_HALF
 * and a fit on TRAIN_HALF alone is scored on the other half, which neither saw; the shipped model,
 * fitted to both, is shown too, in-sample), the share of sites given a vertical other than
 * `general`, and the hit rate (the vertical's Curlie category is among the site's crowd topics)
 * over all sites and over the sites given one; beside always-Business and the zero-shot prior
 * alone (the seed words, no training).
 */
import { createHash } from 'node:crypto';
import { DERIVED_VERTICALS } from '@evidence/schemas';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { crawlItemOf, deriveVertical, detectInputFormat, MIN_CONFIDENCE, verticalText, parseVerticalModel, readWarcItems, VERTICAL_TRAINING, verticalModel, type VerticalInput, type VerticalModel } from '@evidence/ingest';
import { signalsDataDir } from './data-dir.js';
import { microsecondsPer, table, type SignalSection } from './section.js';
import { readVerticalSites, scoreVerticals as score, TRAIN_HALF, type VerticalSite } from './vertical-data.js';
import { VERTICAL_SEEDS } from './vertical-seeds.js';
import { SEED_PRIOR, trainVerticalModel, withStaticVectors } from './train-vertical.js';
import { OnnxEmbedder, StaticEmbedder } from '@evidence/embedders';

/** What train:vertical records of its choice (VERTICAL_TRAINING), read with the dense fields optional. */
interface TrainingRecord {
  seedPrior: number;
  l2TowardPrior: number;
  rounds: number;
  target: 'votes' | 'topics' | 'membership';
  denseScale?: number;
  /** The abstention threshold (files before it was chosen: absent, MIN_CONFIDENCE). */
  minConfidence?: number;
  chosenOnHalf: number;
  folds: number;
  crossValidatedHitRate: number;
  sites: number;
  denseCrossValidation?: { wordsHitRate: number; standardError: number; candidates: ReadonlyArray<{ denseScale: number; hitRate: number; nonDefault: number }> } | null;
  thresholdCrossValidation?: { minNonDefault: number; chosen: ThresholdRecord; candidates: readonly ThresholdRecord[] };
}
interface ThresholdRecord {
  minConfidence: number;
  nonDefault: number;
  hitRate: number;
  hitGiven: number;
}
const TRAINING: TrainingRecord = VERTICAL_TRAINING;


function zeroShotModel(): VerticalModel {
  const classes = DERIVED_VERTICALS.map((vertical) => vertical.name);
  const rows = new Map<string, string[]>();
  classes.forEach((name, index) => {
    for (const word of VERTICAL_SEEDS[name] ?? []) rows.set(word, [...(rows.get(word) ?? []), `${index}=${SEED_PRIOR}`]);
  });
  return parseVerticalModel({ classes, bias: classes.map(() => 0), weights: [...rows].map(([word, pairs]) => `${word} ${pairs.join(' ')}`).join(';') });
}


/** The real crawled pages of `shared/data/crawl` (no labels): how the verticals spread on pages that are not home pages. */
async function crawlSpread(model: VerticalModel): Promise<{ pages: number; spread: Map<string, number>; texts: string[]; inputs: VerticalInput[] }> {
  const spread = new Map<string, number>();
  const texts: string[] = [];
  const inputs: VerticalInput[] = [];
  let pages = 0;
  for (const name of ['sample-0000.warc.gz', 'articles-dev.warc.gz']) {
    const file = join(signalsDataDir(), '../crawl', name);
    if (!existsSync(file)) continue;
    const format = await detectInputFormat(file);
    for await (const item of readWarcItems(file, format.compression)) {
      if (item.kind !== 'record') continue;
      const crawled = crawlItemOf(item);
      if (crawled.kind !== 'page') continue;
      const record = crawled.record as { url: string; title: string; text: string };
      const input = { title: record.title, text: record.text, host: new URL(record.url).hostname };
      const vertical = deriveVertical(input, undefined, model).value;
      texts.push(verticalText(input));
      inputs.push(input);
      spread.set(vertical, (spread.get(vertical) ?? 0) + 1);
      pages++;
    }
  }
  return { pages, spread, texts, inputs };
}

/** The index of the largest cosine of `vector` to `targets` (unit vectors). */
export function nearest(vector: Float32Array, targets: readonly Float32Array[]): number {
  let best = 0;
  let bestCosine = Number.NEGATIVE_INFINITY;
  targets.forEach((target, index) => {
    let cosine = 0;
    for (let column = 0; column < vector.length; column++) cosine += vector[column] * target[column];
    if (cosine > bestCosine) [best, bestCosine] = [index, cosine];
  });
  return best;
}

/** What the zero-shot prior embeds for each vertical: `name: description`. */
export const DESCRIPTIONS = DERIVED_VERTICALS.map((vertical) => `${vertical.name}: ${vertical.description}`);

/**
 * The dense alternatives on the half not tuned on: the zero-shot prior (each site's nearest
 * vertical description by cosine) with potion-base-2M and with bge-small-en-v1.5, and the words
 * with potion's vector as features at the scale the cross-validation liked best (train:vertical
 * tries them; VERTICAL_TRAINING.denseCrossValidation). Each needs its model's files (npm run
 * models); a missing one is named and skipped. Also the ms per page of each model on real pages.
 */
async function denseRows(sites: readonly VerticalSite[], crawlTexts: readonly string[]): Promise<{ rows: Array<Array<string | number>>; notes: string[] }> {
  const rows: Array<Array<string | number>> = [];
  const notes: string[] = [];
  const heldOut = sites.filter((site) => site.half !== TRAIN_HALF);
  const label = `half ${1 - TRAIN_HALF}: not tuned on (${heldOut.length} sites)`;
  const vectorSites = withStaticVectors(sites);
  if (vectorSites === undefined) notes.push('potion-base-2M missing (npm run models): its rows are skipped.');
  else {
    const embedder = StaticEmbedder.openSync();
    const descriptions = DESCRIPTIONS.map((text) => embedder.vector(text));
    const byHost = new Map(vectorSites.map((site) => [site.host, site.vector!]));
    const { assigned, hits } = score(heldOut, (site) => DERIVED_VERTICALS[nearest(byHost.get(site.host)!, descriptions)].name);
    rows.push([label, 'zero-shot: nearest description, potion-base-2M', assigned / heldOut.length, hits / heldOut.length, hits / Math.max(1, assigned)]);
    const { chosenOnHalf, folds, crossValidatedHitRate, sites: shippedSites, denseCrossValidation, thresholdCrossValidation, ...setting } = TRAINING;
    const candidates = denseCrossValidation?.candidates ?? [];
    const best = candidates.reduce<(typeof candidates)[number] | undefined>((top, candidate) => (top === undefined || candidate.hitRate > top.hitRate ? candidate : top), undefined);
    if (best !== undefined) {
      const model = parseVerticalModel(trainVerticalModel(vectorSites.filter((site) => site.half === TRAIN_HALF), { ...setting, denseScale: best.denseScale }));
      const result = score(vectorSites.filter((site) => site.half !== TRAIN_HALF), (site) => deriveVertical(site, undefined, model).value);
      rows.push([label, `words + potion-base-2M vector x${best.denseScale} (best cross-validated scale), fitted on half ${TRAIN_HALF}`, result.assigned / heldOut.length, result.hits / heldOut.length, result.hits / Math.max(1, result.assigned)]);
    }
    notes.push(`potion-base-2M vector of a real crawled page (verticalText: title, 400 words, host): ${(microsecondsPer(crawlTexts, (text) => embedder.vector(text)) / 1000).toFixed(2)} ms per page.`);
    await embedder.close();
  }
  let bge: OnnxEmbedder | undefined;
  try {
    bge = await OnnxEmbedder.open({ threads: 1 });
  } catch (error) {
    notes.push(`bge-small-en-v1.5 not opened (${(error as Error).message.split('\n')[0]}): its row is skipped.`);
  }
  if (bge !== undefined) {
    const descriptions = await bge.embed(DESCRIPTIONS, 'passage');
    const vectors = new Map<string, Float32Array>();
    for (const site of heldOut) vectors.set(site.host, (await bge.embed([verticalText(site)], 'passage'))[0]);
    const { assigned, hits } = score(heldOut, (site) => DERIVED_VERTICALS[nearest(vectors.get(site.host)!, descriptions)].name);
    rows.push([label, 'zero-shot: nearest description, bge-small-en-v1.5', assigned / heldOut.length, hits / heldOut.length, hits / Math.max(1, assigned)]);
    const sample = crawlTexts.slice(0, 20);
    const started = process.hrtime.bigint();
    for (const text of sample) await bge.embed([text], 'passage');
    notes.push(`bge-small-en-v1.5 (one thread) of a real crawled page: ${(Number(process.hrtime.bigint() - started) / 1e6 / Math.max(1, sample.length)).toFixed(1)} ms per page (${sample.length} pages).`);
    await bge.close();
  }
  return { rows, notes };
}

function listed(spread: Map<string, number>): string {
  return [...spread].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1)).map(([name, count]) => `${name} ${count}`).join(', ');
}

export const verticalSection: SignalSection = {
  name: 'vertical',
  async run() {
    const sites = readVerticalSites();
    const shipped = verticalModel();
    const zeroShot = zeroShotModel();
    // The shipped model learnt from both halves; the figure on data not trained on is the same
    // setting (VERTICAL_TRAINING, chosen by cross-validation on TRAIN_HALF) refitted on TRAIN_HALF.
    const { chosenOnHalf, folds, crossValidatedHitRate, sites: shippedSites, denseCrossValidation, thresholdCrossValidation, ...setting } = TRAINING;
    const halfModel = parseVerticalModel(trainVerticalModel(sites.filter((site) => site.half === TRAIN_HALF), setting));
    // The same fit with the hand-set threshold the trainer's choice replaced (MIN_CONFIDENCE).
    const halfModelBefore = { ...halfModel, minConfidence: MIN_CONFIDENCE };
    const systems: Array<[string, (site: VerticalSite) => string]> = [
      ['always business (baseline)', () => 'business'],
      ['zero-shot seed words only', (site) => deriveVertical(site, undefined, zeroShot).value],
      [`ours, same setting fitted on half ${TRAIN_HALF} only, hand-set threshold ${MIN_CONFIDENCE} (before)`, (site) => deriveVertical(site, undefined, halfModelBefore).value],
      [`ours, same setting fitted on half ${TRAIN_HALF} only, threshold ${halfModel.minConfidence}`, (site) => deriveVertical(site, undefined, halfModel).value],
      ['ours: shipped model (fitted on both halves: in-sample)', (site) => deriveVertical(site, undefined, shipped).value],
    ];
    const rows: Array<Array<string | number>> = [];
    for (const half of [TRAIN_HALF, 1 - TRAIN_HALF]) {
      const inHalf = sites.filter((site) => site.half === half);
      for (const [name, choose] of systems) {
        const { assigned, hits } = score(inHalf, choose);
        rows.push([half === TRAIN_HALF ? `half ${half}: setting chosen on it (${inHalf.length} sites)` : `half ${half}: not tuned on (${inHalf.length} sites)`, name, assigned / inHalf.length, hits / inHalf.length, assigned > 0 ? hits / assigned : 0]);
      }
    }
    // Learning curve: the same setting fitted on a quarter, half, three quarters and all of
    // TRAIN_HALF (by a hash of the host), scored on the other half; how much more data helps is
    // what the shipped model, fitted to both halves, counts on.
    const heldOut = sites.filter((site) => site.half !== TRAIN_HALF);
    const curve = [0.25, 0.5, 0.75].map((share) => {
      const subset = sites.filter((site) => site.half === TRAIN_HALF && createHash('sha256').update(site.host).digest()[3] / 256 < share);
      const model = parseVerticalModel(trainVerticalModel(subset, setting));
      const { assigned, hits } = score(heldOut, (site) => deriveVertical(site, undefined, model).value);
      return `${subset.length} sites: non-default ${(assigned / heldOut.length).toFixed(3)}, hit rate ${(hits / heldOut.length).toFixed(3)} (${(hits / Math.max(1, assigned)).toFixed(3)} given one)`;
    });
    const cost = microsecondsPer(sites, (site) => deriveVertical(site, undefined, shipped));
    const crawl = await crawlSpread(shipped);
    const dense = await denseRows(sites, crawl.texts);
    const spread = new Map<string, number>();
    for (const site of sites.filter((item) => item.half !== TRAIN_HALF)) {
      const vertical = deriveVertical(site, undefined, halfModel).value;
      spread.set(vertical, (spread.get(vertical) ?? 0) + 1);
    }
    return [
      ...table(['half', 'system', 'non-default share', 'hit rate (all sites)', 'hit rate (sites given a vertical)'], [...rows, ...dense.rows]),
      '',
      `Setting (chosen by ${folds}-fold cross-validation on half ${chosenOnHalf}, hit rate ${crossValidatedHitRate}): target ${setting.target}, L2 toward prior ${setting.l2TowardPrior}, ${setting.rounds} rounds; the shipped model is that setting fitted to all ${shippedSites} sites.`,
      thresholdCrossValidation === undefined
        ? `Abstention threshold ${halfModel.minConfidence} (the model file names none: the hand-set default).`
        : `Abstention threshold ${thresholdCrossValidation.chosen.minConfidence}, chosen by the same cross-validation on half ${chosenOnHalf}: the best hit rate over the sites given a vertical with at least ${thresholdCrossValidation.minNonDefault} of them given one (cross-validated non-default ${thresholdCrossValidation.chosen.nonDefault}, hit rate ${thresholdCrossValidation.chosen.hitRate}, ${thresholdCrossValidation.chosen.hitGiven} given one; at ${MIN_CONFIDENCE}: ${thresholdCrossValidation.candidates.filter((candidate) => candidate.minConfidence === MIN_CONFIDENCE).map((candidate) => `${candidate.nonDefault}, ${candidate.hitRate}, ${candidate.hitGiven}`).join('')}).`,
      `Verticals on half ${1 - TRAIN_HALF} from the half-${TRAIN_HALF} fit: ${listed(spread)}.`,
      `Learning curve on half ${1 - TRAIN_HALF}, fitted on part of half ${TRAIN_HALF}: ${curve.join('; ')}; all of it: the row above.`,
      `On ${crawl.pages} real crawled pages (shared/data/crawl, unlabelled): ${listed(crawl.spread)}.`,
      `Cost: ${cost.toFixed(1)} µs per page (title and description; a long page reads at most 400 words of text); ${microsecondsPer(crawl.inputs, (input) => deriveVertical(input, undefined, shipped)).toFixed(1)} µs per real crawled page.`,
      `Dense features, cross-validated on half ${chosenOnHalf}: words alone ${denseCrossValidation?.wordsHitRate ?? 'n/a'} (one standard error ${denseCrossValidation?.standardError ?? 'n/a'}); ${(denseCrossValidation?.candidates ?? []).map((candidate) => `potion x${candidate.denseScale} ${candidate.hitRate}`).join(', ') || 'not tried'}; shipped: ${(setting.denseScale ?? 0) > 0 ? `words + potion x${setting.denseScale}` : 'words alone'}.`,
      ...dense.notes,
    ];
  },
};
