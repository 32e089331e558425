/**
 * GET /path, tool path (SPEC 2.1, 4.8).
 *
 * Without `to`: how the passage's text reached its host. Every passage of its story is looked
 * up (one scatter, plus its own page in case the story is larger than one lookup) and walked into
 * origins as ground walks them; the chain is the passage's origin from its first passage through
 * carriers and republishes to the passage (packages/evidence chain.ts). Small and pure, it runs
 * here rather than in an evidence worker.
 *
 * With `to`: the shortest link path between the two passages' pages in the served page graph,
 * following links either way, bounded by `max_depth` hops and PATH_MAX_EDGES links looked at
 * (`truncated` when a bound cut it short); one scatter names the first passage of each page on it.
 */
import { LOOKUP_LIMIT, normaliseUrl, provenanceChain } from '@evidence/evidence';
import type { NativeDocument, NativeHit } from '@evidence/native';
import { errors, PATH_MAX_EDGES, PathParamsSchema, PathResponseSchema, ranAndFailed, type LinkHop, type PathResponse } from '@evidence/schemas';
import type { Capability } from '../capability.js';
import type { Services } from '../services.js';
import { firstPassagesByUrl } from '../retrieval/url-presence.js';

async function passageDocument(services: Services, id: string): Promise<{ document: NativeDocument; partial: boolean }> {
  const { document, partial } = await services.pool.document(id, services.config.searchTimeoutMs);
  if (!document) {
    if (partial) throw errors.noShard();
    throw errors.notFound(`no passage with id ${id}`);
  }
  return { document, partial };
}

async function provenancePath(services: Services, id: string, document: NativeDocument, seedPartial: boolean): Promise<PathResponse> {
  const timeoutMs = services.config.searchTimeoutMs;
  const [story, page] = await Promise.all([
    services.pool.search({ query: '', mode: 'keyword', limit: LOOKUP_LIMIT, filters: { storyIds: [document.story_id], safe: false }, timeoutMs }),
    services.pool.search({ query: '', mode: 'keyword', limit: LOOKUP_LIMIT, filters: { urls: [document.url], safe: false }, timeoutMs }),
  ]);
  try {
    const members: NativeHit[] = [...story.hits, ...page.hits.filter((hit) => hit.story_id === document.story_id)];
    const chain = provenanceChain(id, members);
    if (!chain) throw new Error(`passage ${id} was not found in its own story`);
    const partial = seedPartial || story.partial || page.partial;
    return {
      id,
      to: null,
      kind: 'provenance',
      provenance: {
        story_id: document.story_id,
        origin: chain.origin,
        chain: chain.chain,
        later_copies: chain.laterCopies,
        other_origins: chain.otherOrigins,
        story_passages: story.total,
        complete: !partial && story.total <= story.hits.length,
      },
      partial,
    };
  } catch (error) {
    throw ranAndFailed(error);
  }
}

async function linkPath(services: Services, id: string, to: string, maxDepth: number): Promise<PathResponse> {
  const [from, goal] = await Promise.all([passageDocument(services, id), passageDocument(services, to), services.graph.refresh()]);
  try {
    const search = services.graph.shortestPath(from.document.url, goal.document.url, maxDepth, PATH_MAX_EDGES);
    const samePage = normaliseUrl(from.document.url) === normaliseUrl(goal.document.url);
    const pages = samePage ? [from.document.url] : (search.pages ?? []);
    const inner = pages.slice(1, -1);
    const lookup = inner.length > 0 ? await firstPassagesByUrl(services, inner) : { byUrl: new Map<string, NativeHit>(), partial: false };
    const idOf = (url: string, index: number): string | null => {
      if (index === 0) return id;
      if (index === pages.length - 1) return to;
      return lookup.byUrl.get(normaliseUrl(url) ?? url)?.id ?? null;
    };
    const hops: LinkHop[] = [];
    for (let index = 0; index + 1 < pages.length; index++) {
      const forward = search.forward[index];
      hops.push({
        from: { url: pages[index], id: idOf(pages[index], index) },
        to: { url: pages[index + 1], id: idOf(pages[index + 1], index + 1) },
        linking_page: forward ? pages[index] : pages[index + 1],
        direction: forward ? 'forward' : 'backward',
      });
    }
    return {
      id,
      to,
      kind: 'link',
      link: {
        found: samePage || search.pages !== null,
        depth: hops.length,
        max_depth: maxDepth,
        visited: search.visited,
        truncated: !samePage && search.truncated,
        hops,
      },
      partial: from.partial || goal.partial || lookup.partial,
    };
  } catch (error) {
    throw ranAndFailed(error);
  }
}

export const pathCapability: Capability<typeof PathParamsSchema, PathResponse> = {
  name: 'path',
  cost: 1,
  failureCost: 1,
  params: PathParamsSchema,
  response: PathResponseSchema,
  async run(params, services) {
    if (params.to !== undefined) return linkPath(services, params.id, params.to, params.max_depth);
    const { document, partial } = await passageDocument(services, params.id);
    return provenancePath(services, params.id, document, partial);
  },
};
