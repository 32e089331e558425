/**
 * The values /describe lists from the live index: verticals, content types, authorities and
 * topics that have data. /describe must answer while the search pool is saturated, so it never
 * waits on the pool: it reads a cache that a background refresh fills.
 */
import type { Services } from '../services.js';

export interface LiveVocabulary {
  verticals: string[];
  content_types: string[];
  authorities: string[];
  topics: string[];
  /** Live passages of the shards that answered, and how many have a vector. */
  passages: number;
  embedded: number;
}

export const EMPTY_VOCABULARY: LiveVocabulary = { verticals: [], content_types: [], authorities: [], topics: [], passages: 0, embedded: 0 };

/** Topic tags are open-ended (each page declares its own): /describe lists the most frequent. */
export const MAX_LISTED_TOPICS = 200;

function valuesWithData(counts: Record<string, number> | undefined, limit = Number.POSITIVE_INFINITY): string[] {
  const present = Object.entries(counts ?? {}).filter(([, count]) => count > 0);
  const kept = present.length <= limit ? present : present.sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1)).slice(0, limit);
  return kept.map(([value]) => value).sort();
}

/**
 * The distinct values of `vertical`, `content_type`, `authority` and `topics` that at least one
 * live passage carries: one match-all facet request across shards (limit 0, explicit content
 * included), read from fast-field columns.
 */
export async function liveVocabulary(services: Services): Promise<LiveVocabulary> {
  const result = await services.pool.search({
    query: '',
    mode: 'keyword',
    limit: 0,
    facets: true,
    filters: { safe: false },
    timeoutMs: services.config.searchTimeoutMs,
  });
  const facets = result.facets;
  return {
    verticals: valuesWithData(facets?.vertical),
    content_types: valuesWithData(facets?.content_type),
    authorities: valuesWithData(facets?.authority),
    topics: valuesWithData(facets?.topics, MAX_LISTED_TOPICS),
    passages: result.passages,
    embedded: result.embedded,
  };
}

/**
 * Stale-while-revalidate: `current()` answers at once from the last refresh and, when that is
 * older than `maxAgeMs`, starts one refresh in the background. A failed refresh keeps the
 * previous values.
 */
export class LiveVocabularyCache {
  private values: LiveVocabulary = EMPTY_VOCABULARY;
  private refreshedAt: number | null = null;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly load: () => Promise<LiveVocabulary>,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  current(): { values: LiveVocabulary; refreshedAt: number | null } {
    if (this.refreshedAt === null || this.now() - this.refreshedAt > this.maxAgeMs) this.refresh();
    return { values: this.values, refreshedAt: this.refreshedAt };
  }

  /** Starts a refresh unless one is running; resolves when it is done (tests await it). */
  refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = this.load()
      .then(
        (values) => {
          this.values = values;
          this.refreshedAt = this.now();
        },
        (error: unknown) => {
          process.stderr.write(`describe: live vocabulary refresh failed, keeping the previous values: ${String(error)}\n`);
        },
      )
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }
}
