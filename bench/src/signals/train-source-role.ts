/**
 * `npm run train:source-role`: fits source_role's host-name model and writes
 * `packages/schemas/src/source-role-model.generated.ts` (deterministic: same data, same bytes).
 *
 * Data: the labelled hosts of SIGNALS_DATA/source_role/hosts.jsonl in the tuning half only (the
 * half `npm run bench:signals -- source_role` calls `tune`; its `check` half is never read
 * here), less the MBFC hosts marked `role_ambiguous`. Labels: official, primary, secondary, ugc.
 *
 * Model: softmax regression over `roleHostFeatures` (the schemas package's own, so training and
 * ingest read a host alike), features seen in at least MIN_COUNT training hosts, Adagrad
 * full-batch over ROUNDS rounds with L2; each host weighed (N / (K x hosts of its role))^BALANCE
 * so that the small roles count. Settings chosen by FOLDS-fold cross-validation inside the
 * tuning half (folds by a hash of the host): L2 and BALANCE for the fit, then the gate (the
 * model is asked only where the rules' votes weigh at most this), the threshold and the vote's
 * weight, all by the macro-F1 of the whole host classifier (rules + model + fallback) on the
 * out-of-fold probabilities. The final model is fitted on the whole tuning half.
 *
 * Printed too, so that one can see it does not learn which list a host came from: leave one
 * source list out (train without the list's hosts, classify them), per list and as a macro-F1.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deriveHostFields } from '@evidence/ingest';
import { FALLBACK_VOTE, hostRoleVotes, isOpenPlatform, MODEL_ROLES, publicSuffixOf, roleHostFeatures, roleProbabilities, weighVotes, type RoleModel, type Vote } from '@evidence/schemas';
import { halfOf, macroF1, readJsonl, ROOT } from './halves.js';

export const ROUNDS = 300;
export const STEP = 0.5;
export const MIN_COUNT = 2;
const FOLDS = 5;
const L2_CHOICES = [0.0003, 0.001, 0.003];
const BALANCE_CHOICES = [0, 0.5, 1];
/**
 * Asked only where no rule votes. Gates up to 1.5 were measured too: 1.5 ties 0 out of fold
 * (0.864) but lets a name's guess dilute strong rule votes (a code forge's confidence fell from
 * 0.82 to 0.65), so the model stays the fallback.
 */
const GATE_CHOICES = [0];
const THRESHOLD_CHOICES = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];
/**
 * At most 1: a guess from the name alone must not outweigh the page's own declared content type
 * (weight 1) at ingest. Weights to 4 were measured: 3 is the best calibrated on the host alone
 * (mean confidence 0.82, right 0.80) but overrode the content type of news pages.
 */
const WEIGHT_CHOICES = [0.5, 0.75, 1];
const OUTPUT = join(ROOT, 'packages', 'schemas', 'src', 'source-role-model.generated.ts');
/** The rules alone: a gate no vote weight is under. */
const RULES_ONLY: RoleModel = { bias: [0, 0, 0, 0], weights: {}, gate: -1, threshold: 1, weight: 0 };

export interface LabelledHost {
  host: string;
  role: string;
  source_list: string;
  labels?: { role_ambiguous?: boolean };
}

export interface Example {
  host: string;
  list: string;
  label: number;
  features: string[];
  rules: Vote[];
  ruleWeight: number;
  /** Whether the model may be asked at all (not on an open platform's own site: hostRoleVotes). */
  askable: boolean;
}

export function exampleOf(labelled: LabelledHost): Example {
  const fields = deriveHostFields(labelled.host);
  const suffix = publicSuffixOf(fields);
  const rules = hostRoleVotes(fields.host, fields.registrableDomain, suffix, RULES_ONLY);
  return {
    host: labelled.host,
    list: labelled.source_list,
    label: MODEL_ROLES.indexOf(labelled.role as (typeof MODEL_ROLES)[number]),
    features: roleHostFeatures(fields.host, fields.registrableDomain, suffix),
    rules,
    ruleWeight: rules.reduce((sum, vote) => sum + vote.weight, 0),
    askable: !isOpenPlatform(fields.registrableDomain),
  };
}

export interface Fit {
  l2: number;
  balance: number;
  /** Adagrad rounds (ROUNDS unless a test asks for fewer). */
  rounds?: number;
}

export function fitRoleModel(examples: readonly Example[], fit: Fit): Pick<RoleModel, 'weights' | 'bias'> {
  const K = MODEL_ROLES.length;
  const hostsWith = new Map<string, number>();
  for (const item of examples) for (const feature of item.features) hostsWith.set(feature, (hostsWith.get(feature) ?? 0) + 1);
  const kept = [...hostsWith.entries()].filter(([, count]) => count >= MIN_COUNT).map(([feature]) => feature).sort();
  const index = new Map(kept.map((feature, at) => [feature, at]));
  const rows = examples.map((item) => item.features.map((feature) => index.get(feature)).filter((at): at is number => at !== undefined));
  const perRole = MODEL_ROLES.map((_, role) => examples.filter((item) => item.label === role).length);
  const sampleWeight = examples.map((item) => Math.pow(examples.length / (K * Math.max(1, perRole[item.label])), fit.balance));
  const totalWeight = sampleWeight.reduce((sum, value) => sum + value, 0);
  const weights = new Float64Array(kept.length * K);
  const bias = new Float64Array(K);
  const squared = new Float64Array(kept.length * K);
  const biasSquared = new Float64Array(K);
  const scores = new Float64Array(K);
  for (let round = 0; round < (fit.rounds ?? ROUNDS); round++) {
    const gradient = new Float64Array(kept.length * K);
    const biasGradient = new Float64Array(K);
    for (let at = 0; at < examples.length; at++) {
      let top = -Infinity;
      for (let role = 0; role < K; role++) {
        let score = bias[role];
        for (const feature of rows[at]) score += weights[feature * K + role];
        scores[role] = score;
        if (score > top) top = score;
      }
      let sum = 0;
      for (let role = 0; role < K; role++) {
        scores[role] = Math.exp(scores[role] - top);
        sum += scores[role];
      }
      for (let role = 0; role < K; role++) {
        const error = (scores[role] / sum - (examples[at].label === role ? 1 : 0)) * sampleWeight[at];
        for (const feature of rows[at]) gradient[feature * K + role] += error;
        biasGradient[role] += error;
      }
    }
    for (let cell = 0; cell < weights.length; cell++) {
      const g = gradient[cell] / totalWeight + fit.l2 * weights[cell];
      squared[cell] += g * g;
      weights[cell] -= (STEP * g) / Math.sqrt(squared[cell] + 1e-9);
    }
    for (let role = 0; role < K; role++) {
      const g = biasGradient[role] / totalWeight;
      biasSquared[role] += g * g;
      bias[role] -= (STEP * g) / Math.sqrt(biasSquared[role] + 1e-9);
    }
  }
  const written: Record<string, number[]> = {};
  for (let feature = 0; feature < kept.length; feature++) {
    const row = MODEL_ROLES.map((_, role) => Math.round(weights[feature * K + role] * 1000) / 1000);
    if (row.some((value) => Math.abs(value) >= 0.01)) written[kept[feature]] = row;
  }
  return { weights: written, bias: [...bias].map((value) => Math.round(value * 1000) / 1000) };
}

export interface Settings {
  gate: number;
  threshold: number;
  weight: number;
}

/** The host classifier's role for an example, given the model's probabilities for it (as hostRoleVotes and sourceRoleVotes decide). */
export function decide(item: Example, probabilities: readonly number[] | undefined, settings: Settings): string {
  const votes: Vote[] = [...item.rules];
  if (probabilities !== undefined && item.askable && item.ruleWeight <= settings.gate) {
    let best = 0;
    for (let role = 1; role < probabilities.length; role++) if (probabilities[role] > probabilities[best]) best = role;
    const weight = Math.round(settings.weight * probabilities[best] * 100) / 100;
    if (probabilities[best] >= settings.threshold && weight > 0) votes.push({ role: MODEL_ROLES[best], weight });
  }
  if (votes.length === 0) votes.push(FALLBACK_VOTE);
  return weighVotes(votes).role;
}

function scoreOf(items: readonly Example[], probabilities: ReadonlyArray<readonly number[] | undefined>, settings: Settings): number {
  return macroF1(
    items.map((item, at) => [MODEL_ROLES[item.label], decide(item, probabilities[at], settings)]),
    MODEL_ROLES,
  ).macro;
}

/**
 * Where the model's vote decided a host (out of fold): how often it was right, and the mean
 * role_confidence the classifier gave.
 */
function calibration(items: readonly Example[], probabilities: ReadonlyArray<readonly number[]>, settings: Settings): { hosts: number; right: number; confidence: number } {
  let hosts = 0;
  let right = 0;
  let confidence = 0;
  items.forEach((item, at) => {
    if (!item.askable || item.ruleWeight > settings.gate) return;
    const probability = Math.max(...probabilities[at]);
    if (probability < settings.threshold) return;
    const best = probabilities[at].indexOf(probability);
    const decision = weighVotes([...item.rules, { role: MODEL_ROLES[best], weight: Math.round(settings.weight * probability * 100) / 100 }]);
    hosts++;
    if (decision.role === MODEL_ROLES[item.label]) right++;
    confidence += decision.confidence;
  });
  return { hosts, right: right / Math.max(1, hosts), confidence: confidence / Math.max(1, hosts) };
}

/**
 * The gate and threshold with the best out-of-fold macro-F1; among the vote weights that reach
 * it (the weight decides only where the rules also vote), the one whose mean role_confidence on
 * the hosts the model decided is nearest to how often it was right there.
 */
export function bestSettings(items: readonly Example[], probabilities: ReadonlyArray<readonly number[]>): Settings & { macro: number } {
  let best = { gate: 0, threshold: 1, weight: 0, macro: -1 };
  let gap = Infinity;
  for (const gate of GATE_CHOICES)
    for (const threshold of THRESHOLD_CHOICES)
      for (const weight of WEIGHT_CHOICES) {
        const macro = scoreOf(items, probabilities, { gate, threshold, weight });
        if (macro < best.macro - 1e-9) continue;
        const fit = calibration(items, probabilities, { gate, threshold, weight });
        const miss = Math.abs(fit.confidence - fit.right);
        if (macro > best.macro + 1e-9 || miss < gap) {
          best = { gate, threshold, weight, macro };
          gap = miss;
        }
      }
  return best;
}

export function render(model: RoleModel, hosts: number): string {
  const entries = Object.entries(model.weights)
    .map(([feature, weights]) => `    ${JSON.stringify(feature)}: [${weights.join(', ')}],`)
    .join('\n');
  return `// Generated by \`npm run train:source-role\` (bench/src/signals/train-source-role.ts): do not edit.
// Trained on ${hosts} labelled hosts, the tuning half of ../shared/data/signals/source_role (public lists;
// see that folder's README for their licences). Weights only, per role [${MODEL_ROLES.join(', ')}]: no host
// of the data is written here (a feature is kept only when at least ${MIN_COUNT} hosts have it).
import type { RoleModel } from './source-role-model.js';

export const ROLE_MODEL: RoleModel = {
  bias: [${model.bias.join(', ')}],
  gate: ${model.gate},
  threshold: ${model.threshold},
  weight: ${model.weight},
  weights: {
${entries}
  },
};
`;
}

function main(): void {
  const started = Date.now();
  const labelled = readJsonl<LabelledHost>('source_role/hosts.jsonl');
  if (labelled === undefined) {
    console.error('train:source-role: no source_role/hosts.jsonl (set SIGNALS_DATA to the folder holding it)');
    process.exit(2);
  }
  const tuning = labelled.filter((host) => halfOf(host.host, 1) === 'tune' && host.labels?.role_ambiguous !== true).map(exampleOf);
  const fold = (host: string): number => createHash('sha256').update(`fold:${host}`).digest()[0] % FOLDS;

  /** Out-of-fold probabilities for every tuning host under one fit. */
  function outOfFold(fit: Fit): number[][] {
    const probabilities: number[][] = new Array(tuning.length);
    for (let held = 0; held < FOLDS; held++) {
      const model: RoleModel = { ...fitRoleModel(tuning.filter((item) => fold(item.host) !== held), fit), gate: 0, threshold: 0, weight: 1 };
      tuning.forEach((item, at) => {
        if (fold(item.host) === held) probabilities[at] = roleProbabilities(model, item.features);
      });
    }
    return probabilities;
  }

  const rulesOnly = scoreOf(tuning, [], { gate: -1, threshold: 1, weight: 0 });
  console.log(`tuning half: ${tuning.length} hosts; rules alone macro-F1 ${rulesOnly.toFixed(3)}`);
  console.log('cross-validated (out of fold) macro-F1 of rules + model, best gate/threshold/weight per fit:');
  let chosen: { fit: Fit; settings: Settings & { macro: number } } | undefined;
  for (const l2 of L2_CHOICES)
    for (const balance of BALANCE_CHOICES) {
      const settings = bestSettings(tuning, outOfFold({ l2, balance }));
      console.log(`  l2 ${l2} balance ${balance}: ${settings.macro.toFixed(3)} (gate ${settings.gate}, threshold ${settings.threshold}, weight ${settings.weight})`);
      if (chosen === undefined || settings.macro > chosen.settings.macro + 1e-9) chosen = { fit: { l2, balance }, settings };
    }
  if (chosen === undefined) throw new Error('no setting');
  const { gate, threshold, weight } = chosen.settings;
  const chosenOutOfFold = outOfFold(chosen.fit);
  {
    const pairs = (probabilities: ReadonlyArray<readonly number[] | undefined>): Array<[string, string]> => tuning.map((item, at) => [MODEL_ROLES[item.label], decide(item, probabilities[at], chosen.settings)]);
    const before = macroF1(pairs([]), MODEL_ROLES);
    const after = macroF1(pairs(chosenOutOfFold), MODEL_ROLES);
    const fit = calibration(tuning, chosenOutOfFold, chosen.settings);
    console.log(`the model decided ${fit.hosts} hosts out of fold: right ${fit.right.toFixed(3)}, mean role_confidence ${fit.confidence.toFixed(3)}`);
    console.log(`per role, out of fold: ${MODEL_ROLES.map((role) => `${role} ${before.perLabel[role].toFixed(3)} -> ${after.perLabel[role].toFixed(3)}`).join(', ')}`);
    for (const list of [...new Set(tuning.map((item) => item.list))].sort()) {
      const members = tuning.map((item, at) => [item, at] as const).filter(([item]) => item.list === list);
      const right = (probabilities: ReadonlyArray<readonly number[] | undefined>): number => members.filter(([item, at]) => decide(item, probabilities[at], chosen.settings) === MODEL_ROLES[item.label]).length / members.length;
      console.log(`  ${list} (${members.length}): ${right([]).toFixed(3)} -> ${right(chosenOutOfFold).toFixed(3)}`);
    }
  }

  // Leave one source list out: the model never sees a host of the list it classifies.
  console.log(`leave one source list out (tuning half; l2 ${chosen.fit.l2}, balance ${chosen.fit.balance}, gate ${gate}, threshold ${threshold}, weight ${weight}): share right, rules alone -> rules + model`);
  const lists = [...new Set(tuning.map((item) => item.list))].sort();
  const lolo: Array<number[] | undefined> = new Array(tuning.length);
  for (const list of lists) {
    const model: RoleModel = { ...fitRoleModel(tuning.filter((item) => item.list !== list), chosen.fit), gate, threshold, weight };
    const members = tuning.map((item, at) => [item, at] as const).filter(([item]) => item.list === list);
    for (const [item, at] of members) lolo[at] = roleProbabilities(model, item.features);
    const right = (probabilities: (item: Example, at: number) => readonly number[] | undefined): number =>
      members.filter(([item, at]) => decide(item, probabilities(item, at), chosen.settings) === MODEL_ROLES[item.label]).length / members.length;
    console.log(`  ${list} (${members.length}): ${right(() => undefined).toFixed(3)} -> ${right((_, at) => lolo[at]).toFixed(3)}`);
  }
  console.log(`  macro-F1 with every host classified by a model that never saw its list: ${scoreOf(tuning, lolo, chosen.settings).toFixed(3)} (rules alone ${rulesOnly.toFixed(3)})`);

  const model: RoleModel = { ...fitRoleModel(tuning, chosen.fit), gate, threshold, weight };
  writeFileSync(OUTPUT, render(model, tuning.length));
  console.log(
    `chosen: l2 ${chosen.fit.l2}, balance ${chosen.fit.balance}, gate ${gate}, threshold ${threshold}, weight ${weight}: out of fold ${chosen.settings.macro.toFixed(3)} (rules alone ${rulesOnly.toFixed(3)}); ` +
      `${Object.keys(model.weights).length} features in ${((Date.now() - started) / 1000).toFixed(1)} s; wrote ${OUTPUT}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
