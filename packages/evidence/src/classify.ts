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
 * Source role (SPEC 2.6): official for government, military, intergovernmental, university and
 * court hosts; primary for documentation, academic papers, code, published documents and an
 * organisation's own release; secondary for reporting and reference; ugc for forums, Q&A and
 * social; aggregator for a republishing collector; unknown when nothing says.
 */
import type { OriginType, SourceRole } from '@evidence/schemas';
import type { EvidenceHit } from './types.js';

export const ORIGIN_TYPE_VALUES: readonly OriginType[] = ['original', 'wire', 'press_release', 'republish', 'unknown'];
export const SOURCE_ROLE_VALUES: readonly SourceRole[] = ['official', 'primary', 'secondary', 'aggregator', 'ugc', 'unknown'];

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

/** The origin type the text's markers show, or null when they show none. */
export function markedOriginType(text: string): Exclude<OriginType, 'original' | 'unknown'> | null {
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
  return value !== undefined && (ORIGIN_TYPE_VALUES as readonly string[]).includes(value);
}

/** The stored origin type, else the marked one, else `original` (the story walk decides copies). */
export function originTypeOf(hit: EvidenceHit): OriginTypeReading {
  if (isOriginType(hit.origin_type)) return { type: hit.origin_type, stored: true, marked: false };
  const marked = markedOriginType(hit.snippet);
  if (marked) return { type: marked, stored: false, marked: true };
  return { type: 'original', stored: false, marked: false };
}

// ------------------------------------------------------------------ source role

const OFFICIAL_TLDS = new Set(['gov', 'mil', 'edu', 'int']);
/** Second-level labels that mark government and academic hosts under a country code (gov.uk, ac.jp, gouv.fr, ...). */
const OFFICIAL_SECOND_LEVEL = new Set(['gov', 'govt', 'gouv', 'gob', 'go', 'mil', 'edu', 'ac', 'admin', 'bund', 'gv']);
const OFFICIAL_NAME = /(?:^|[.-])(?:court|courts|judiciary|parliament|senate|congress|ministry|ministerio|regierung|europa)(?:[.-]|$)/;
const UGC_HOST = /(?:^|\.)(?:reddit|quora|stackexchange|stackoverflow|superuser|serverfault|discord|twitter|x|facebook|instagram|tiktok|youtube|medium|substack|tumblr|forums?|community|discourse|answers|boards?)\./;
const CODE_HOST = /(?:^|\.)(?:github\.com|gitlab\.com|codeberg\.org|bitbucket\.org|git\.sr\.ht|sourceforge\.net)$/;
const ACADEMIC_HOST = /(?:^|\.)(?:arxiv\.org|\w*rxiv\.org|doi\.org|pubmed\.ncbi\.nlm\.nih\.gov|ssrn\.com|nber\.org|jstor\.org)$|(?:^|\.)journals?\./;
const DOCS_HOST = /^(?:docs?|developer|developers|devdocs|api|reference)\./;

const ROLE_OF_CONTENT_TYPE: Record<string, { role: SourceRole; confidence: number }> = {
  docs: { role: 'primary', confidence: 0.7 },
  academic: { role: 'primary', confidence: 0.7 },
  code: { role: 'primary', confidence: 0.7 },
  document: { role: 'primary', confidence: 0.55 },
  product: { role: 'primary', confidence: 0.45 },
  news: { role: 'secondary', confidence: 0.6 },
  article: { role: 'secondary', confidence: 0.55 },
  reference: { role: 'secondary', confidence: 0.6 },
  opinion: { role: 'secondary', confidence: 0.5 },
  'how-to': { role: 'secondary', confidence: 0.5 },
  video: { role: 'secondary', confidence: 0.4 },
  forum: { role: 'ugc', confidence: 0.8 },
  qa: { role: 'ugc', confidence: 0.8 },
};

export interface RoleReading {
  role: SourceRole;
  confidence: number;
  stored: boolean;
}

function isSourceRole(value: string | undefined): value is SourceRole {
  return value !== undefined && (SOURCE_ROLE_VALUES as readonly string[]).includes(value);
}

function isOfficialHost(host: string, tld: string | undefined): { official: boolean; confidence: number } {
  const labels = host.toLowerCase().split('.');
  const last = (tld ?? labels[labels.length - 1] ?? '').toLowerCase();
  if (OFFICIAL_TLDS.has(last)) return { official: true, confidence: 0.9 };
  if (labels.length >= 3 && last.length === 2 && OFFICIAL_SECOND_LEVEL.has(labels[labels.length - 2])) return { official: true, confidence: 0.9 };
  if (OFFICIAL_NAME.test(host.toLowerCase())) return { official: true, confidence: 0.7 };
  return { official: false, confidence: 0 };
}

/** The role of a passage from host, tld, content type and its origin type. */
export function derivedRole(hit: EvidenceHit, originType: OriginType): { role: SourceRole; confidence: number } {
  const host = hit.host.toLowerCase();
  const official = isOfficialHost(host, hit.tld);
  if (official.official) return { role: 'official', confidence: official.confidence };
  if (UGC_HOST.test(`${host}.`)) return { role: 'ugc', confidence: 0.75 };
  if (originType === 'press_release') return { role: 'primary', confidence: 0.7 };
  if (CODE_HOST.test(host) || ACADEMIC_HOST.test(host)) return { role: 'primary', confidence: 0.7 };
  if (originType === 'republish') return { role: 'aggregator', confidence: 0.5 };
  const byType = hit.content_type ? ROLE_OF_CONTENT_TYPE[hit.content_type] : undefined;
  if (byType) return byType;
  if (DOCS_HOST.test(host)) return { role: 'primary', confidence: 0.6 };
  if (originType === 'wire') return { role: 'secondary', confidence: 0.6 };
  return { role: 'unknown', confidence: 0 };
}

/** The stored role (with its confidence), else the derived one. */
export function roleOf(hit: EvidenceHit, originType: OriginType): RoleReading {
  if (isSourceRole(hit.source_role)) {
    const confidence = typeof hit.role_confidence === 'number' && Number.isFinite(hit.role_confidence) ? hit.role_confidence : STORED_ROLE_CONFIDENCE;
    return { role: hit.source_role, confidence: Math.min(1, Math.max(0, confidence)), stored: true };
  }
  return { ...derivedRole(hit, originType), stored: false };
}
