/**
 * Corroboration (SPEC 2.1, 4.8): whether independent origins confirm what a passage says.
 *
 * 1. The passage's story is walked into origins as ground walks it (origins.ts): its other
 *    origins (other owners publishing the same text on their own) are the first candidates.
 * 2. Near-paraphrases: passages of other stories holding at least PARAPHRASE_MIN_OVERLAP of the
 *    passage's content words, matched as the index matches them (support.ts: the engine's
 *    analyser, as ground's lexical support), best per story, most overlap first, at most
 *    PARAPHRASE_STORIES_MAX stories, each walked whole into its origins too. The search that
 *    finds them is the passage's content words as claims.ts `contentWords` writes them.
 * 3. Items: one per origin (its representative), EvidenceItems built by the same functions as
 *    ground's (selection.ts: owner, origin type, source role, independence over the returned
 *    set, risk flags, claim relation), the passage's own origin first.
 * 4. Verdict (CORROBORATION_RULE): partial, else contested, else corroborated, else single_origin,
 *    by the claim relation of origins whose owner is not the passage's own.
 *
 * A pure function of the task, like ground: the same lookups give the same answer (retrieval.ts
 * `retrieveCorroboration` makes them, in the evidence worker).
 */
import {
  CORROBORATION_MAX_ITEMS,
  CORROBORATION_RULE,
  PARAPHRASE_MIN_OVERLAP,
  PARAPHRASE_STORIES_MAX,
  type CorroborateResponse,
  type CorroborationVerdict,
  type EvidenceItem,
  type NextAction,
} from '@evidence/schemas';
import { rankOrigins, type RankedOrigin } from './analysis.js';
import { contentWords, judgeRestatement, type Restatement } from './claims.js';
import { splitSentences } from './risk.js';
import { round } from './hits.js';
import { buildOrigins, membersOf, originBody } from './origins.js';
import { provenance, RESTATEMENT_EXPERIMENTAL } from './receipt.js';
import { evidenceItems, returnedHit, type SelectedOrigin } from './selection.js';
import { contentTerms, termsHeld } from './support.js';
import { hitTokens } from './tokens.js';
import type { EvidenceHit, RetrievedHits } from './types.js';

/** Content words searched for near-paraphrases at most. */
export const PARAPHRASE_QUERY_WORDS = 24;
/** Passages of other stories the near-paraphrase search looks at. */
export const PARAPHRASE_CANDIDATES = 50;

export const CORROBORATE_LIMITATIONS = [
  'near-paraphrases are found by shared content words: a report of the same fact in other words is not found, and a passage sharing the words may say something else',
] as const;

export interface Paraphrase {
  storyId: string;
  /** Its best passage (most overlap, then search rank). */
  hit: EvidenceHit;
  /** Share of the seed's content words it holds. */
  overlap: number;
  shared: number;
}

export interface ParaphraseSearch {
  query: string;
  /** The passage's content words (as the index holds them): what a paraphrase's overlap is a share of. */
  seedTerms: number;
  /** Passages of other stories the search returned. */
  candidates: number;
  /** Stories kept, most overlap first. */
  kept: Paraphrase[];
  /** Stories that qualified beyond PARAPHRASE_STORIES_MAX. */
  cut: number;
}

/** The seed's content words as a query (at most PARAPHRASE_QUERY_WORDS, in text order). */
export function paraphraseQuery(seed: Pick<EvidenceHit, 'snippet'>): string {
  return [...contentWords(seed.snippet)].slice(0, PARAPHRASE_QUERY_WORDS).join(' ');
}

/**
 * Near-paraphrases among search hits: other stories, at least PARAPHRASE_MIN_OVERLAP of the seed's
 * content words in their title or text (by the engine's analyser), best per story.
 */
export function selectParaphrases(seed: EvidenceHit, query: string, hits: EvidenceHit[]): ParaphraseSearch {
  const seedTerms = contentTerms(seed.snippet);
  const others = hits.filter((hit) => hit.story_id !== seed.story_id);
  const held = termsHeld(seedTerms, others.map((hit) => `${hit.title} ${hit.snippet}`));
  const best = new Map<string, Paraphrase>();
  others.forEach((hit, index) => {
    const shared = held[index];
    const overlap = seedTerms.length > 0 ? shared / seedTerms.length : 0;
    if (overlap < PARAPHRASE_MIN_OVERLAP) return;
    const kept = best.get(hit.story_id);
    if (!kept || overlap > kept.overlap) best.set(hit.story_id, { storyId: hit.story_id, hit, overlap: round(overlap, 4), shared });
  });
  // Search order breaks ties (Map keeps first-seen order; sort is stable).
  const ordered = [...best.values()].sort((left, right) => right.overlap - left.overlap);
  return {
    query,
    seedTerms: seedTerms.length,
    candidates: others.length,
    kept: ordered.slice(0, PARAPHRASE_STORIES_MAX),
    cut: Math.max(0, ordered.length - PARAPHRASE_STORIES_MAX),
  };
}

export interface CorroborateTask {
  id: string;
  claim?: string;
  seed: EvidenceHit;
  /** Every passage of the seed's story (total: how many it holds). */
  story: RetrievedHits;
  paraphrases: ParaphraseSearch;
  /** Every passage of the kept paraphrase stories. */
  paraphraseMembers: RetrievedHits;
  /** The paraphrase search itself came back partial. */
  searchPartial: boolean;
  now: number;
  shardsConfigured: number;
  credits: number;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function verdictOf(partial: boolean, evidence: EvidenceItem[], seedOwner: string): CorroborationVerdict {
  if (partial) return 'partial';
  const others = evidence.filter((item) => item.owner !== seedOwner);
  if (others.some((item) => item.claim_relation === 'contradicts')) return 'contested';
  if (others.some((item) => item.claim_relation === 'supports' || item.claim_relation === 'qualifies')) return 'corroborated';
  return 'single_origin';
}

export function corroborationResponse(task: CorroborateTask): CorroborateResponse {
  const { seed, story, paraphrases, paraphraseMembers } = task;
  const claim = task.claim ?? seed.snippet;
  const groups = buildOrigins([seed, ...story.hits, ...paraphraseMembers.hits]);
  const ranked = rankOrigins(groups, [seed, ...paraphrases.kept.map((paraphrase) => paraphrase.hit)]);
  const seedOrigin = ranked.find((origin) => membersOf(origin.group).some((member) => member.hit.id === seed.id))!;
  const storyOrder = new Map<string, number>([[seed.story_id, 0], ...paraphrases.kept.map((paraphrase, index): [string, number] => [paraphrase.storyId, index + 1])]);
  const walkOrder = new Map(groups.map((group, index) => [group.id, index]));
  const ordered = ranked
    .filter((origin) => storyOrder.has(origin.group.storyId))
    .sort(
      (left, right) =>
        Number(right === seedOrigin) - Number(left === seedOrigin) ||
        storyOrder.get(left.group.storyId)! - storyOrder.get(right.group.storyId)! ||
        walkOrder.get(left.group.id)! - walkOrder.get(right.group.id)!,
    );
  const chosen = ordered.slice(0, CORROBORATION_MAX_ITEMS);
  const selected: SelectedOrigin[] = chosen.map((origin) => {
    const hit = returnedHit(origin, false);
    return { origin, hit, tokens: hitTokens(hit), why: 'rank' };
  });
  const paraphraseOf = new Map(paraphrases.kept.map((paraphrase) => [paraphrase.storyId, paraphrase]));
  // With a claim, evidenceItems judges each item against it (the model); without one, each item is
  // judged against the seed passage by restatement cues here, and the model is not run at all.
  const evidence = evidenceItems(selected, { now: task.now, claim: task.claim, storyCount: storyOrder.size }).map((item, index) => {
    const judged: EvidenceItem = { ...item, reason: reasonOf(chosen[index], seedOrigin, paraphraseOf.get(chosen[index].group.storyId), paraphrases.seedTerms) };
    if (task.claim === undefined) {
      const judgement = judgeAgainstPassage(seed.snippet, chosen[index].representative.hit.snippet);
      judged.claim_relation = judgement.relation;
      judged.relation_basis = 'passage';
      judged.relation_confidence = judgement.confidence;
      if (judgement.sentence) judged.relation_sentences = [judgement.sentence];
    }
    return judged;
  });
  const partial = story.partial || paraphraseMembers.partial || task.searchPartial;
  const shardsDown = Math.max(story.shardsDown, paraphraseMembers.shardsDown);
  const seedOwner = seedOrigin.group.owner;
  const verdict = verdictOf(partial, evidence, seedOwner);
  const notFetched = Math.max(0, story.total - story.hits.length) + Math.max(0, paraphraseMembers.total - paraphraseMembers.hits.length);
  const gaps: string[] = [];
  if (partial) gaps.push(`${shardsDown} of ${plural(task.shardsConfigured, 'shard')} did not answer: origins held there were not seen`);
  if (notFetched > 0) gaps.push(`${plural(notFetched, 'passage')} of the looked-up stories were beyond one lookup and not walked`);
  if (paraphrases.cut > 0) gaps.push(`${plural(paraphrases.cut, 'further near-paraphrase story', 'further near-paraphrase stories')} were not considered`);
  if (ordered.length > chosen.length) gaps.push(`${plural(ordered.length - chosen.length, 'further origin')} beyond ${CORROBORATION_MAX_ITEMS} items were left out`);
  const independent = new Set(evidence.map((item) => item.owner));
  if (independent.size < 2) gaps.push(`no origin of another owner than ${seedOwner} was found`);
  const hosts = new Set(chosen.flatMap((origin) => membersOf(origin.group).map((member) => member.hit.host)));
  return {
    id: task.id,
    claim,
    verdict,
    rule: CORROBORATION_RULE,
    seed: { origin: seedOrigin.group.id, owner: seedOwner, origin_type: seedOrigin.group.kind, story_id: seed.story_id },
    evidence,
    origins: chosen.map((origin) => originBody(origin.group)),
    coverage: {
      complete: !partial && notFetched === 0 && paraphrases.cut === 0,
      partial,
      searched: {
        story_id: seed.story_id,
        story_passages: story.total,
        paraphrase_query: paraphrases.query,
        paraphrase_candidates: paraphrases.candidates,
        min_overlap: PARAPHRASE_MIN_OVERLAP,
        paraphrase_stories: paraphrases.kept.length,
      },
      not_searched: {
        explicit_dropped: true,
        shards_configured: task.shardsConfigured,
        shards_down: shardsDown,
        paraphrase_stories_cut: paraphrases.cut,
        passages_not_fetched: notFetched,
      },
      independent_origins: independent.size,
      origins: ordered.length,
      hosts: hosts.size,
      known_gaps: gaps,
    },
    next_actions: nextActions(verdict, evidence, seedOwner, task, shardsDown),
    provenance: corroborationProvenance(task),
    credits_billed: task.credits,
  };
}

/** With a claim, ground's model decides the relation; without one, restatement cues do (claims/restatement.ts). */
function corroborationProvenance(task: CorroborateTask) {
  const base = provenance(task.now, true, CORROBORATE_LIMITATIONS);
  return task.claim === undefined ? { ...base, experimental: [RESTATEMENT_EXPERIMENTAL] } : base;
}

/**
 * Without a claim, what the passage says is each of its sentences: an item is judged against the
 * sentence of the passage it shares the largest share of content words with (the earlier on a
 * tie), so a paraphrase of one sentence of a long passage is judged on that sentence.
 */
export function judgeAgainstPassage(passage: string, text: string): Restatement {
  const words = contentWords(text);
  let best: { sentence: string; share: number } | null = null;
  for (const sentence of splitSentences(passage)) {
    const sentenceWords = contentWords(sentence);
    if (sentenceWords.size === 0) continue;
    let shared = 0;
    for (const word of sentenceWords) if (words.has(word)) shared++;
    const share = shared / sentenceWords.size;
    if (!best || share > best.share) best = { sentence, share };
  }
  return judgeRestatement(best?.sentence ?? passage, text);
}

function reasonOf(origin: RankedOrigin, seedOrigin: RankedOrigin, paraphrase: Paraphrase | undefined, seedWords: number): string {
  const group = origin.group;
  const carriers = group.own.length + group.republishes.length;
  const carried = carriers > 1 ? `, ${carriers} passages carry it` : '';
  if (origin === seedOrigin) return `the passage's own origin: ${group.kind} owned by ${group.owner}${carried}`;
  if (!paraphrase) return `another origin of the passage's story (the same text published by ${group.owner} on its own)${carried}`;
  return `near-paraphrase in story ${group.storyId}: shares ${paraphrase.shared} of the passage's ${seedWords} content words (${Math.round(paraphrase.overlap * 100)}%); ${group.kind} owned by ${group.owner}${carried}`;
}

function nextActions(verdict: CorroborationVerdict, evidence: EvidenceItem[], seedOwner: string, task: CorroborateTask, shardsDown: number): NextAction[] {
  const actions: NextAction[] = [];
  const others = evidence.filter((item) => item.owner !== seedOwner);
  if (verdict === 'partial') {
    actions.push({ action: 'retry', why: `${shardsDown} of ${plural(task.shardsConfigured, 'shard')} did not answer; retry for a complete answer` });
  }
  const contradicting = others.find((item) => item.claim_relation === 'contradicts');
  if (contradicting) actions.push({ action: 'get_document', why: 'an independent origin contradicts the claim: read it in full', target: contradicting.hit.id });
  const confirming = others.find((item) => item.claim_relation === 'supports' || item.claim_relation === 'qualifies');
  if (confirming) actions.push({ action: 'get_document', why: 'read the independent confirmation in full before relying on it', target: confirming.hit.id });
  if (verdict === 'single_origin') {
    actions.push({ action: 'search', why: 'no other owner confirms the passage; a search in other words may find independent reporting', target: task.seed.title });
    actions.push({ action: 'why_not', why: 'if you expected a particular source to confirm it, why_not says whether its URL is in the index and, if not, why' });
  }
  return actions;
}

