/**
 * What the index currently holds for each URL, rebuilt from the ledger at start and kept up to
 * date by applying the same events as they are written, so one code path serves both. It
 * decides whether an incoming record is new, already held, a re-crawl, or older than what the
 * index has (a re-read of an earlier crawl, which must not undo a later one).
 */
import type { LedgerEvent } from './ledger.js';

interface UrlState {
  /** The page currently indexed for the URL; null after a removal. */
  pageId: string | null;
  /** Passage numbers 0..span-1 may exist for `pageId`: what a deletion has to cover. */
  passageSpan: number;
  /** fetched_at of the current page (or of the last one, after a removal); -1 when unknown. */
  fetchedAt: number;
  /** removed_at of the URL's latest removal; -1 when never removed. */
  removedAt: number;
}

/** The page a new crawl or a removal takes out of the index. */
export interface HeldPage {
  pageId: string;
  passageSpan: number;
}

export type ContentVerdict =
  /** The index already holds this page for the URL (the engine skips passages it has). */
  | { kind: 'current' }
  /** Older than what the index holds for the URL: left out. */
  | { kind: 'outdated' }
  /** A page to admit; `supersedes` is the URL's previous page, when it had one. */
  | { kind: 'admit'; supersedes?: HeldPage };

export type RemovalVerdict =
  /** Repeats a removal already recorded, or predates the URL's current crawl. */
  | { kind: 'outdated' }
  | { kind: 'remove'; current?: HeldPage };

export class AdmissionTable {
  private readonly states = new Map<string, UrlState>();

  get urls(): number {
    return this.states.size;
  }

  apply(event: LedgerEvent): void {
    const state = this.states.get(event.url);
    if (event.event === 'admitted') {
      const span = event.passage_no === undefined ? event.passages : event.passage_no + 1;
      if (state !== undefined && state.pageId === event.page_id) {
        state.passageSpan = Math.max(state.passageSpan, span);
        return;
      }
      this.states.set(event.url, {
        pageId: event.page_id,
        passageSpan: span,
        fetchedAt: event.fetched_at,
        removedAt: state?.removedAt ?? -1,
      });
      return;
    }
    if (event.reason === 'superseded' && event.superseded_by !== undefined) {
      // A re-crawl: the successor's own `admitted` event sets the new page; only forget the old
      // one here. (A crawler's own `superseded` line, without a successor, is a plain removal,
      // and so is a `redundant` copy, whose `superseded_by` names the passage it copies.)
      if (state !== undefined && state.pageId === event.page_id) {
        state.pageId = null;
        state.passageSpan = 0;
      }
      return;
    }
    this.states.set(event.url, {
      pageId: null,
      passageSpan: 0,
      fetchedAt: state?.fetchedAt ?? -1,
      removedAt: Math.max(state?.removedAt ?? -1, event.removed_at),
    });
  }

  /** Passage numbers 0..span-1 admitted for `pageId` at `url`; 0 when it is not the current page. */
  passageSpan(url: string, pageId: string): number {
    const state = this.states.get(url);
    return state !== undefined && state.pageId === pageId ? state.passageSpan : 0;
  }

  judgeContent(url: string, pageId: string, fetchedAt: number): ContentVerdict {
    const state = this.states.get(url);
    if (state === undefined) return { kind: 'admit' };
    if (state.pageId === pageId) return { kind: 'current' };
    if (state.pageId === null) return fetchedAt <= state.removedAt ? { kind: 'outdated' } : { kind: 'admit' };
    if (fetchedAt < state.fetchedAt) return { kind: 'outdated' };
    return { kind: 'admit', supersedes: { pageId: state.pageId, passageSpan: state.passageSpan } };
  }

  judgeRemoval(url: string, removedAt: number): RemovalVerdict {
    const state = this.states.get(url);
    if (state === undefined) return { kind: 'remove' };
    if (removedAt <= state.removedAt) return { kind: 'outdated' };
    if (state.pageId === null) return { kind: 'remove' };
    if (removedAt < state.fetchedAt) return { kind: 'outdated' };
    return { kind: 'remove', current: { pageId: state.pageId, passageSpan: state.passageSpan } };
  }
}
