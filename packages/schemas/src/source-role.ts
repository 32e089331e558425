/**
 * The source role of a page (SPEC 2.6), the one classifier: ingest records its answer with every
 * passage, and the evidence layer asks it for a passage that carries none (from what the passage
 * itself records: host, registrable domain, tld, URL, content type, origin type).
 *
 * Roles: official (government, regulator, court or university host), primary (documentation,
 * academic paper, code, a published document, an organisation's own release or newsroom),
 * secondary (reporting or reference about the subject), aggregator, ugc (forums, Q&A, social,
 * video sharing, open blog platforms).
 *
 * Independent signals each vote for a role with a weight: the host (source-role-host.ts: public
 * suffixes, the swot list of academic domains, the public suffix list's user-hosting platforms,
 * name structure such as `docs.` or `forum.`, newspaper and broadcaster names), the URL path, the
 * content_type (a derived one votes with its own confidence as weight: the page's schema.org or
 * Open Graph type, its URL or its text's register), the owners table (owner kind, or a role the
 * operator declared: weight 3), the page's origin (a press release is the organisation's own
 * words) and the page's shape (source-role-page.ts: a personal homepage, a user's space on a
 * portal, a roundup of others' coverage, an editorial review), which outweighs the host-name
 * model's guess. A vote may also fit other roles (a `document` fits official as well as primary) and
 * then counts for them too. The role with the largest weight wins (ties: official, primary, ugc,
 * aggregator, secondary); its confidence is agree/total x (1 - 0.5^agree) over the weights, so
 * one lone signal of weight 1 gives 0.5, two agreeing 0.75, three 0.875, and disagreement lowers
 * it. No signal at all: `secondary` at 0.16 (a fallback vote of weight 0.25, also cast beside a
 * content type that was only guessed from the text): a page that is not on an official,
 * academic, documentation, code, forum or social host and says nothing of itself is most often
 * someone reporting on or describing its subject (on the labelled hosts the fallback was right
 * for 74% of the hosts it was used for). `unknown` (0) is left for a page with no host at all.
 *
 * What it cannot know from the host: which of the many organisations' own sites and news sites
 * with plain names is which (the page's content type decides those at ingest), and social
 * networks whose names say nothing (bebo.com, hi5.com).
 */
import type { RequirableRole } from './ground.js';
import { hostNameParts } from './host-name.js';
import { hostVotes, isOpenPlatform } from './source-role-host.js';
import { pageShapeVotes } from './source-role-page.js';
import { roleHostFeatures, roleModelVote, type RoleModel } from './source-role-model.js';
import { ROLE_MODEL } from './source-role-model.generated.js';
import type { SourceRole } from './vocabulary.generated.js';

/** What an owner is, in the owners table (ingest's `owners.json`). */
export type OwnerKind = 'wire_service' | 'release_wire' | 'aggregator' | 'media_group';

/** What a page says about itself, before its story is looked at. */
export type PageOrigin = 'wire' | 'press_release' | 'none';

export interface RoleDecision {
  role: SourceRole;
  /** 0..1, two decimals. */
  confidence: number;
}

export interface Vote {
  role: RequirableRole;
  weight: number;
  /** Roles this signal is also consistent with. */
  fits?: readonly RequirableRole[];
  /** What was seen (host votes say it; the others are named by their kind). */
  reason?: string;
}

/** The vote cast when nothing else votes: see the module comment. */
export const FALLBACK_VOTE: Vote = { role: 'secondary', weight: 0.25, reason: 'no other signal: a page about its subject' };

const TIE_ORDER: readonly RequirableRole[] = ['official', 'primary', 'ugc', 'aggregator', 'secondary'];

const PATH_RULES: ReadonlyArray<[RegExp, Vote]> = [
  [/^\/(?:docs?|documentation|reference|api|manual|guide|guides)(?:\/|$)/, { role: 'primary', weight: 1, fits: ['official'] }],
  [/^\/(?:press|newsroom|pressroom|press-releases?|news-releases?|media-centre|media-center)(?:\/|$)/, { role: 'primary', weight: 1 }],
  [/^\/(?:abs|pdf|paper|papers|article\/doi)(?:\/|$)/, { role: 'primary', weight: 1 }],
  [/^\/(?:questions|q|t|thread|threads|topic|topics|forum|forums|watch|@[^/]+)(?:\/|$)|^\/r\/[^/]+\/comments\//, { role: 'ugc', weight: 1 }],
  [/^\/wiki\//, { role: 'secondary', weight: 1 }],
];

const CONTENT_TYPE_VOTES: Readonly<Record<string, Vote>> = {
  docs: { role: 'primary', weight: 1, fits: ['official'] },
  code: { role: 'primary', weight: 1 },
  academic: { role: 'primary', weight: 1, fits: ['official'] },
  document: { role: 'primary', weight: 1, fits: ['official'] },
  product: { role: 'primary', weight: 1 },
  news: { role: 'secondary', weight: 1, fits: ['official', 'primary', 'aggregator'] },
  article: { role: 'secondary', weight: 1 },
  reference: { role: 'secondary', weight: 1, fits: ['official'] },
  opinion: { role: 'secondary', weight: 1 },
  'how-to': { role: 'secondary', weight: 1, fits: ['official', 'primary'] },
  forum: { role: 'ugc', weight: 1 },
  qa: { role: 'ugc', weight: 1 },
  video: { role: 'ugc', weight: 0.5, fits: ['secondary'] },
};

const OWNER_KIND_VOTES: Readonly<Record<OwnerKind, Vote>> = {
  wire_service: { role: 'secondary', weight: 1 },
  media_group: { role: 'secondary', weight: 1 },
  aggregator: { role: 'aggregator', weight: 2 },
  release_wire: { role: 'primary', weight: 1 },
};

export interface RoleInput {
  host: string;
  registrableDomain: string;
  /** The public suffix under the registrable domain (`gov.uk`). */
  publicSuffix: string;
  /** The URL path, from its first `/`. */
  path: string;
  contentType?: string;
  /** How much the content type's vote counts, 0..1: 1 for a declared one, the signal's confidence for a derived one. */
  contentTypeWeight?: number;
  ownerKind?: OwnerKind;
  /** The role the operator declared for this host or domain (owners table), if any. */
  declaredRole?: RequirableRole;
  pageOrigin: PageOrigin;
  /** The page's title and text, when the caller has the page (ingest does; the evidence layer does not): source-role-page.ts reads their shape. */
  title?: string;
  text?: string;
}

const HOST_VOTE_CACHE_LIMIT = 50_000;
const hostVoteCache = new Map<string, Vote[]>();

/**
 * What the host says: the rules' votes (source-role-host.ts), and where they weigh at most the
 * model's gate (the shipped gate is 0: where they say nothing), the host-name model's vote
 * (source-role-model.ts) when it is sure enough.
 * `model` is the shipped one; the trainer passes candidates.
 */
export function hostRoleVotes(host: string, registrableDomain: string, publicSuffix: string, model: RoleModel = ROLE_MODEL): Vote[] {
  const votes: Vote[] = hostVotes(host, registrableDomain, publicSuffix);
  const ruleWeight = votes.reduce((sum, vote) => sum + vote.weight, 0);
  // An open platform's own site (`www.free.fr`) is not one of its users' sites, which the rules vote on.
  if (ruleWeight > model.gate || isOpenPlatform(registrableDomain)) return votes;
  const learned = roleModelVote(model, roleHostFeatures(host, registrableDomain, publicSuffix));
  if (learned !== undefined && learned.weight > 0) votes.push({ role: learned.role, weight: learned.weight, reason: `host name model (p ${learned.probability.toFixed(2)})` });
  return votes;
}

function cachedHostVotes(host: string, registrableDomain: string, publicSuffix: string): Vote[] {
  const cached = hostVoteCache.get(host);
  if (cached !== undefined) return cached;
  const votes = hostRoleVotes(host, registrableDomain, publicSuffix);
  if (hostVoteCache.size >= HOST_VOTE_CACHE_LIMIT) hostVoteCache.clear();
  hostVoteCache.set(host, votes);
  return votes;
}

/** Weigh the votes: see the module comment. */
export function weighVotes(votes: readonly Vote[]): RoleDecision {
  if (votes.length === 0) return { role: 'unknown', confidence: 0 };
  let total = 0;
  for (const vote of votes) total += vote.weight;
  let bestRole: RequirableRole = votes[0].role;
  let bestWeight = -1;
  for (const role of TIE_ORDER) {
    if (!votes.some((vote) => vote.role === role)) continue;
    let agreeing = 0;
    for (const vote of votes) if (vote.role === role || vote.fits?.includes(role)) agreeing += vote.weight;
    if (agreeing > bestWeight) {
      bestWeight = agreeing;
      bestRole = role;
    }
  }
  const confidence = (bestWeight / total) * (1 - Math.pow(0.5, bestWeight));
  return { role: bestRole, confidence: Math.round(confidence * 100) / 100 };
}

/** Every vote the page's signals cast (the fallback included when nothing else votes). */
export function sourceRoleVotes(input: RoleInput): Vote[] {
  if (input.host === '') return [];
  const votes: Vote[] = [...cachedHostVotes(input.host, input.registrableDomain, input.publicSuffix)];
  let guessed = 0;
  if (input.declaredRole !== undefined) votes.push({ role: input.declaredRole, weight: 3 });
  for (const [pattern, vote] of PATH_RULES) {
    if (pattern.test(input.path)) {
      votes.push(vote);
      break;
    }
  }
  if (input.contentType !== undefined) {
    const vote = CONTENT_TYPE_VOTES[input.contentType];
    const scale = Math.min(1, Math.max(0, input.contentTypeWeight ?? 1));
    if (vote !== undefined && scale > 0) votes.push(scale === 1 ? vote : { ...vote, weight: vote.weight * scale });
    if (vote !== undefined && scale > 0 && scale < 1) guessed++;
  }
  const firstLabel = hostNameParts(input.host, input.registrableDomain, input.publicSuffix).subLabels[0] ?? '';
  votes.push(...pageShapeVotes({ title: input.title, text: input.text, path: input.path, firstLabel }));
  if (input.ownerKind !== undefined) votes.push(OWNER_KIND_VOTES[input.ownerKind]);
  if (input.pageOrigin === 'press_release') votes.push({ role: 'primary', weight: 1 });
  else if (input.pageOrigin === 'wire') votes.push({ role: 'secondary', weight: 1 });
  // Nothing but a guessed content type votes: the fallback still weighs in, so that a weak guess
  // from the text's register (a chatty blog post read as a forum) does not decide alone.
  if (votes.length === guessed) votes.push(FALLBACK_VOTE);
  return votes;
}

/** The source role of a page (every passage of a page shares it). */
export function deriveSourceRole(input: RoleInput): RoleDecision {
  return weighVotes(sourceRoleVotes(input));
}

/**
 * The public suffix under a registrable domain (`gov.uk` for `www.gov.uk`, `ac.uk` for
 * `ox.ac.uk`); empty for an IP address, which has none.
 */
export function publicSuffixOf(fields: { host: string; tld: string; registrableDomain: string }): string {
  if (fields.registrableDomain === fields.host && fields.tld === '') return '';
  const dot = fields.registrableDomain.indexOf('.');
  return dot < 0 ? fields.registrableDomain : fields.registrableDomain.slice(dot + 1);
}

/** The path of a URL, from its first `/` after the authority, without query or fragment; `/` when it has none. */
export function urlPath(url: string): string {
  const scheme = url.indexOf('://');
  const slash = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  if (slash < 0) return '/';
  let end = url.length;
  const query = url.indexOf('?', slash);
  if (query >= 0) end = query;
  const fragment = url.indexOf('#', slash);
  if (fragment >= 0 && fragment < end) end = fragment;
  return url.slice(slash, end);
}
