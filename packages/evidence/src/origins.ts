/**
 * Origins: who first published a piece of evidence, and which passages are copies of it.
 *
 * A story is a cluster of near-duplicate passages. Within one story the passages are walked
 * earliest first (declared publish date, else crawl time; then crawl time; then id), and each
 * one either starts an origin or joins one:
 *
 * 1. A passage of an owner that already has an origin in the story joins it (same story, same
 *    owner: one origin).
 * 2. A wire or press-release passage joins the story's origin of the same kind: outlets
 *    carrying a wire story, or a company newsroom carrying its release, are one origin under the
 *    owner of the earliest carrier.
 * 3. A republish (recorded as such, or marked by an attribution such as "Source: X.") is a copy
 *    of the story's first origin and never an origin itself; when the story has no origin yet
 *    (the source is not in the index), it starts one of kind `unknown`.
 * 4. Any other later passage of another owner is a near-duplicate of something already
 *    published: a republish of the story's first origin, unless ingest recorded it as an
 *    original, wire or press release of its own (then it starts an origin).
 * 5. Otherwise the passage starts an origin whose kind is its origin type.
 *
 * An origin's members are all its passages, republishes included, earliest first; its
 * representative is its earliest own member (never a republish), which stands for it in the
 * evidence. Origin ids hash story and owner, so the same origin has the same id in every call.
 */
import type { OriginKind, OriginType, SourceRole } from '@evidence/schemas';
import { originTypeOf, roleOf } from './classify.js';
import { compareText, earliestFirst, round, unique } from './hits.js';
import type { EvidenceHit } from './types.js';

export interface PassageReading {
  hit: EvidenceHit;
  originType: OriginType;
  typeStored: boolean;
  typeMarked: boolean;
  role: SourceRole;
  roleConfidence: number;
  roleStored: boolean;
}

export interface OriginGroup {
  id: string;
  storyId: string;
  kind: OriginKind;
  owner: string;
  /** Own passages (not republishes), earliest first; the first is the representative. */
  own: PassageReading[];
  /** Later copies by other owners, earliest first. */
  republishes: PassageReading[];
  confidence: number;
}

export function readPassage(hit: EvidenceHit): PassageReading {
  const type = originTypeOf(hit);
  const role = roleOf(hit, type.type);
  return {
    hit,
    originType: type.type,
    typeStored: type.stored,
    typeMarked: type.marked,
    role: role.role,
    roleConfidence: role.confidence,
    roleStored: role.stored,
  };
}

/** 32-bit FNV-1a, as 8 hex digits. */
function fnv1a(text: string, seed = 0x811c9dc5): string {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

export function originId(storyId: string, owner: string): string {
  const key = `${storyId}\u0000${owner}`;
  return `o${fnv1a(key)}${fnv1a(key, 0x050c5d1f)}`;
}

function ownerOf(hit: EvidenceHit): string {
  return hit.owner || hit.registrable_domain || hit.host;
}

function kindOf(type: OriginType): OriginKind {
  return type === 'republish' ? 'unknown' : type;
}

/** How sure the grouping and kind are: recorded at ingest, marked in the text, or only inferred. */
function confidenceOf(group: OriginGroup): number {
  const first = group.own[0];
  let confidence = first.typeStored ? 0.9 : first.typeMarked ? 0.75 : 0.6;
  if (group.kind === 'unknown') confidence = Math.min(confidence, 0.4);
  return round(confidence);
}

interface StoryOrigins {
  groups: OriginGroup[];
}

function place(story: StoryOrigins, storyId: string, reading: PassageReading): void {
  const owner = ownerOf(reading.hit);
  const startOrigin = (kind: OriginKind) => {
    story.groups.push({ id: originId(storyId, owner), storyId, kind, owner, own: [reading], republishes: [], confidence: 0 });
  };
  if (reading.originType === 'republish') {
    if (story.groups.length === 0) startOrigin('unknown');
    else story.groups[0].republishes.push(reading);
    return;
  }
  const sameOwner = story.groups.find((group) => group.owner === owner);
  if (sameOwner) {
    sameOwner.own.push(reading);
    return;
  }
  if (reading.originType === 'wire' || reading.originType === 'press_release') {
    const sameKind = story.groups.find((group) => group.kind === reading.originType);
    if (sameKind) {
      sameKind.own.push(reading);
      return;
    }
  }
  if (story.groups.length > 0 && !reading.typeStored) {
    story.groups[0].republishes.push(reading);
    return;
  }
  startOrigin(kindOf(reading.originType));
}

/**
 * Origins of a set of passages (any order, duplicates by id allowed: the first copy of an id
 * wins), in order of story id and then of first appearance within the story.
 */
export function buildOrigins(hits: Iterable<EvidenceHit>): OriginGroup[] {
  const byId = new Map<string, EvidenceHit>();
  for (const hit of hits) if (!byId.has(hit.id)) byId.set(hit.id, hit);
  const byStory = new Map<string, EvidenceHit[]>();
  for (const hit of byId.values()) {
    const members = byStory.get(hit.story_id);
    if (members) members.push(hit);
    else byStory.set(hit.story_id, [hit]);
  }
  const origins: OriginGroup[] = [];
  for (const storyId of [...byStory.keys()].sort(compareText)) {
    const story: StoryOrigins = { groups: [] };
    for (const hit of byStory.get(storyId)!.sort(earliestFirst)) place(story, storyId, readPassage(hit));
    for (const group of story.groups) {
      group.confidence = confidenceOf(group);
      origins.push(group);
    }
  }
  return origins;
}

export function representativeOf(origin: OriginGroup): PassageReading {
  return origin.own[0];
}

/** Every passage of an origin, earliest first. */
export function membersOf(origin: OriginGroup): PassageReading[] {
  return [...origin.own, ...origin.republishes].sort((left, right) => earliestFirst(left.hit, right.hit));
}

/** Earliest declared publish date of a member, else the earliest crawl time. */
export function earliestPublishedAt(origin: OriginGroup): number {
  const members = membersOf(origin);
  const dated = members.filter((member) => member.hit.published_at !== undefined).map((member) => member.hit.published_at!);
  if (dated.length > 0) return Math.min(...dated);
  return Math.min(...members.map((member) => member.hit.fetched_at));
}

/** Whether any member declares a publish date. */
export function isDated(origin: OriginGroup): boolean {
  return membersOf(origin).some((member) => member.hit.published_at !== undefined);
}

/** The SPEC Origin (2.6). */
export function originBody(origin: OriginGroup) {
  const members = membersOf(origin);
  return {
    id: origin.id,
    story_id: origin.storyId,
    kind: origin.kind,
    owner: origin.owner,
    hosts: unique(members.map((member) => member.hit.host)).sort(compareText),
    registrable_domains: unique(members.map((member) => member.hit.registrable_domain || member.hit.host)).sort(compareText),
    members: members.map((member) => member.hit.id),
    representative: representativeOf(origin).hit.id,
    earliest_published_at: earliestPublishedAt(origin),
    confidence: origin.confidence,
  };
}
