/** Engine hits and retrievals built by hand for the unit tests of the evidence computations. */
import type { EvidenceHit, GroundRetrieval, GroundTask, RetrievedHits, StoryExpansion } from '@evidence/evidence';
import { GroundParamsSchema, parseParams } from '@evidence/schemas';

export const NOW = 1_795_000_000;
export const HOUR = 3600;
export const DAY = 86_400;

export function hit(id: string, overrides: Partial<EvidenceHit> = {}): EvidenceHit {
  const pageId = id.split(':')[0];
  const host = overrides.host ?? `www.${pageId}.example`;
  const registrable = host.split('.').slice(-2).join('.');
  return {
    id,
    url: `https://${host}/${pageId}`,
    host,
    title: `Title ${pageId}`,
    vertical: 'science',
    host_rank: 0.5,
    quality: 50,
    fetched_at: NOW - DAY,
    source: 'cc',
    story_id: `s-${id}`,
    score: 1,
    snippet: `text of ${id}`,
    lang: 'en',
    page_id: pageId,
    registrable_domain: registrable,
    owner: registrable,
    ...overrides,
  };
}

export function retrieved(hits: EvidenceHit[], extra: Partial<RetrievedHits> = {}): RetrievedHits {
  return { hits, total: hits.length, partial: false, shardsDown: 0, ...extra };
}

export function expansionOf(members: EvidenceHit[], extra: Partial<StoryExpansion> = {}): StoryExpansion {
  const stories = [...new Set(members.map((member) => member.story_id))];
  return {
    members,
    expandedStoryIds: stories,
    notExpandedStoryIds: [],
    truncated: false,
    lookups: stories.length > 0 ? 1 : 0,
    copies: members.length,
    partial: false,
    shardsDown: 0,
    ...extra,
  };
}

/** A retrieval whose candidates are the first hit of each story and whose expansion is every hit. */
export function retrievalOf(all: EvidenceHit[], extra: Partial<GroundRetrieval> = {}): GroundRetrieval {
  const seen = new Set<string>();
  const candidates = all.filter((candidate) => {
    if (seen.has(candidate.story_id)) return false;
    seen.add(candidate.story_id);
    return true;
  });
  return {
    candidates: retrieved(candidates),
    candidatesCut: false,
    unsupported: 0,
    coverage: null,
    expansion: expansionOf(all),
    outside: null,
    verticalsExcluded: [],
    verticalMatches: {},
    filtersApplied: ['safe=true'],
    vectorCoverage: null,
    ...extra,
  };
}

export function groundTask(retrieval: GroundRetrieval, params: Record<string, unknown> = {}): GroundTask {
  return {
    params: parseParams(GroundParamsSchema, { objective: 'lunar water ice', ...params }),
    retrieval,
    now: NOW,
    startedAtMs: Date.now(),
    shardsConfigured: 2,
    credits: 5,
  };
}
