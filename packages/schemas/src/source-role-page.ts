/**
 * What a page's own shape says about its source role (SPEC 2.6), where the host name alone only
 * guesses: the part of the source-role classifier that reads the page (its title, the start of
 * its text and its URL path). source-role.ts weighs these votes with the host's; the evidence
 * layer, which has no page text, gets only the path vote.
 *
 * Shapes, each a class of page, never a list of sites:
 * - a personal homepage (primary, weight PERSONAL_WEIGHT): at least two of a title that is a
 *   person's name (two to four name-shaped words, no common word: `Luca Soldaini`, `Amy X. Zhang
 *   - UW CSE`, `research | Kyle Lo`), a first-person introduction of a professional role near
 *   the start (`I am a Senior Research Scientist`, `I'm a Lead Scientist`, `My name is`), and a
 *   scholar's own record (`Publications`, `Ph.D.`, `curriculum vitae`, `research interests`).
 *   One person writing about their own work is the primary source on it; the host-name model
 *   reads such a name (`soldaini.net`, `kyleclo.com`) as a news name.
 * - a user's space on a portal (ugc, weight USER_PATH_WEIGHT): a path `/u/NAME`, `/user/NAME`,
 *   `/users/NAME`, `/member(s)/NAME`, `/profile/NAME`, and on a `blog.` host a first segment that
 *   is a handle followed by a post number or an article path (`blog.naver.com/HANDLE/2231...`,
 *   `blog.csdn.net/HANDLE/article/details/...`): the `blog.` host rule reads an organisation's
 *   own blog, which such paths are not.
 * - a roundup of others' coverage (aggregator, weight ROUNDUP_WEIGHT): the page announces in its
 *   title or lead that it collects what others say (`Here's what the early reviews say`, `here is
 *   what critics are saying`, `review roundup`). A newspaper's own roundup page reads as
 *   aggregating too (the news-name vote also fits aggregator).
 * - an editorial review (secondary, weight 1): two of a tester or reviewer credit (`Tested by:`,
 *   `Reviewed by:`), a price line (`RRP:`, `Price:`), a verdict or rating line (`Verdict:`,
 *   `Rating:`, stars): a magazine's test of a product, which the text model reads as a forum post
 *   from its first person.
 *
 * The weights are set so that a shape outweighs the host-name model's vote (at most 1; the roundup
 * only a weak one) and the fallback, but not two agreeing host rules (a newspaper's name and its
 * text's register).
 * What it cannot know: a personal page without a name title or a professional self-introduction
 * (a hobby page), a portal's user paths of other forms.
 */
import type { Vote } from './source-role.js';

/** What of the page the shapes read. */
export interface PageShapeInput {
  title?: string;
  text?: string;
  /** The URL path, from its first `/`. */
  path: string;
  /** The first subdomain label other than `www` (`blog` of `blog.naver.com`), empty for none. */
  firstLabel: string;
}

export const PERSONAL_WEIGHT = 1.25;
export const USER_PATH_WEIGHT = 1.5;
export const REVIEW_WEIGHT = 1;
export const ROUNDUP_WEIGHT = 0.75;

/** How much of the text's start the introduction and review markers are looked for in. */
const LEAD_SPAN = 1500;
/** How much of the text the scholar's record is looked for in (a publications list follows the introduction). */
const RECORD_SPAN = 6000;

/** Words that make a title segment a phrase, not a name (`Meet Our Team`, `About Me`, `Business Focus`). */
const NOT_NAME_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'at', 'to', 'for', 'with', 'by', 'from', 'my', 'our', 'your', 'me', 'us', 'we',
  'i', 'is', 'are', 'was', 'be', 'it', 'this', 'that', 'about', 'home', 'homepage', 'page', 'welcome', 'blog', 'news', 'team',
  'meet', 'people', 'research', 'publications', 'projects', 'contact', 'lab', 'group', 'facts', 'focus', 'business', 'online',
  'how', 'what', 'why', 'who', 'when', 'new', 'top', 'best', 'review', 'reviews', 'guide', 'official', 'site', 'website', 'shop',
  'store', 'world', 'day', 'week', 'year', 'bell', 'opening', 'open', 'thread', 'forum', 'university', 'college', 'school',
  'institute', 'department', 'center', 'centre', 'company', 'inc', 'ltd', 'llc', 'corp', 'services', 'solutions',
  // site furniture a title segment may be
  'related', 'post', 'posts', 'comments', 'search', 'icon', 'menu', 'login', 'sign', 'archive', 'archives', 'category', 'tag',
]);
/** A name-shaped word: capitalised letters (with an inner hyphen or apostrophe), or an initial. */
const NAME_WORD = /^(?:\p{Lu}[\p{Ll}'’-]*\p{Ll}|\p{Lu}\.?)$/u;

/** Whether a title holds a person's name as one of its segments (`Amy X. Zhang - UW CSE`, `research | Kyle Lo`). */
export function titleIsPersonName(title: string): boolean {
  for (const segment of title.split(/\s[|–—:·-]\s|\s*[|–—·]\s*/)) {
    const words = segment.trim().split(/\s+/).filter((word) => word !== '');
    if (words.length < 2 || words.length > 4) continue;
    if (!words.every((word) => NAME_WORD.test(word) && !NOT_NAME_WORDS.has(word.toLowerCase().replace(/\.$/, '')))) continue;
    // Initials alone (`U. S.`) are not a name: at least two written-out words (`Kyle Lo`).
    if (words.filter((word) => !/^\p{Lu}\.?$/u.test(word)).length >= 2) return true;
  }
  return false;
}

/**
 * A first-person introduction of a professional role or of one's own work: `I am a Senior
 * Research Scientist at`, `I'm a PhD student`, `My name is`, `I am co-leading`, `I study`.
 */
const SELF_INTRODUCTION =
  /\b(?:my name is|I (?:am |['’]m )?(?:co-)?(?:lead|leading|study|studying|research|researching|work on|working on)\b|i(?: am|['’]m)(?: currently)? (?:a|an|the)\b[^.\n]{0,80}?\b(?:scientist|researcher|professor|student|candidate|postdoc|post-doc|fellow|lecturer|engineer|linguist|economist|historian|physicist|mathematician|psychologist|sociologist|designer|developer|writer|artist|phd|ph\.d\.?))/i;
/** A scholar's own record: a publications list, a doctorate, a CV, research interests. */
const SCHOLAR_RECORD = /\b(?:publications|selected papers|curriculum vitae|google scholar|research interests|ph\.d\.?|phd)(?![a-z])|\bCV\b/i;

/** How many of the personal-homepage markers a page holds (see the module comment). */
export function personalHomepageMarkers(title: string, text: string): number {
  let markers = 0;
  if (titleIsPersonName(title)) markers++;
  if (SELF_INTRODUCTION.test(text.slice(0, LEAD_SPAN))) markers++;
  if (SCHOLAR_RECORD.test(text.slice(0, RECORD_SPAN))) markers++;
  return markers;
}

/** A user's own space on a portal, by path. */
const USER_SPACE_PATH = /^\/(?:u|user|users|member|members|profile|profiles)\/[^/]+/i;
/** On a `blog.` host: a handle (it holds a letter) followed by a post number or an article path. */
const BLOG_USER_PATH = /^\/(?=[\w.-]*[a-z])[\w.-]{3,40}\/(?:\d{5,}(?:[/.?]|$)|article\/|archives\/\d|post\/|p\/\d)/i;
const BLOG_LABEL = /^(?:blog|blogs)$/;

/** A page that says it collects what others say: `Here's what the early reviews say`, `review roundup`. */
const ROUNDUP =
  /\b(?:here['’]s|here is|this is) what (?:the )?(?:early |first )?(?:reviews|critics|reviewers|experts|analysts|the press|people|everyone|twitter|the internet|fans|media)\b[^.:\n]{0,30}?\b(?:are )?(?:say(?:ing)?|think(?:ing)?|said)\b|\b(?:review|news|reaction|press)s? round-?up\b/i;

/** An editorial review's markers: a tester or reviewer credit, a price line, a verdict or rating line. */
const REVIEW_CREDIT = /\b(?:[Tt]ested|[Rr]eviewed|[Rr]eview) by:?\s+\p{Lu}/u;
const REVIEW_PRICE = /\b(?:RRP|MSRP|Price|Prices? from|Retail price):?\s*[£$€¥]?\s?\d/;
const REVIEW_VERDICT = /\b(?:Verdict|Rating|Our rating|Score):\s|★/;

/** Every vote the page's shape casts (see the module comment). */
export function pageShapeVotes(input: PageShapeInput): Vote[] {
  const votes: Vote[] = [];
  if (USER_SPACE_PATH.test(input.path) || (BLOG_LABEL.test(input.firstLabel) && BLOG_USER_PATH.test(input.path))) {
    votes.push({ role: 'ugc', weight: USER_PATH_WEIGHT, reason: 'a user’s space on a portal (path)' });
  }
  const text = input.text ?? '';
  const title = input.title ?? '';
  if (text === '' && title === '') return votes;
  if (personalHomepageMarkers(title, text) >= 2) votes.push({ role: 'primary', weight: PERSONAL_WEIGHT, fits: ['official'], reason: 'a personal homepage (name title, self-introduction, scholar’s record)' });
  const lead = text.slice(0, LEAD_SPAN);
  const reviewMarkers = (REVIEW_CREDIT.test(lead) ? 1 : 0) + (REVIEW_PRICE.test(lead) ? 1 : 0) + (REVIEW_VERDICT.test(text.slice(-LEAD_SPAN)) || REVIEW_VERDICT.test(lead) ? 1 : 0);
  if (ROUNDUP.test(title) || ROUNDUP.test(lead)) votes.push({ role: 'aggregator', weight: ROUNDUP_WEIGHT, reason: 'a roundup of others’ coverage' });
  if (reviewMarkers >= 2) votes.push({ role: 'secondary', weight: REVIEW_WEIGHT, reason: 'an editorial review (tester credit, price, verdict)' });
  return votes;
}
