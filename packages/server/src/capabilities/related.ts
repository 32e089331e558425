/**
 * GET /related, tool related: passages connected to a passage through the link graph and the
 * story structure (SPEC 2.1, 4.8).
 *
 * 1. The seed passage (404 when unknown) and its page's URL.
 * 2. From the served page graph (packages/evidence page-graph.ts, plus the links stored on the
 *    passage): pages its page links to, pages linking to it, pages cited together with it (linked
 *    from a page that links to it, most shared linkers first), at most RELATED_PAGES_MAX per kind.
 * 3. One scatter finds the first passage the index holds of each of those pages (and the seed's
 *    own hit, for its community); pages the index does not hold are not results.
 * 4. same_community: the other stories of the seed's graph community (one passage each, the
 *    community's best by host trust, at most RELATED_COMMUNITY_STORIES_MAX), and any linked page
 *    in that community outside the seed's story.
 *
 * Explicit content is never a result (as search's default safe=true).
 */
import { normaliseUrl, specHit } from '@evidence/evidence';
import type { NativeHit } from '@evidence/native';
import {
  errors,
  ranAndFailed,
  RELATED_COMMUNITY_STORIES_MAX,
  RELATED_PAGES_MAX,
  RELATION_KINDS,
  RelatedParamsSchema,
  RelatedResponseSchema,
  type RelatedHit,
  type RelatedResponse,
  type RelationKind,
} from '@evidence/schemas';
import type { Capability } from '../capability.js';
import type { Services } from '../services.js';
import { firstPassagesByUrl } from '../retrieval/url-presence.js';

interface LinkedPage {
  url: string;
  relations: Set<RelationKind>;
  coCitations?: number;
  coCitedBy?: string[];
}

interface Related {
  hit: NativeHit;
  relations: Set<RelationKind>;
  coCitations?: number;
  coCitedBy?: string[];
}

function keyOf(url: string): string {
  return normaliseUrl(url) ?? url;
}

function isExplicit(hit: NativeHit): boolean {
  return hit.safety === 'explicit';
}

/** Linked pages of the requested kinds, keyed by normalised URL, in the order first met. */
function linkedPages(services: Services, seedUrl: string, storedLinks: string[], kinds: Set<RelationKind>): { pages: Map<string, LinkedPage>; truncated: boolean } {
  const seedKey = keyOf(seedUrl);
  const pages = new Map<string, LinkedPage>();
  let truncated = false;
  const add = (urls: string[], kind: RelationKind): LinkedPage[] => {
    const distinct = [...new Map(urls.map((url) => [keyOf(url), url])).entries()].filter(([key]) => key !== seedKey);
    if (distinct.length > RELATED_PAGES_MAX) truncated = true;
    return distinct.slice(0, RELATED_PAGES_MAX).map(([key, url]) => {
      let page = pages.get(key);
      if (!page) {
        page = { url, relations: new Set() };
        pages.set(key, page);
      }
      page.relations.add(kind);
      return page;
    });
  };
  const graph = services.graph;
  if (kinds.has('links_to')) add([...graph.outLinks(seedUrl), ...storedLinks.filter((link) => /^https?:\/\//i.test(link))], 'links_to');
  if (kinds.has('linked_from')) add(graph.inLinks(seedUrl), 'linked_from');
  if (kinds.has('co_cited')) {
    const coCited = graph.coCited(seedUrl, RELATED_PAGES_MAX);
    if (coCited.cut) truncated = true;
    const added = add(coCited.pages.map((page) => page.url), 'co_cited');
    added.forEach((page, index) => {
      page.coCitations = coCited.pages[index].count;
      page.coCitedBy = coCited.pages[index].linkers;
    });
  }
  return { pages, truncated };
}

async function communityStories(services: Services, seed: NativeHit): Promise<{ hits: NativeHit[]; truncated: boolean; partial: boolean }> {
  if (!seed.community_id) return { hits: [], truncated: false, partial: false };
  const result = await services.pool.search({
    query: '',
    mode: 'keyword',
    limit: RELATED_COMMUNITY_STORIES_MAX + 2,
    sort: 'host_rank',
    collapse: 'story',
    filters: { community: [seed.community_id], safe: true },
    timeoutMs: services.config.searchTimeoutMs,
  });
  const others = result.hits.filter((hit) => hit.story_id !== seed.story_id);
  return { hits: others.slice(0, RELATED_COMMUNITY_STORIES_MAX), truncated: others.length > RELATED_COMMUNITY_STORIES_MAX, partial: result.partial };
}

function byHostRank(left: Related, right: Related): number {
  return right.hit.host_rank - left.hit.host_rank || (left.hit.id < right.hit.id ? -1 : left.hit.id > right.hit.id ? 1 : 0);
}

function firstKind(related: Related): number {
  return RELATION_KINDS.findIndex((kind) => related.relations.has(kind));
}

function bodyOf(related: Related): RelatedHit {
  const { group_size: _groupSize, ...hit } = specHit(related.hit);
  const body: RelatedHit = { ...hit, relations: RELATION_KINDS.filter((kind) => related.relations.has(kind)) };
  if (related.coCitations !== undefined) {
    body.co_citations = related.coCitations;
    body.co_cited_by = related.coCitedBy;
  }
  return body;
}

export const relatedCapability: Capability<typeof RelatedParamsSchema, RelatedResponse> = {
  name: 'related',
  cost: 1,
  failureCost: 1,
  params: RelatedParamsSchema,
  response: RelatedResponseSchema,
  async run(params, services) {
    const [{ document, partial: seedPartial }] = await Promise.all([services.pool.document(params.id, services.config.searchTimeoutMs), services.graph.refresh()]);
    if (!document) {
      if (seedPartial) throw errors.noShard();
      throw errors.notFound(`no passage with id ${params.id}`);
    }
    try {
      const kinds = new Set(params.relation);
      const linked = linkedPages(services, document.url, document.links ?? [], kinds);
      const lookup = await firstPassagesByUrl(services, [document.url, ...[...linked.pages.values()].map((page) => page.url)]);
      const seedHit = lookup.byUrl.get(keyOf(document.url));
      const community = kinds.has('same_community') && seedHit ? await communityStories(services, seedHit) : { hits: [], truncated: false, partial: false };
      const inCommunity = (hit: NativeHit) =>
        kinds.has('same_community') && seedHit?.community_id !== undefined && hit.community_id === seedHit.community_id && hit.story_id !== seedHit.story_id;

      const found = new Map<string, Related>();
      for (const [key, page] of linked.pages) {
        const hit = lookup.byUrl.get(key);
        if (!hit || isExplicit(hit)) continue;
        const relations = new Set(page.relations);
        if (inCommunity(hit)) relations.add('same_community');
        found.set(hit.id, { hit, relations, coCitations: page.coCitations, coCitedBy: page.coCitedBy });
      }
      for (const hit of community.hits) {
        if (hit.url === document.url || found.has(hit.id)) continue;
        found.set(hit.id, { hit, relations: new Set(['same_community']) });
      }
      const ordered = [...found.values()].sort(
        (left, right) =>
          firstKind(left) - firstKind(right) ||
          (firstKind(left) === RELATION_KINDS.indexOf('co_cited') ? (right.coCitations ?? 0) - (left.coCitations ?? 0) : 0) ||
          (firstKind(left) === RELATION_KINDS.indexOf('same_community') ? 0 : byHostRank(left, right)),
      );
      const counts = Object.fromEntries(RELATION_KINDS.map((kind) => [kind, ordered.filter((related) => related.relations.has(kind)).length])) as RelatedResponse['counts'];
      return {
        id: params.id,
        url: document.url,
        relation: params.relation,
        results: ordered.slice(0, params.limit).map(bodyOf),
        total: ordered.length,
        counts,
        truncated: linked.truncated || community.truncated,
        partial: seedPartial || lookup.partial || community.partial,
      };
    } catch (error) {
      throw ranAndFailed(error);
    }
  },
};
