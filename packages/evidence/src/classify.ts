/**
 * Origin type and source role of one passage. Ingest records them (`origin_type`, `source_role`,
 * `role_confidence`); when a passage carries none, they are derived here, deterministically,
 * from the host, its top-level domain, the content type and markers in the text. A derived
 * value is a fallback and says so through a lower confidence.
 *
 * Origin type markers (on the passage text):
 * - wire: a wire dateline at the start ("NAIROBI (AW) — ", "LONDON, March 3 (Global Dispatch) - ")
 *   or a wire credit ("Associated Wire writer Jane Doe contributed to this report").
 * - press_release: "FOR IMMEDIATE RELEASE", a release-wire slug ("/PR Newswire/ --"), a
 *   "Media contact:" block, a forward-looking-statements notice, or "today announced" next to a
 *   stock ticker ("(NASDAQ: HLXB)").
 * - republish: a trailing attribution to someone else ("Source: Associated Wire."), "originally
 *   published by/in/at", "this article first appeared", "republished from/with permission".
 *
 * Source role (SPEC 2.6): the classifier ingest runs (`deriveSourceRole` in @evidence/schemas),
 * over what the passage records.
 */
import { deriveSourceRole, ORIGIN_TYPES, publicSuffixOf, SOURCE_ROLES, urlPath, type OriginType, type SourceRole } from '@evidence/schemas';
import type { EvidenceHit } from './types.js';


/** Confidence given to a stored role that came without one. */
export const STORED_ROLE_CONFIDENCE = 0.8;

// ------------------------------------------------------------------ origin type

const WIRE_DATELINE = /^[A-Z][A-Z .'’-]{1,40}(?:, [A-Z][a-z]+\.? \d{1,2})? \((?:[A-Z]{2,6}|[A-Z][A-Za-z&.' ]{2,40})\) ?[—–-]{1,2} /;
const WIRE_CREDIT = /\b[A-Z][\w&.]*(?: [A-Z][\w&.]*){0,3} writers? [A-Z][\p{L}'’-]+(?: [A-Z][\p{L}'’-]+)* (?:in [A-Z][\p{L} ]+ )?contributed to this report\b/u;
const PRESS_RELEASE_MARKERS: RegExp[] = [
  /\bFOR IMMEDIATE RELEASE\b/i,
  /\/[A-Z][\w .&-]{1,40}\/ --? /,
  /\bMedia (?:contact|inquiries|relations)\s*:/i,
  /\bforward-looking statements\b/i,
  /\btoday announced\b[\s\S]{0,200}\((?:NASDAQ|NYSE|LSE|TSX|XETRA|Euronext|OTC)[^)]{0,20}:\s*[A-Z.]{1,6}\)|\((?:NASDAQ|NYSE|LSE|TSX|XETRA|Euronext|OTC)[^)]{0,20}:\s*[A-Z.]{1,6}\)[\s\S]{0,200}\btoday announced\b/,
];
const REPUBLISH_MARKERS: RegExp[] = [
  /(?:^|[.!?]\s+|\n)(?:Source|Via|Originally published (?:by|in|at|on)) ?: ?[A-Z][^.\n]{1,80}\.?\s*$/,
  /\boriginally (?:published|appeared) (?:by|in|at|on) [A-Z]/i,
  /\bthis (?:article|story|post) (?:first|originally) appeared\b/i,
  /\brepublished (?:with permission )?(?:from|by)\b/i,
];

/**
 * The origin type one passage's text marks itself with, or null when it marks none: the fallback
 * for a passage that recorded no origin type.
 *
 * Not ingest's page classifier (`detectPageOrigin`, packages/ingest origin.ts), which answers
 * another question: whether a whole page is a press release or a wire story, from all its
 * paragraphs, its host and the operator's owners table (release wires, wire services and their
 * bylines), before the page's earlier story members decide whether it is a copy. Here there is
 * one passage and no owners table: a passage is usually one paragraph of its page, so one
 * press-release marker may be all it shows; a wire credit is known by its form, not from a list
 * of bylines; and an attribution line marks a republish even when nothing earlier in the story was
 * retrieved (its source not in the index: the story walk in origins.ts, rule 3).
 */
export function originMarkedInPassage(text: string): Exclude<OriginType, 'original' | 'unknown'> | null {
  if (WIRE_DATELINE.test(text) || WIRE_CREDIT.test(text)) return 'wire';
  if (PRESS_RELEASE_MARKERS.some((marker) => marker.test(text))) return 'press_release';
  if (REPUBLISH_MARKERS.some((marker) => marker.test(text))) return 'republish';
  return null;
}

export interface OriginTypeReading {
  type: OriginType;
  /** Recorded at ingest (true) or derived here (false). */
  stored: boolean;
  /** Derived from a text marker (as opposed to no marker at all). */
  marked: boolean;
}

function isOriginType(value: string | undefined): value is OriginType {
  return value !== undefined && (ORIGIN_TYPES as readonly string[]).includes(value);
}

/** The stored origin type, else the marked one, else `original` (the story walk decides copies). */
export function originTypeOf(hit: EvidenceHit): OriginTypeReading {
  if (isOriginType(hit.origin_type)) return { type: hit.origin_type, stored: true, marked: false };
  const marked = originMarkedInPassage(hit.snippet);
  if (marked) return { type: marked, stored: false, marked: true };
  return { type: 'original', stored: false, marked: false };
}

// ------------------------------------------------------------------ source role

export interface RoleReading {
  role: SourceRole;
  confidence: number;
  stored: boolean;
}

function isSourceRole(value: string | undefined): value is SourceRole {
  return value !== undefined && (SOURCE_ROLES as readonly string[]).includes(value);
}

/**
 * The role ingest would have recorded, from what the passage records (the classifier ingest
 * runs, without the owners table the evidence layer does not read): host, registrable domain,
 * public suffix, URL path, content type, and a press release or wire origin.
 */
export function derivedRole(hit: EvidenceHit, originType: OriginType): { role: SourceRole; confidence: number } {
  const host = hit.host.toLowerCase();
  return deriveSourceRole({
    host,
    registrableDomain: hit.registrable_domain,
    publicSuffix: publicSuffixOf({ host, tld: hit.tld ?? '', registrableDomain: hit.registrable_domain }),
    path: urlPath(hit.url),
    contentType: hit.content_type,
    pageOrigin: originType === 'press_release' || originType === 'wire' ? originType : 'none',
  });
}

/** The stored role (with its confidence), else the derived one. */
export function roleOf(hit: EvidenceHit, originType: OriginType): RoleReading {
  if (isSourceRole(hit.source_role)) {
    const confidence = typeof hit.role_confidence === 'number' && Number.isFinite(hit.role_confidence) ? hit.role_confidence : STORED_ROLE_CONFIDENCE;
    return { role: hit.source_role, confidence: Math.min(1, Math.max(0, confidence)), stored: true };
  }
  return { ...derivedRole(hit, originType), stored: false };
}
