/**
 * URL presence (why_not and changes' known_urls, SPEC 2.5, 3.4), and the index lookup it takes
 * (one search filtered to the URLs; the server runs it for why_not and the graph routes, an
 * evidence worker for changes).
 *
 * URLs are compared after one normalisation, applied alike to what a caller sends and to every
 * URL of the admission ledger: the WHATWG URL parser (as browsers and Node parse URLs) lower-cases
 * the scheme and host, converts an internationalised host to punycode, drops the default port
 * (80 for http, 443 for https), turns an empty path into `/`, resolves `.` and `..` segments and
 * percent-encodes characters a URL may not hold; then the fragment (`#...`) is dropped. The path
 * and query are otherwise kept as given: case, trailing slashes and parameter order all count.
 */
import type { ScatterRequest } from '@evidence/pool';
import { REMOVAL_REASONS, type Hit, type KnownUrl, type RemovalReason, type UrlStatus } from '@evidence/schemas';
import { specHit } from './hits.js';
import type { EvidenceHit } from './types.js';

/** The normalised form of an http(s) URL, or null when it is not one. */
export function normaliseUrl(raw: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    return null;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') return null;
  parsed.hash = '';
  return parsed.href;
}

export interface LedgerRemoval {
  reason: string;
  removedAt: number;
  supersededBy: string | null;
  pageId: string | null;
}

/** What the admission ledger says about one URL. */
export interface UrlLedgerState {
  /** The page the ledger currently holds for the URL; null after a removal. */
  pageId: string | null;
  /** The latest removal recorded for the URL, if any. */
  removal: LedgerRemoval | null;
}

export interface Presence {
  status: UrlStatus;
  hit?: Hit;
  reason?: RemovalReason;
  removed_at?: number;
  superseded_by?: string | null;
}

function isRemovalReason(reason: string): reason is RemovalReason {
  return (REMOVAL_REASONS as readonly string[]).includes(reason);
}

/**
 * Presence from the index lookup and the ledger. The index is the authority for `present`; the
 * ledger for why a URL is not there. A URL the ledger holds as admitted is present even when
 * the lookup missed it (a reader not yet reloaded, or a shard that did not answer). Returns null
 * when nothing can be said: the lookup was partial and the ledger knows nothing.
 */
export function presenceOf(state: UrlLedgerState | undefined, hit: Hit | null, lookupPartial: boolean): Presence | null {
  if (hit) return { status: 'present', hit };
  if (state?.pageId) return { status: 'present' };
  if (state?.removal) {
    const presence: Presence = { status: 'removed' };
    if (isRemovalReason(state.removal.reason)) presence.reason = state.removal.reason;
    presence.removed_at = state.removal.removedAt;
    presence.superseded_by = state.removal.supersededBy;
    return presence;
  }
  if (lookupPartial) return null;
  return { status: 'unknown' };
}

/** Apply one ledger line (`admitted` / `removed` events, as ingest writes them) to the URL states. */
export function applyLedgerLine(states: Map<string, UrlLedgerState>, line: string): boolean {
  if (line.trim() === '') return false;
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return false; // a torn or foreign line
  }
  if (typeof event !== 'object' || event === null || typeof event.url !== 'string') return false;
  const url = normaliseUrl(event.url);
  if (url === null) return false;
  const state = states.get(url) ?? { pageId: null, removal: null };
  if (event.event === 'admitted' && typeof event.page_id === 'string') {
    state.pageId = event.page_id;
  } else if (event.event === 'removed' && typeof event.reason === 'string' && typeof event.removed_at === 'number') {
    const pageId = typeof event.page_id === 'string' ? event.page_id : null;
    const supersededBy = typeof event.superseded_by === 'string' ? event.superseded_by : null;
    // A re-crawl (superseded with a successor) forgets only the page it replaced; the successor's
    // own admitted event follows. Any other removal empties the URL.
    if (supersededBy === null || state.pageId === pageId) state.pageId = null;
    state.removal = { reason: event.reason, removedAt: event.removed_at, supersededBy, pageId };
  } else {
    return false;
  }
  states.set(url, state);
  return true;
}

/** Passages a URL lookup brings back at most. */
export const PRESENCE_LOOKUP_LIMIT = 1000;

/**
 * The search that finds URLs' passages: filtered to the URLs as given and as normalised
 * (explicit content included); null when there is nothing to look up.
 */
export function urlLookupRequest(urls: string[]): ScatterRequest | null {
  const wanted = [...new Set(urls.flatMap((url) => [url.trim(), normaliseUrl(url) ?? url.trim()]))];
  if (wanted.length === 0) return null;
  return { query: '', mode: 'keyword', limit: PRESENCE_LOOKUP_LIMIT, filters: { urls: wanted, safe: false } };
}

function passageNumber(id: string): number {
  return Number(id.slice(id.lastIndexOf(':') + 1));
}

/** The first passage (lowest passage number, then id) of each normalised URL among a lookup's hits. */
export function firstPassageOfEachUrl(hits: EvidenceHit[]): Map<string, EvidenceHit> {
  const byUrl = new Map<string, EvidenceHit>();
  for (const hit of hits) {
    const key = normaliseUrl(hit.url) ?? hit.url;
    const held = byUrl.get(key);
    const earlier = !held || passageNumber(hit.id) < passageNumber(held.id) || (passageNumber(hit.id) === passageNumber(held.id) && hit.id < held.id);
    if (earlier) byUrl.set(key, hit);
  }
  return byUrl;
}

/** What the index lookup found: the first passage of each normalised URL, and whether a shard did not answer. */
export interface UrlLookup {
  byUrl: Map<string, EvidenceHit>;
  partial: boolean;
}

/**
 * Presence of each URL from the ledger's state of each and the index lookup of the valid ones
 * (null: cannot be told, a shard did not answer and the ledger knows nothing; or not a URL).
 */
export function urlPresencesOf(urls: string[], states: (UrlLedgerState | undefined)[], indexed: UrlLookup): (Presence | null)[] {
  return urls.map((url, index) => {
    const key = normaliseUrl(url);
    if (key === null) return null;
    const hit = indexed.byUrl.get(key);
    return presenceOf(states[index], hit ? specHit(hit) : null, indexed.partial);
  });
}

/** A known URL of changes as the answer lists it. */
export function knownUrlOf(url: string, presence: Presence | null): KnownUrl {
  if (normaliseUrl(url) === null) return { url, status: 'error', reason: 'not an absolute http or https url' };
  if (!presence) return { url, status: 'error', reason: 'part of the index did not answer and the admission ledger has no record of this url' };
  const entry: KnownUrl = { url, status: presence.status };
  if (presence.reason !== undefined) entry.reason = presence.reason;
  if (presence.removed_at !== undefined) entry.removed_at = presence.removed_at;
  if (presence.superseded_by) entry.superseded_by = presence.superseded_by;
  return entry;
}
