/**
 * Whether URLs are in the index (why_not, changes' known_urls): one scatter filtered to the
 * URLs as given and as normalised finds what the index holds; the admission ledger says why
 * the rest is not there (see `normaliseUrl` in packages/evidence for the normalisation).
 */
import { normaliseUrl, presenceOf, specHit, type Presence } from '@evidence/evidence';
import type { NativeHit } from '@evidence/native';
import type { Services } from '../services.js';

/** Passages a presence lookup brings back at most. */
export const PRESENCE_LOOKUP_LIMIT = 1000;

function passageNumber(id: string): number {
  return Number(id.slice(id.lastIndexOf(':') + 1));
}

/**
 * The first passage (lowest passage number, then id) of each normalised URL found: one scatter
 * filtered to the URLs as given and as normalised (explicit content included). Also the graph
 * routes' page lookup (related, path).
 */
export async function firstPassagesByUrl(services: Services, urls: string[]): Promise<{ byUrl: Map<string, NativeHit>; partial: boolean }> {
  const wanted = [...new Set(urls.flatMap((url) => [url.trim(), normaliseUrl(url) ?? url.trim()]))];
  if (wanted.length === 0) return { byUrl: new Map(), partial: false };
  const result = await services.pool.search({
    query: '',
    mode: 'keyword',
    limit: PRESENCE_LOOKUP_LIMIT,
    filters: { urls: wanted, safe: false },
    timeoutMs: services.config.searchTimeoutMs,
  });
  const byUrl = new Map<string, NativeHit>();
  for (const hit of result.hits) {
    const key = normaliseUrl(hit.url) ?? hit.url;
    const held = byUrl.get(key);
    const earlier = !held || passageNumber(hit.id) < passageNumber(held.id) || (passageNumber(hit.id) === passageNumber(held.id) && hit.id < held.id);
    if (earlier) byUrl.set(key, hit);
  }
  return { byUrl, partial: result.partial };
}

/** Presence of each URL (null: cannot be told, a shard did not answer and the ledger knows nothing). */
export async function urlPresences(services: Services, urls: string[]): Promise<(Presence | null)[]> {
  const valid = urls.filter((url) => normaliseUrl(url) !== null);
  const [indexed, states] = await Promise.all([
    valid.length > 0 ? firstPassagesByUrl(services, valid) : Promise.resolve({ byUrl: new Map<string, NativeHit>(), partial: false }),
    Promise.all(urls.map((url) => services.ledger.lookup(url))),
  ]);
  return urls.map((url, index) => {
    const key = normaliseUrl(url);
    if (key === null) return null;
    const hit = indexed.byUrl.get(key);
    return presenceOf(states[index], hit ? specHit(hit) : null, indexed.partial);
  });
}
