/**
 * `npm run bench:claims`: the claim relation on SciFact's train claims through the real ground
 * path (claims/scifact.ts: a temporary index of the abstracts, a real server, GET /ground with
 * objective = claim = the claim text and require_role empty), beside the polarity-pair model
 * (claims/pair-model.ts: fitted in this run on the tuning half, supports from it and contradicts
 * from the shipped model; measured, not shipped), the six cue model deciding both relations as
 * ground does (computed from CLAIM_MODEL outside the server: the same answer, a check of the path),
 * the model before it (five cues; both claims/previous-model.ts), the heuristic before that
 * (claims/restatement.ts `judgeRestatement`, which corroborate still uses without a claim) and the trivial "every gold abstract supports", in the same run, on the same
 * returned passages.
 *
 * Reported per half: held-out (odd ids: never tuned on) first, then tuning (even ids: the model's
 * weights and thresholds were chosen on it). Per judge: precision of asserted supports and
 * contradicts, the decided share and Cohen's kappa of the decided items, on the gold abstracts
 * that came back (claims/metrics.ts); evidence recall (claims with gold abstracts whose answer
 * holds one); what ground says for claims without evidence; the model's stated confidence against
 * its precision; the cost per passage judged and per ground call. CLAIMS_MODE (keyword, hybrid;
 * default keyword). The tables go to stdout and bench/out/claims.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAIM_FEATURES, judgeClaim, judgeRestatement } from '@evidence/evidence';
import { FOLDS, L2, PAIR_L2, type CrossValidated } from './claims/fit.js';
import { fitPairModel, RELATIONAL_PAIRS, REPETITIONS, type PairModelRun } from './claims/pair-model.js';
import { PAIR_CLASSES, PAIR_FEATURES } from './claims/pairs.js';
import { ratio, relationFigures, type RelationFigures } from './claims/metrics.js';
import { cueOnlyRelation, previousModelRelation } from './claims/previous-model.js';
import { groundClaims, halfOf, loadClaims, returnedGold, type GroundedClaim, type Half } from './claims/scifact.js';

const OUT = join(process.cwd(), 'bench', 'out');
/** The previous heuristic's relation of a passage to a claim. */
const baselineRelation = (claim: string, passage: string) => judgeRestatement(claim, passage).relation;

const NO_BEARING_GAP = /no returned item (?:bears on|decides) the claim/;

function mode(): 'keyword' | 'hybrid' {
  const raw = process.env.CLAIMS_MODE || 'keyword';
  if (raw !== 'keyword' && raw !== 'hybrid') throw new Error(`CLAIMS_MODE must be keyword or hybrid, got ${JSON.stringify(raw)}`);
  return raw;
}

function row(judge: string, figures: RelationFigures): string {
  const { supports, contradicts } = figures;
  return `| ${judge} | ${figures.gold} | ${supports.asserted} | ${ratio(supports.right, supports.asserted)} | ${contradicts.asserted} | ${ratio(contradicts.right, contradicts.asserted)} | ${ratio(figures.decided, figures.gold)} | ${figures.kappa === null ? 'n/a' : figures.kappa.toFixed(2)} |`;
}

function halfTables(half: Half, grounded: GroundedClaim[], pairRelation: (claim: string, passage: string) => string): string[] {
  const answers = grounded.filter((answer) => halfOf(answer.claim) === half);
  const gold = returnedGold(answers);
  const withEvidence = answers.filter((answer) => answer.claim.gold.length > 0);
  const found = withEvidence.filter((answer) => answer.claim.gold.some((entry) => answer.items.some((item) => item.url === entry.url)));
  const lines = [
    `### ${half === 'held-out' ? 'Held-out half (odd claim ids; never tuned on)' : 'Tuning half (even claim ids; the model was trained and its thresholds chosen here)'}`,
    '',
    `${answers.length} claims, ${withEvidence.length} with gold abstracts; evidence recall (a gold abstract among the evidence): ${found.length} of ${withEvidence.length} = ${ratio(found.length, withEvidence.length)}`,
    '',
    '| judge | gold abstracts returned | supports asserted | supports right | contradicts asserted | contradicts right | decided | kappa (decided) |',
    '|---|---|---|---|---|---|---|---|',
    row('model (ground\'s answer)', relationFigures(gold)),
    row('pair model for supports + cue model for contradicts (measured, not shipped)', relationFigures(gold.map((entry) => ({ label: entry.label, relation: pairRelation(entry.claim.claim, entry.passage) })))),
    row('six-cue model recomputed in the bench (main cb04363)', relationFigures(gold.map((entry) => ({ label: entry.label, relation: cueOnlyRelation(entry.claim.claim, entry.passage) })))),
    row('previous model (five cues, main a42adc4)', relationFigures(gold.map((entry) => ({ label: entry.label, relation: previousModelRelation(entry.claim.claim, entry.passage) })))),
    row('previous heuristic (cues, main 49b0549)', relationFigures(gold.map((entry) => ({ label: entry.label, relation: baselineRelation(entry.claim.claim, entry.passage) })))),
    row('every gold abstract supports', relationFigures(gold.map((entry) => ({ label: entry.label, relation: 'supports' })))),
    '',
  ];
  const asserted = gold.filter((entry) => entry.relation === 'supports' || entry.relation === 'contradicts');
  const right = asserted.filter((entry) => (entry.relation === 'supports') === (entry.label === 'SUPPORT')).length;
  const meanConfidence = asserted.reduce((sum, entry) => sum + entry.confidence, 0) / Math.max(1, asserted.length);
  lines.push(`Calibration: asserted relations on gold abstracts state a mean relation_confidence of ${meanConfidence.toFixed(2)}; ${ratio(right, asserted.length)} of them are right.`, '');
  const noEvidence = answers.filter((answer) => answer.claim.gold.length === 0);
  const decidedAnswer = (answer: GroundedClaim, judge: (claim: string, passage: string, relation: string) => string) =>
    answer.items.some((item) => ['supports', 'contradicts'].includes(judge(answer.claim.claim, item.passage, item.relation)));
  const model = (_claim: string, _passage: string, relation: string) => relation;
  const baseline = (claim: string, passage: string) => baselineRelation(claim, passage);
  const previous = (claim: string, passage: string) => pairRelation(claim, passage);
  const otherItems = withEvidence.flatMap((answer) => answer.items.filter((item) => !answer.claim.gold.some((entry) => entry.url === item.url)).map((item) => ({ claim: answer.claim.claim, ...item })));
  lines.push(
    '| what ground says | model | pair model (not shipped) | previous heuristic |',
    '|---|---|---|---|',
    `| claims without evidence (${noEvidence.length}): answers asserting supports or contradicts on some item | ${ratio(noEvidence.filter((answer) => decidedAnswer(answer, model)).length, noEvidence.length)} | ${ratio(noEvidence.filter((answer) => decidedAnswer(answer, previous)).length, noEvidence.length)} | ${ratio(noEvidence.filter((answer) => decidedAnswer(answer, baseline)).length, noEvidence.length)} |`,
    `| claims with evidence (${withEvidence.length}): answers asserting supports or contradicts on some item | ${ratio(withEvidence.filter((answer) => decidedAnswer(answer, model)).length, withEvidence.length)} | ${ratio(withEvidence.filter((answer) => decidedAnswer(answer, previous)).length, withEvidence.length)} | ${ratio(withEvidence.filter((answer) => decidedAnswer(answer, baseline)).length, withEvidence.length)} |`,
    `| items that are not a gold abstract of a claim with evidence (${otherItems.length}): share decided | ${ratio(otherItems.filter((item) => ['supports', 'contradicts'].includes(item.relation)).length, otherItems.length)} | ${ratio(otherItems.filter((item) => ['supports', 'contradicts'].includes(pairRelation(item.claim, item.passage))).length, otherItems.length)} | ${ratio(otherItems.filter((item) => ['supports', 'contradicts'].includes(baselineRelation(item.claim, item.passage))).length, otherItems.length)} |`,
    `| claims without evidence: known_gaps says no returned item bears on / decides the claim | ${ratio(noEvidence.filter((answer) => answer.knownGaps.some((gap) => NO_BEARING_GAP.test(gap))).length, noEvidence.length)} | (same gap rule) | (no such gap) |`,
    `| claims with evidence: the same gap | ${ratio(withEvidence.filter((answer) => answer.knownGaps.some((gap) => NO_BEARING_GAP.test(gap))).length, withEvidence.length)} | (same gap rule) | (no such gap) |`,
    '',
  );
  return lines;
}

function pairLines(run: PairModelRun): string[] {
  const figures = (name: string, l2: number, cv: CrossValidated) =>
    `| ${name} | ${l2} | ${cv.logLoss.toFixed(3)} | ${cv.auc.toFixed(3)} | ${cv.supportsAt.map((value) => value.toFixed(3)).join(' / ')} | ${cv.contradictsAt.map((value) => value.toFixed(3)).join(' / ')} |`;
  const { supports } = run.model;
  return [
    `### Polarity pairs (claims/pairs.ts), cross-validated inside the tuning half`,
    '',
    `${run.examples} tuning examples (returned gold abstracts bearing on their claim); ${REPETITIONS} repetitions of ${FOLDS}-fold cross-validation (the first by claim id / 2 mod ${FOLDS}, as train:claims; the others by a hash of the id); held-back figures, means over the repetitions:`,
    '',
    '| model | L2 | log loss | AUC | supports right among the surest 50 / 70 / 90 | contradicts right among the surest 25 / 35 |',
    '|---|---|---|---|---|---|',
    figures(`cue model (shipped: ${CLAIM_FEATURES.length} cues)`, L2, run.cues),
    figures(`pair model (the cues and ${PAIR_FEATURES.length} pair features)`, PAIR_L2, run.pairs),
    figures(`the cues and the ${RELATIONAL_PAIRS.length} pair features that read no class of the claim (${RELATIONAL_PAIRS.join(', ')})`, PAIR_L2, run.relational),
    figures(`the cues and the claim's ${PAIR_CLASSES.length} polarity classes (read from the claim alone: a prior on its wording, not a relation)`, PAIR_L2, run.claimPrior),
    '',
    `Pair model's supports threshold (target ${run.target}, canonical folds): ${supports.threshold ?? 'none'}, held-back precision ${supports.asserted > 0 ? (supports.right / supports.asserted).toFixed(2) : 'n/a'} on ${supports.asserted}.`,
    '',
  ];
}

async function main(): Promise<void> {
  const searchMode = mode();
  const claims = loadClaims();
  const { grounded, ingestSeconds, passages } = await groundClaims(claims, { mode: searchMode, log: (line) => console.log(line) });
  const passagesJudged = grounded.flatMap((answer) => answer.items.map((item) => [answer.claim.claim, item.passage] as const));
  const started = performance.now();
  for (const [claim, passage] of passagesJudged) judgeClaim(claim, passage);
  const judgeMicros = ((performance.now() - started) * 1000) / Math.max(1, passagesJudged.length);
  const baselineStarted = performance.now();
  for (const [claim, passage] of passagesJudged) baselineRelation(claim, passage);
  const baselineMicros = ((performance.now() - baselineStarted) * 1000) / Math.max(1, passagesJudged.length);
  const pairRun = fitPairModel(grounded.filter((answer) => halfOf(answer.claim) === 'tuning'));
  const groundMs = grounded.reduce((sum, answer) => sum + answer.elapsedMs, 0) / Math.max(1, grounded.length);
  const vectorGap = grounded.filter((answer) => answer.knownGaps.some((gap) => /vector similarity/.test(gap))).length;
  const lines = [
    `## Claim relation on SciFact train claims (${searchMode} mode)`,
    '',
    `${claims.length} claims; ${passages} passages ingested in ${ingestSeconds.toFixed(1)} s; ground over REST ${groundMs.toFixed(1)} ms per claim (mean, sequential); ` +
      `judging one passage: model ${judgeMicros.toFixed(0)} µs, previous heuristic ${baselineMicros.toFixed(0)} µs (in-process, ${passagesJudged.length} passages).`,
    `Receipts that mention "vector similarity": ${vectorGap} of ${grounded.length}. provenance.experimental: ${JSON.stringify(grounded[0]?.experimental ?? [])}`,
    '',
    ...pairLines(pairRun),
    ...halfTables('held-out', grounded, pairRun.relation),
    ...halfTables('tuning', grounded, pairRun.relation),
  ];
  const report = lines.join('\n');
  console.log(`\n${report}`);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `claims-${searchMode}.md`), `${report}\n`);
  console.log(`\nwritten to bench/out/claims-${searchMode}.md`);
}

await main();
