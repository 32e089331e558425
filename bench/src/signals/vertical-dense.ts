/**
 * `npm run bench:vertical-dense [-- potion|bge ...]`: the vertical model's dense alternatives,
 * measured the way train:vertical chooses (5-fold cross-validation by host on half 1, the shipped
 * words setting, ingest's own deriveVertical rules) and scored once on half 0 (a fit on half 1):
 * each model's page vector (`verticalText` embedded) as features, and its cosines to the 13
 * vertical descriptions as features (a zero-shot prior the fit may weigh), at a few scales;
 * beside words alone and the zero-shot nearest description. potion-base-2M and
 * bge-small-en-v1.5 need their files in models/ (`npm run models`); a missing one is skipped
 * and named. About 7 minutes here.
 */
import { DERIVED_VERTICALS } from '@evidence/schemas';
import { OnnxEmbedder, StaticEmbedder } from '@evidence/embedders';
import { deriveVertical, parseVerticalModel, verticalText, VERTICAL_TRAINING } from '@evidence/ingest';
import { crossValidate, trainVerticalModel, type TrainingOptions } from './train-vertical.js';
import { readVerticalSites, scoreVerticals, TRAIN_HALF, type VerticalSite } from './vertical-data.js';
import { DESCRIPTIONS, nearest as nearestIndex } from './vertical.js';

const SCALES: Record<string, Record<'vector' | 'cosines', number[]>> = {
  'potion-base-2M': { vector: [0.25, 0.5, 1], cosines: [0.5, 1, 2] },
  'bge-small-en-v1.5': { vector: [0.25], cosines: [0.5, 1] },
};

type Embed = (text: string) => Promise<Float32Array>;

async function openModel(name: string): Promise<{ embed: Embed; close: () => Promise<void> } | string> {
  try {
    if (name === 'potion-base-2M') {
      const embedder = StaticEmbedder.openSync();
      return { embed: async (text) => embedder.vector(text), close: () => embedder.close() };
    }
    const embedder = await OnnxEmbedder.open({ threads: 1 });
    return { embed: async (text) => (await embedder.embed([text], 'passage'))[0], close: () => embedder.close() };
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

function cosines(vector: Float32Array, targets: readonly Float32Array[]): Float32Array {
  return Float32Array.from(targets, (target) => target.reduce((sum, value, index) => sum + value * vector[index], 0));
}

function score(sites: readonly VerticalSite[], choose: (site: VerticalSite) => string): string {
  const { assigned, hits } = scoreVerticals(sites, choose);
  return `${(assigned / sites.length).toFixed(3)} | ${(hits / sites.length).toFixed(3)} | ${(hits / Math.max(1, assigned)).toFixed(3)}`;
}

const { seedPrior, l2TowardPrior, rounds, target } = VERTICAL_TRAINING;
const words: TrainingOptions = { seedPrior, l2TowardPrior, rounds, target };
const sites = readVerticalSites();
const wanted = process.argv.slice(2);
const lines = [
  '| model | features | CV hit rate on half 1 | half 0: non-default | hit rate | given one |',
  '|---|---|---|---|---|---|',
];
{
  const [cv] = crossValidate(sites.filter((site) => site.half === TRAIN_HALF), [words]);
  const model = parseVerticalModel(trainVerticalModel(sites.filter((site) => site.half === TRAIN_HALF), words));
  lines.push(`| none | words alone (shipped setting) | ${cv.hitRate.toFixed(3)} | ${score(sites.filter((site) => site.half !== TRAIN_HALF), (site) => deriveVertical(site, undefined, model).value)} |`);
}
for (const name of Object.keys(SCALES)) {
  if (wanted.length > 0 && !wanted.some((word) => name.startsWith(word))) continue;
  const opened = await openModel(name);
  if (typeof opened === 'string') {
    lines.push(`| ${name} | skipped: ${opened} | | | | |`);
    continue;
  }
  const started = process.hrtime.bigint();
  const vectors: Float32Array[] = [];
  for (const site of sites) vectors.push(await opened.embed(verticalText(site)));
  const milliseconds = Number(process.hrtime.bigint() - started) / 1e6 / sites.length;
  const descriptions: Float32Array[] = [];
  for (const text of DESCRIPTIONS) descriptions.push(await opened.embed(text));
  await opened.close();
  const heldOut = sites.map((site, index) => ({ site, index })).filter(({ site }) => site.half !== TRAIN_HALF);
  const nearest = (index: number) => DERIVED_VERTICALS[nearestIndex(vectors[index], descriptions)].name;
  const byHost = new Map(sites.map((site, index) => [site.host, index]));
  lines.push(`| ${name} (${milliseconds.toFixed(2)} ms a site) | zero-shot: nearest description | n/a | ${score(heldOut.map(({ site }) => site), (site) => nearest(byHost.get(site.host)!))} |`);
  for (const kind of ['vector', 'cosines'] as const) {
    const withVectors = sites.map((site, index) => ({ ...site, vector: kind === 'vector' ? vectors[index] : cosines(vectors[index], descriptions) }));
    const train = withVectors.filter((site) => site.half === TRAIN_HALF);
    for (const denseScale of SCALES[name][kind]) {
      const options = { ...words, denseScale };
      const [cv] = crossValidate(train, [options]);
      const model = parseVerticalModel(trainVerticalModel(train, options));
      lines.push(`| ${name} | words + ${kind === 'vector' ? 'page vector' : 'cosines to the descriptions'} x${denseScale} | ${cv.hitRate.toFixed(3)} | ${score(withVectors.filter((site) => site.half !== TRAIN_HALF), (site) => deriveVertical(site, undefined, model).value)} |`);
      process.stderr.write(`${lines.at(-1)}\n`);
    }
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
