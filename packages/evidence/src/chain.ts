/**
 * The provenance chain of one passage (path without `to`): how its text reached its host. The
 * passage's story is walked into origins exactly as ground walks it (origins.ts); the chain is
 * the passage's origin, earliest first, from its first passage through the carriers (outlets
 * running the wire story or release, the owner again) and the republishes folded into it, up to
 * and including the passage itself.
 */
import type { ChainStep } from '@evidence/schemas';
import { appearedAt, earliestFirst } from './hits.js';
import { buildOrigins, originBody, type OriginGroup, type PassageReading } from './origins.js';
import type { EvidenceHit } from './types.js';

export interface ProvenanceChain {
  origin: ReturnType<typeof originBody>;
  chain: ChainStep[];
  laterCopies: number;
  otherOrigins: number;
}

function ownerOf(hit: EvidenceHit): string {
  return hit.owner || hit.registrable_domain || hit.host;
}

function stepOf(reading: PassageReading, group: OriginGroup): ChainStep {
  const hit = reading.hit;
  const own = group.own.includes(reading);
  return {
    id: hit.id,
    url: hit.url,
    host: hit.host,
    owner: ownerOf(hit),
    origin_type: reading.originType,
    step: !own ? 'republish' : group.own[0] === reading ? 'origin' : 'carrier',
    at: appearedAt(hit),
    at_basis: hit.published_at !== undefined ? 'published' : 'fetched',
    fetched_at: hit.fetched_at,
  };
}

/** The chain of `seedId` among the passages of its story, or null when the seed is not among them. */
export function provenanceChain(seedId: string, storyMembers: EvidenceHit[]): ProvenanceChain | null {
  const seed = storyMembers.find((hit) => hit.id === seedId);
  if (!seed) return null;
  const groups = buildOrigins(storyMembers.filter((hit) => hit.story_id === seed.story_id));
  const group = groups.find((candidate) => [...candidate.own, ...candidate.republishes].some((reading) => reading.hit.id === seedId));
  if (!group) return null;
  const members = [...group.own, ...group.republishes].sort((left, right) => earliestFirst(left.hit, right.hit));
  const at = members.findIndex((reading) => reading.hit.id === seedId);
  return {
    origin: originBody(group),
    chain: members.slice(0, at + 1).map((reading) => stepOf(reading, group)),
    laterCopies: members.length - at - 1,
    otherOrigins: groups.length - 1,
  };
}
