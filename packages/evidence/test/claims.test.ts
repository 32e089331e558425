/**
 * The claim relation (claims.ts) on real SciFact claims and the passages ground returned for them
 * (fixtures/scifact-claims.json: source and licence there): what it asserts, the sentences it
 * rests on (quotable by offset), what it leaves unresolved, and its determinism.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAIM_FEATURES, CLAIM_MODEL, judgeClaim } from '@evidence/evidence';

interface Pair {
  claim_id: number;
  claim: string;
  label: 'SUPPORT' | 'CONTRADICT';
  passage: string;
}
const { pairs } = JSON.parse(readFileSync(new URL('./fixtures/scifact-claims.json', import.meta.url), 'utf8')) as { pairs: Pair[] };
const pair = (id: number) => pairs.find((candidate) => candidate.claim_id === id)!;

describe('claim relation on SciFact claims', () => {
  it('contradicts when the passage reports the opposite direction, resting on the sentences that say so', () => {
    const { claim, passage } = pair(1347); // "... memory CD4+ T cells greatly diminish the early production of inflammatory chemokines" against "enhances production"
    const judgement = judgeClaim(claim, passage);
    expect(judgement.relation).toBe('contradicts');
    expect(judgement.confidence).toBe(CLAIM_MODEL.contradictsPrecision);
    expect(judgement.sentences[0].text).toMatch(/CD4\+ T cells enhances production of multiple innate inflammatory cytokines and chemokines/);
    for (const sentence of judgement.sentences) expect(passage.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });

  it('reads "was lacking" as a negation the claim does not share: contradicts', () => {
    const { claim, passage } = pair(500); // "Headaches are correlated with cognitive impairment." against "Evidence that headache ... was associated with cognitive impairment was lacking."
    const judgement = judgeClaim(claim, passage);
    expect(judgement.relation).toBe('contradicts');
    expect(judgement.sentences[0].text).toMatch(/associated with cognitive impairment was lacking/);
  });

  it('supports when the finding sentence agrees, and says how often that was right', () => {
    const { claim, passage } = pair(67); // "Activated Cdk5 phosphorylates the ATM protein in response to DNA damage."
    const judgement = judgeClaim(claim, passage);
    expect(judgement.relation).toBe('supports');
    expect(judgement.confidence).toBe(CLAIM_MODEL.supportsPrecision);
    expect(judgement.sentences.map((sentence) => sentence.text).join(' ')).toMatch(/activated by DNA damage, directly phosphorylates ATM/);
  });

  it('supports when the finding sentence names what the claim names (ALDH1) and no opposing cue fires', () => {
    const { claim, passage } = pair(52); // "ALDH1 expression is associated with poorer prognosis ..." against "expression of ALDH1 ... correlated with poor prognosis"
    const judgement = judgeClaim(claim, passage);
    expect(judgement).toMatchObject({ relation: 'supports', confidence: CLAIM_MODEL.supportsPrecision, bears: true });
    expect(judgement.sentences[0].text).toMatch(/expression of ALDH1 detected by immunostaining correlated with poor prognosis/);
  });

  it('stays unresolved when the sentences bear on the claim but the cues cannot tell, and still names them', () => {
    const { claim, passage } = pair(34); // gold SUPPORT, but nothing in the cues decides it
    const judgement = judgeClaim(claim, passage);
    expect(judgement).toMatchObject({ relation: 'unresolved', confidence: 0, bears: true });
    expect(judgement.sentences.length).toBeGreaterThan(0);
    expect(judgement.sentences[0].text).toMatch(/homocysteine/);
  });

  it('does not bear on a claim about something else: unresolved, no sentences', () => {
    const judgement = judgeClaim(pair(123).claim, pair(67).passage);
    expect(judgement).toEqual({ relation: 'unresolved', confidence: 0, bears: false, sentences: [] });
    expect(judgeClaim('', pair(67).passage).relation).toBe('unresolved');
  });

  it('names the sentence holding an opposing antonym even when it is not among the best-aligned', () => {
    const claim = 'Drug X increases tumour growth in mice.';
    const passage = 'Drug X was given to mice carrying tumours. Tumour growth in the mice was measured weekly. The treated animals showed a marked reduction.';
    const judgement = judgeClaim(claim, passage);
    expect(judgement.bears).toBe(true);
    expect(judgement.sentences.map((sentence) => sentence.text)).toContain('The treated animals showed a marked reduction.');
    for (const sentence of judgement.sentences) expect(passage.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });

  it('is deterministic, and the committed model was trained on the features the code computes', () => {
    for (const { claim, passage } of pairs) expect(judgeClaim(claim, passage)).toEqual(judgeClaim(claim, passage));
    expect(CLAIM_MODEL.features).toEqual(CLAIM_FEATURES);
    expect(CLAIM_MODEL.supportsAtMost).toBeLessThan(CLAIM_MODEL.contradictsAtLeast);
  });

  it('a negation the passage does not share contradicts a restated claim; the shared negation does not', () => {
    const claim = 'the orbiter confirmed lunar water ice deposits';
    expect(judgeClaim(claim, 'The orbiter did not confirm lunar water ice deposits.').relation).toBe('contradicts');
    expect(judgeClaim('the orbiter did not find lunar water ice', 'The orbiter found lunar water ice in the crater.').relation).toBe('contradicts');
    expect(judgeClaim('the orbiter did not find lunar water ice', 'The orbiter did not find lunar water ice in the crater.').relation).not.toBe('contradicts');
    expect(judgeClaim(claim, 'Bread needs flour, water and salt.')).toMatchObject({ relation: 'unresolved', bears: false });
  });
});
