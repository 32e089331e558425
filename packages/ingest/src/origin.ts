/**
 * Origin type rules (SPEC 2.6), deterministic and in one place. A page is first classified as a
 * wire story or a press release from what it says about itself; each passage then gets its
 * origin from that page kind and from the earlier members of its story:
 *
 *   1. press_release: the page is a press release (a release-wire host or owner, "FOR IMMEDIATE
 *      RELEASE", or two of: a release dateline `/Wire Name/ --`, an "About <Company>:"
 *      paragraph, "Media contact:", "Forward-looking statements", the site's own name as the
 *      subject of an announcement in the title or the lead ("my6sense Names ...", "Ascom, a
 *      global solutions provider ..., announced"), the site's own company boilerplate at the end
 *      ("Ascom is headquartered in", "For more information, please visit www.my6sense.com").
 *      The last two read the site's registrable name, so a news site reporting another
 *      company's release does not hold them.
 *   2. wire: the page is a wire story (a dateline crediting an agency, `CITY (AP) — `, a byline
 *      naming a known wire service, or a wire-service owner).
 *   3. republish: a later copy of an origin already in the story: the same normalised text as
 *      an earlier member at another host, or a near-duplicate of an earlier member with the
 *      same owner.
 *   4. original: no earlier member in the story.
 *   5. unknown: a later near-duplicate of another owner's passage that none of the above
 *      explains (for example an aggregator's edited copy).
 *
 * "Earlier" is by published_at, else fetched_at; equal times go by arrival order.
 */
import type { OriginType, PageOrigin } from '@evidence/schemas';
import type { OwnerKind, OwnersTable } from './owners.js';

export { ORIGIN_TYPES, type OriginType } from '@evidence/schemas';

export type { PageOrigin };

/** What the earlier members of a passage's story say about it. */
export interface EarlierMembers {
  /** At least one member of the story is earlier than this passage. */
  any: boolean;
  /** An earlier member has the same normalised text at another host. */
  verbatimElsewhere: boolean;
  /** An earlier member has the same owner. */
  sameOwner: boolean;
}

/** Release hosts by name: `newsreleasewire.com`, `businesspresswire.net`, `prnewswire.com`... */
const RELEASE_WIRE_DOMAIN = /(?:release|presswire|prnewswire|businesswire|globenewswire|accesswire|prweb|prdistribution|prlog|openpr)/;
/** `CITY (AP) — `, `LONDON, March 4 (Reuters) - `: an all-caps place, an optional date, a credit. */
const WIRE_DATELINE = /^\s*[A-ZÀ-Ý][A-ZÀ-Ý.'’ -]{1,40}?(?:,\s*[A-Z][a-z]{2,9}\.?\s+\d{1,2}(?:,\s*\d{4})?)?\s*\(([^()\n]{2,40})\)\s*[—–-]{1,2}\s/;
/** `HOUSTON, March 4, 2025 /PR Newswire/ -- ` */
const RELEASE_DATELINE = /\/[A-Z][\w .&'-]{1,40}\/\s*--/;
const ABOUT_PARAGRAPH = /(?:^|\n)\s*About [A-Z][^\n:]{1,60}:/;
const IMMEDIATE_RELEASE = /for immediate release/i;
const RELEASE_CONTACT = /\b(?:media|press|investor) contacts?\b/i;
const FORWARD_LOOKING = /forward-looking statements/i;
const DATELINE_SPAN = 240;
/** Verbs an organisation announces its own news with (title or lead). */
const ANNOUNCING = /\b(?:announce[sd]?|introduce[sd]?|launch(?:es|ed)?|unveil(?:s|ed)?|names|named|appoint(?:s|ed)?|is adding|adds|partners? with|partnered with|acquires?|acquired|releases|released|selects|selected|expands|expanded|opens|opened|signs|signed|receives|received|wins|won)\b/i;
/** A company boilerplate's words (the end of a release). */
const BOILERPLATE = /\b(?:is headquartered|headquartered in|was founded in|founded in \d{4}|employs (?:around |about |over |more than )?[\d,]+|is listed on|shares .{0,40}are listed|for more information,? (?:please )?visit|['’]s mission is)\b/i;
/** The lead in which the site's own name and an announcing verb are looked for. */
const LEAD_SPAN = 400;
const BOILERPLATE_SPAN = 1200;
/** The shortest registrable name that is matched in a page's words (shorter ones are ordinary words and initials). */
const MIN_OWN_NAME = 4;
const BYLINE_WORD = /writer|staff|reporter|correspondent/i;
/** Wire bylines stand at the end ("... contributed to this report"); credits in a dateline at the start. */
const BYLINE_SPAN = 400;

/**
 * Classify a page from its text, its registrable domain and its owner's kind: is the whole page a
 * press release or a wire story (rules 1 and 2; its story decides the rest). The evidence layer's
 * `originMarkedInPassage` (packages/evidence classify.ts) answers another question: what one
 * passage's text says of its origin when the passage recorded none, without the owners table and
 * the rest of the page; their rules differ on purpose (see there).
 */
export function detectPageOrigin(text: string, registrableDomain: string, ownerKind: OwnerKind | undefined, owners: OwnersTable, title = ''): PageOrigin {
  if (ownerKind === 'release_wire' || RELEASE_WIRE_DOMAIN.test(registrableDomain)) return 'press_release';
  // Literal checks first (no lowercased copy of every page): the patterns run where they can match.
  if ((text.includes('MMEDIATE') || text.includes('mmediate')) && IMMEDIATE_RELEASE.test(text)) return 'press_release';
  const head = text.slice(0, DATELINE_SPAN * 2);
  let markers = 0;
  if (head.includes('/') && RELEASE_DATELINE.test(head)) markers++;
  if ((text.includes('ontact') || text.includes('ONTACT')) && RELEASE_CONTACT.test(text)) markers++;
  if ((text.includes('orward-looking') || text.includes('ORWARD-LOOKING')) && FORWARD_LOOKING.test(text)) markers++;
  if (markers === 1 && ABOUT_PARAGRAPH.test(text)) markers++;
  if (markers < 2) markers += ownReleaseMarkers(text, title, registrableDomain);
  if (markers >= 2) return 'press_release';
  if (ownerKind === 'wire_service') return 'wire';
  const dateline = head.slice(0, DATELINE_SPAN);
  if (dateline.includes('(') && WIRE_DATELINE.test(dateline)) return 'wire';
  const tail = text.slice(-BYLINE_SPAN);
  if (dateline.includes('(') && owners.wireByline.test(dateline)) return 'wire';
  if ((tail.includes('(') || BYLINE_WORD.test(tail)) && owners.wireByline.test(tail)) return 'wire';
  return 'none';
}

/** The site's registrable name in letters and digits (`my6sense` of `my6sense.com`, `ascom` of `ascom.co.uk`), or '' when too short to match. */
function ownName(registrableDomain: string): string {
  const dot = registrableDomain.indexOf('.');
  const name = (dot < 0 ? registrableDomain : registrableDomain.slice(0, dot)).toLowerCase();
  return name.length >= MIN_OWN_NAME && /^[a-z0-9]+$/.test(name) ? name : '';
}

/** Whether `name` stands as a word in `text` (lowercased), possessive included. */
function namesItself(lowered: string, name: string): boolean {
  let at = lowered.indexOf(name);
  while (at >= 0) {
    const before = at === 0 ? ' ' : lowered[at - 1];
    const after = lowered[at + name.length] ?? ' ';
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
    at = lowered.indexOf(name, at + 1);
  }
  return false;
}

/**
 * The site announcing its own news: its name with an announcing verb in the title or the lead
 * (one marker), its own boilerplate at the end (one more). See rule 1.
 */
function ownReleaseMarkers(text: string, title: string, registrableDomain: string): number {
  const name = ownName(registrableDomain);
  if (name === '') return 0;
  let markers = 0;
  const lead = text.slice(0, LEAD_SPAN);
  if ((namesItself(title.toLowerCase(), name) && ANNOUNCING.test(title)) || (namesItself(lead.toLowerCase(), name) && ANNOUNCING.test(lead))) markers++;
  const tail = text.slice(-BOILERPLATE_SPAN);
  if (namesItself(tail.toLowerCase(), name) && BOILERPLATE.test(tail)) markers++;
  return markers;
}

/** The origin type of one passage (rules 1-5 above). */
export function decideOrigin(page: PageOrigin, earlier: EarlierMembers): OriginType {
  if (page === 'press_release') return 'press_release';
  if (page === 'wire') return 'wire';
  if (earlier.verbatimElsewhere || earlier.sameOwner) return 'republish';
  if (!earlier.any) return 'original';
  return 'unknown';
}
