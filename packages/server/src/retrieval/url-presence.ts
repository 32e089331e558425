/**
 * Whether URLs are in the index, on the main thread (why_not; the graph routes' page lookup):
 * one scatter filtered to the URLs as given and as normalised finds what the index holds; the
 * admission ledger says why the rest is not there (packages/evidence urls.ts: the normalisation,
 * the lookup's search, the first passage of each URL; an evidence worker runs the same lookup
 * for changes' known_urls).
 */
import { firstPassageOfEachUrl, normaliseUrl, urlLookupRequest, urlPresencesOf, type Presence, type UrlLookup } from '@evidence/evidence';
import type { Services } from '../services.js';

/**
 * The first passage (lowest passage number, then id) of each normalised URL found: one scatter
 * filtered to the URLs as given and as normalised (explicit content included). Also the graph
 * routes' page lookup (related, path).
 */
export async function firstPassagesByUrl(services: Services, urls: string[]): Promise<UrlLookup> {
  const request = urlLookupRequest(urls);
  if (!request) return { byUrl: new Map(), partial: false };
  const result = await services.pool.search({ ...request, timeoutMs: services.config.searchTimeoutMs });
  return { byUrl: firstPassageOfEachUrl(result.hits), partial: result.partial };
}

/** Presence of each URL (null: cannot be told, a shard did not answer and the ledger knows nothing). */
export async function urlPresences(services: Services, urls: string[]): Promise<(Presence | null)[]> {
  const valid = urls.filter((url) => normaliseUrl(url) !== null);
  const [indexed, states] = await Promise.all([
    valid.length > 0 ? firstPassagesByUrl(services, valid) : Promise.resolve<UrlLookup>({ byUrl: new Map(), partial: false }),
    Promise.all(urls.map((url) => services.ledger.lookup(url))),
  ]);
  return urlPresencesOf(urls, states, indexed);
}
