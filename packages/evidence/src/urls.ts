/**
 * URL presence (why_not and changes' known_urls, SPEC 2.5, 3.4).
 *
 * URLs are compared after one normalisation, applied alike to what a caller sends and to every
 * URL of the admission ledger: the WHATWG URL parser (as browsers and Node parse URLs) lower-cases
 * the scheme and host, converts an internationalised host to punycode, drops the default port
 * (80 for http, 443 for https), turns an empty path into `/`, resolves `.` and `..` segments and
 * percent-encodes characters a URL may not hold; then the fragment (`#...`) is dropped. The path
 * and query are otherwise kept as given: case, trailing slashes and parameter order all count.
 */
import { REMOVAL_REASONS, type Hit, type RemovalReason, type UrlStatus } from '@evidence/schemas';

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
