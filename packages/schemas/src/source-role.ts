/**
 * The source role of a page (SPEC 2.6), the one classifier: ingest records its answer with every
 * passage, and the evidence layer asks it for a passage that carries none (from what the passage
 * itself records: host, registrable domain, tld, URL, content type, origin type).
 *
 * Roles: official (government, regulator, court or university host), primary (documentation,
 * academic paper, code, a published document, an organisation's own release or newsroom),
 * secondary (reporting or reference about the subject), aggregator, ugc (forums, Q&A, social,
 * video sharing).
 *
 * Independent signals each vote for a role with a weight: the public suffix (.gov, .gov.uk,
 * .gouv.fr, .mil, .edu, .ac.uk, .int; weight 2), host and registrable-domain patterns, the URL
 * path, the content_type, the owners table (owner kind, or a role the operator declared: weight
 * 3) and the page's origin (a press release is the organisation's own words). A vote may also
 * fit other roles (a `document` fits official as well as primary) and then counts for them too.
 * The role with the largest weight wins (ties: official, primary, ugc, aggregator, secondary);
 * its confidence is agree/total x (1 - 0.5^agree) over the weights, so one lone signal gives 0.5,
 * two agreeing 0.75, three 0.875, and disagreement lowers it. No signal at all: `unknown`, 0.
 */
import type { RequirableRole } from './ground.js';
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

interface Vote {
  role: RequirableRole;
  weight: number;
  /** Roles this signal is also consistent with. */
  fits?: readonly RequirableRole[];
}

const TIE_ORDER: readonly RequirableRole[] = ['official', 'primary', 'ugc', 'aggregator', 'secondary'];

/** Labels that make a public suffix governmental or academic: `gov`, `gov.uk`, `ac.jp`, `gouv.fr`. */
const OFFICIAL_SUFFIX_LABELS = new Set(['gov', 'gouv', 'gob', 'go', 'govt', 'gv', 'mil', 'edu', 'ac', 'int']);
const OFFICIAL_HOST = /(?:^|\.)(?:europa\.eu|court|courts|judiciary|curia|tribunal)(?:\.|$)|(?:^|[.-])(?:supremecourt|uscourts)\./;
const REGULATOR_HOST = /^(?:www\.)?(?:sec|ftc|fca|fda|fdic|cftc|finra|ecb|esma|eba|federalreserve|bankofengland|bundesbank|banque-france|bde|bafin|cnmv|consob|ofcom|ofgem)\./;

const DOCS_HOST = /^(?:docs|doc|developer|developers|devdocs|api|reference|learn|manual|man)\./;
const NEWSROOM_HOST = /^(?:newsroom|press|pressroom|media|ir|investors?|corporate)\./;
const ACADEMIC_HOST = /^(?:journals?|papers|eprints|repository|scholar)\./;
const CODE_DOMAINS = new Set(['github.com', 'gitlab.com', 'codeberg.org', 'bitbucket.org', 'sr.ht', 'sourceforge.net', 'gitee.com']);
const ACADEMIC_DOMAINS = new Set([
  'arxiv.org', 'biorxiv.org', 'medrxiv.org', 'ssrn.com', 'nber.org', 'doi.org', 'plos.org', 'jstor.org', 'springer.com',
  'sciencedirect.com', 'acm.org', 'ieee.org', 'openreview.net', 'semanticscholar.org', 'zenodo.org', 'hal.science', 'pubmed.gov',
]);
const DOCS_DOMAINS = new Set(['readthedocs.io', 'readthedocs.org', 'docs.rs']);

const UGC_HOST = /^(?:forum|forums|community|communities|board|boards|discuss|discussion|answers|ask|social|talk)\./;
const UGC_DOMAINS = new Set([
  'reddit.com', 'stackoverflow.com', 'stackexchange.com', 'quora.com', 'twitter.com', 'x.com', 'facebook.com', 'instagram.com',
  'tiktok.com', 'youtube.com', 'youtu.be', 'vimeo.com', 'tumblr.com', 'pinterest.com', 'threads.net', 'mastodon.social',
  'bsky.app', 'discord.com', 'twitch.tv', 'medium.com', 'substack.com',
]);
/** The name part of a registrable domain that says forum, Q&A, chat or video sharing. */
const UGC_NAME = /forum|boards?$|^chat|chat$|^talk|talk$|answers|^ask|questions|^thread|video|^clip|tube$/;
const AGGREGATOR_NAME = /aggregat|headline|roundup|digest|topstories|feedlines|newsnow/;
const AGGREGATOR_DOMAINS = new Set(['news.google.com', 'flipboard.com', 'feedly.com', 'ground.news', 'newsnow.co.uk', 'allsides.com']);

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
  ownerKind?: OwnerKind;
  /** The role the operator declared for this host or domain (owners table), if any. */
  declaredRole?: RequirableRole;
  pageOrigin: PageOrigin;
}

function suffixVote(publicSuffix: string): Vote | undefined {
  if (publicSuffix === '') return undefined;
  const labels = publicSuffix.split('.');
  // `gov`, `edu`, `mil`, `int`, or a second-level suffix such as `gov.uk`, `ac.jp`, `gouv.fr`.
  const official = labels.length === 1 ? OFFICIAL_SUFFIX_LABELS.has(labels[0]) && labels[0] !== 'ac' && labels[0] !== 'go' : OFFICIAL_SUFFIX_LABELS.has(labels[0]);
  return official ? { role: 'official', weight: 2 } : undefined;
}

/** Everything the host alone says; cached because hosts repeat across a crawl. */
function hostVotes(host: string, registrableDomain: string, publicSuffix: string): Vote[] {
  const votes: Vote[] = [];
  const suffix = suffixVote(publicSuffix);
  if (suffix !== undefined) votes.push(suffix);
  if (OFFICIAL_HOST.test(host) || REGULATOR_HOST.test(host)) votes.push({ role: 'official', weight: 1 });
  const name = publicSuffix !== '' && registrableDomain.endsWith(`.${publicSuffix}`) ? registrableDomain.slice(0, -publicSuffix.length - 1) : registrableDomain;
  if (DOCS_HOST.test(host) || DOCS_DOMAINS.has(registrableDomain) || DOCS_DOMAINS.has(host)) votes.push({ role: 'primary', weight: 1, fits: ['official'] });
  if (CODE_DOMAINS.has(registrableDomain)) votes.push({ role: 'primary', weight: 1 });
  if (ACADEMIC_DOMAINS.has(registrableDomain) || ACADEMIC_HOST.test(host)) votes.push({ role: 'primary', weight: 1, fits: ['official'] });
  if (NEWSROOM_HOST.test(host)) votes.push({ role: 'primary', weight: 1 });
  if (UGC_HOST.test(host) || UGC_DOMAINS.has(registrableDomain) || UGC_NAME.test(name)) votes.push({ role: 'ugc', weight: 1 });
  if (AGGREGATOR_DOMAINS.has(host) || AGGREGATOR_DOMAINS.has(registrableDomain) || AGGREGATOR_NAME.test(name)) votes.push({ role: 'aggregator', weight: 1 });
  return votes;
}

const HOST_VOTE_CACHE_LIMIT = 50_000;
const hostVoteCache = new Map<string, Vote[]>();

function cachedHostVotes(host: string, registrableDomain: string, publicSuffix: string): Vote[] {
  const cached = hostVoteCache.get(host);
  if (cached !== undefined) return cached;
  const votes = hostVotes(host, registrableDomain, publicSuffix);
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

/** The source role of a page (every passage of a page shares it). */
export function deriveSourceRole(input: RoleInput): RoleDecision {
  const votes: Vote[] = [...cachedHostVotes(input.host, input.registrableDomain, input.publicSuffix)];
  if (input.declaredRole !== undefined) votes.push({ role: input.declaredRole, weight: 3 });
  for (const [pattern, vote] of PATH_RULES) {
    if (pattern.test(input.path)) {
      votes.push(vote);
      break;
    }
  }
  if (input.contentType !== undefined) {
    const vote = CONTENT_TYPE_VOTES[input.contentType];
    if (vote !== undefined) votes.push(vote);
  }
  if (input.ownerKind !== undefined) votes.push(OWNER_KIND_VOTES[input.ownerKind]);
  if (input.pageOrigin === 'press_release') votes.push({ role: 'primary', weight: 1 });
  else if (input.pageOrigin === 'wire') votes.push({ role: 'secondary', weight: 1 });
  return weighVotes(votes);
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
