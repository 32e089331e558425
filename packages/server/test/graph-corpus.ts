/**
 * A small hand-built corpus with known links, stories, owners and communities, for the related,
 * corroborate and path tests. Page URLs are `https://HOST/articles/PAGE` (see `sourced`).
 *
 * Stories:
 * - harbor-wire: an Associated Wire story (wire:0) carried by two outlets, republished by an
 *   aggregator, carried once more after that, and published on its own by harborpost.org (an
 *   origin of its own, recorded original).
 * - harbor-city: the city's official notice, a near-paraphrase of the wire story.
 * - museum-a / museum-b: a reopening announcement and a report that contradicts it.
 * - herons-a / herons-b: one owner (birdnotes.org) telling the same thing twice.
 * - guide, blog, ferry: pages that link (guide, blog) or share the harbor community (ferry).
 *
 * Links (links.tsv, as ingest writes it, in this order):
 *   wire    -> cityhall, notindexed, carrier1
 *   guide   -> wire, cityhall, claim1
 *   blog    -> wire, claim1
 *   herons2 -> notindexed
 * Community c-harbor: wire, carrier1, cityhall, guide, ferry.
 * Verticals: science, except blog (lifestyle) and ferry (travel).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Passage } from '@evidence/native';
import { DAY, HOUR, NOW, sourced } from './evidence-corpus.js';

export const T0 = NOW - 5 * DAY;
export const url = (host: string, page: string) => `https://${host}/articles/${page}`;

export const URLS = {
  wire: url('www.associatedwire.com', 'wire'),
  carrier1: url('www.riverbendtimes.com', 'carrier1'),
  cityhall: url('www.harborcity.gov', 'cityhall'),
  guide: url('www.bridgeguide.org', 'guide'),
  blog: url('www.commuterblog.net', 'blog'),
  claim1: url('www.artsdaily.com', 'claim1'),
  ferry: url('www.ferrynews.com', 'ferry'),
  herons2: url('www.birdnotes.org', 'herons2'),
  notindexed: 'https://www.notindexed.example/page',
};

export const LINKS: Array<[string, string[]]> = [
  [URLS.wire, [URLS.cityhall, URLS.notindexed, URLS.carrier1]],
  [URLS.guide, [URLS.wire, URLS.cityhall, URLS.claim1]],
  [URLS.blog, [URLS.wire, URLS.claim1]],
  [URLS.herons2, [URLS.notindexed]],
];

const WIRE_TEXT =
  'HARBOR CITY (AW) — The harbor bridge will close for six weeks of cable repairs starting in June, transport officials said on Tuesday.';
export const CITY_TEXT = 'Transport officials announced the harbor bridge will close for six weeks in June while crews carry out cable repairs.';

function withGraph(passage: Passage, extra: { community?: string; links?: string[] }): Passage {
  return { ...passage, ...(extra.community ? { communityId: extra.community } : {}), ...(extra.links ? { links: extra.links } : {}) };
}

const linksOf = (pageUrl: string) => LINKS.find(([from]) => from === pageUrl)?.[1];

export const graphPassages: Passage[] = [
  withGraph(
    sourced('wire:0', WIRE_TEXT, {
      host: 'www.associatedwire.com', owner: 'Associated Wire', story: 'harbor-wire', publishedAt: T0, fetchedAt: T0 + 600,
      originType: 'wire', sourceRole: 'secondary', roleConfidence: 0.85, contentType: 'news', hostRank: 0.88,
    }),
    { community: 'c-harbor', links: linksOf(URLS.wire) },
  ),
  withGraph(
    sourced('carrier1:0', WIRE_TEXT, {
      host: 'www.riverbendtimes.com', story: 'harbor-wire', publishedAt: T0 + HOUR, fetchedAt: T0 + 2 * HOUR,
      originType: 'wire', sourceRole: 'secondary', roleConfidence: 0.8, contentType: 'news', hostRank: 0.7,
    }),
    { community: 'c-harbor' },
  ),
  sourced('carrier2:0', WIRE_TEXT, {
    host: 'www.thebaypioneer.com', story: 'harbor-wire', publishedAt: T0 + 2 * HOUR, fetchedAt: T0 + 3 * HOUR,
    originType: 'wire', sourceRole: 'secondary', roleConfidence: 0.8, contentType: 'news', hostRank: 0.65,
  }),
  sourced('indie:0', WIRE_TEXT, {
    host: 'www.harborpost.org', story: 'harbor-wire', publishedAt: T0 + 3 * HOUR, fetchedAt: T0 + 4 * HOUR,
    originType: 'original', sourceRole: 'secondary', roleConfidence: 0.8, contentType: 'news', hostRank: 0.6,
  }),
  sourced('repost:0', `${WIRE_TEXT} Source: Associated Wire.`, {
    host: 'www.newsroundup.io', story: 'harbor-wire', publishedAt: T0 + 5 * HOUR, fetchedAt: T0 + 6 * HOUR,
    originType: 'republish', sourceRole: 'aggregator', roleConfidence: 0.7, contentType: 'news', hostRank: 0.35,
  }),
  sourced('late:0', WIRE_TEXT, {
    host: 'www.globalobserver.net', story: 'harbor-wire', publishedAt: T0 + 8 * HOUR, fetchedAt: T0 + 9 * HOUR,
    originType: 'wire', sourceRole: 'secondary', roleConfidence: 0.8, contentType: 'news', hostRank: 0.6,
  }),
  withGraph(
    sourced('cityhall:0', CITY_TEXT, {
      host: 'www.harborcity.gov', story: 'harbor-city', publishedAt: T0 - HOUR, fetchedAt: T0,
      originType: 'original', sourceRole: 'official', roleConfidence: 0.95, contentType: 'reference', hostRank: 0.9,
    }),
    { community: 'c-harbor' },
  ),
  withGraph(
    sourced('guide:0', 'A commuter guide to crossing the water: ferries, tunnels and the old bridge, with timetables and fares for every route.', {
      host: 'www.bridgeguide.org', story: 'guide', publishedAt: T0 - 30 * DAY, fetchedAt: T0 - 29 * DAY,
      originType: 'original', sourceRole: 'secondary', roleConfidence: 0.7, contentType: 'reference', hostRank: 0.55,
    }),
    { community: 'c-harbor', links: linksOf(URLS.guide) },
  ),
  withGraph(
    sourced('blog:0', 'My daily commute notes: traffic, parking and what the closures mean for cyclists heading downtown each morning.', {
      host: 'www.commuterblog.net', story: 'blog', publishedAt: T0 - 2 * DAY, fetchedAt: T0 - DAY,
      originType: 'original', sourceRole: 'ugc', roleConfidence: 0.7, contentType: 'opinion', hostRank: 0.3, vertical: 'lifestyle',
    }),
    { links: linksOf(URLS.blog) },
  ),
  withGraph(
    sourced('ferry:0', 'Extra ferry sailings were added to the evening timetable for passengers travelling between the two piers.', {
      host: 'www.ferrynews.com', story: 'ferry', publishedAt: T0 - 3 * DAY, fetchedAt: T0 - 3 * DAY + HOUR,
      originType: 'original', sourceRole: 'secondary', roleConfidence: 0.8, contentType: 'news', hostRank: 0.5, vertical: 'travel',
    }),
    { community: 'c-harbor' },
  ),
  sourced('claim1:0', 'The city museum will reopen the east gallery in March after the roof repairs finished.', {
    host: 'www.artsdaily.com', story: 'museum-a', publishedAt: T0 - 10 * DAY, fetchedAt: T0 - 10 * DAY + HOUR,
    originType: 'original', sourceRole: 'secondary', roleConfidence: 0.8, contentType: 'news', hostRank: 0.6,
  }),
  sourced('deny:0', 'The city museum will not reopen the east gallery in March because the roof repairs are unfinished.', {
    host: 'www.culturewatch.net', story: 'museum-b', publishedAt: T0 - 9 * DAY, fetchedAt: T0 - 9 * DAY + HOUR,
    originType: 'original', sourceRole: 'secondary', roleConfidence: 0.8, contentType: 'news', hostRank: 0.6,
  }),
  sourced('herons1:0', 'Volunteers counted forty seven nesting herons along the quarry pond this spring.', {
    host: 'www.birdnotes.org', story: 'herons-a', publishedAt: T0 - 20 * DAY, fetchedAt: T0 - 20 * DAY + HOUR,
    originType: 'original', sourceRole: 'ugc', roleConfidence: 0.7, contentType: 'forum', hostRank: 0.4,
  }),
  withGraph(
    sourced('herons2:0', 'Club volunteers counted forty seven nesting herons at the quarry pond again this spring season.', {
      host: 'www.birdnotes.org', story: 'herons-b', publishedAt: T0 - 19 * DAY, fetchedAt: T0 - 19 * DAY + HOUR,
      originType: 'original', sourceRole: 'ugc', roleConfidence: 0.7, contentType: 'forum', hostRank: 0.4,
    }),
    { links: linksOf(URLS.herons2) },
  ),
];

/** Two shards, passages spread so stories span both. */
export function graphShards(): Passage[][] {
  return [graphPassages.filter((_, index) => index % 2 === 0), graphPassages.filter((_, index) => index % 2 === 1)];
}

/** The link log as ingest writes it (one `url <TAB> link ...` line per page with links). */
export function writeLinkLog(dataDir: string, lines = LINKS): void {
  writeFileSync(join(dataDir, 'links.tsv'), lines.map(([from, to]) => `${from}\t${to.join('\t')}\n`).join(''));
}
