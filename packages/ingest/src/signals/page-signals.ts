/**
 * The runner of the per-page signals of part B (vertical, safety, host_rank, quality, authority,
 * topics): each from its own module, given the page's facts and the record's own value (which
 * always wins), run once per record in the order the later ones need (authority reads the
 * host-rank prior and the source role). Every page gets them, JSONL or crawl: this runs where
 * both meet, after validation (`page-provenance.ts`).
 */
import type { HostFields } from '../derive.js';
import type { HostSignals } from '../graph-signals.js';
import type { ContentRecord } from '../record.js';
import { urlPathAndQuery } from '../url-parts.js';
import type { Safety } from '../vocabulary.js';
import { deriveAuthority } from './authority.js';
import type { Derived } from './derived.js';
import { deriveHostRank, hostPrior, rankPercentiles, type HostGraphStanding } from './host-rank.js';
import { deriveQuality } from './quality.js';
import { deriveSafety } from './safety.js';
import { deriveVertical } from './vertical.js';

export interface PageSignals {
  vertical: Derived<string>;
  safety: Derived<Safety>;
  hostRank: Derived<number>;
  quality: Derived<number>;
  authority: Derived<string | undefined>;
  /** The record's (for a crawl page: the HTML's declared tags, `topics.ts`); never guessed. */
  topics?: string[];
}

export interface PageSignalFacts {
  hostFields: HostFields;
  publicSuffix: string;
  role: { role: string; confidence: number };
  ownerKind?: string;
  /** The run's host graph signals (empty when no page had links). */
  hostSignals: ReadonlyMap<string, HostSignals>;
}

/** One percentile table per graph signal map (an ingest run computes its map once, after pass 1). */
const standingsByGraph = new WeakMap<ReadonlyMap<string, HostSignals>, Map<string, HostGraphStanding>>();

function standingOf(hostSignals: ReadonlyMap<string, HostSignals>, host: string): HostGraphStanding | undefined {
  if (hostSignals.size === 0) return undefined;
  let standings = standingsByGraph.get(hostSignals);
  if (standings === undefined) {
    standings = rankPercentiles(hostSignals);
    standingsByGraph.set(hostSignals, standings);
  }
  return standings.get(host);
}

export function derivePageSignals(record: ContentRecord, facts: PageSignalFacts): PageSignals {
  const { hostFields } = facts;
  const rankInput = { host: hostFields.host, registrableDomain: hostFields.registrableDomain, publicSuffix: facts.publicSuffix, tld: hostFields.tld };
  const prior = hostPrior(rankInput);
  const signals: PageSignals = {
    vertical: deriveVertical({ title: record.title, text: record.text, host: hostFields.host }, record.vertical),
    safety: deriveSafety({ host: hostFields.host, path: urlPathAndQuery(record.url), title: record.title, text: record.text }, record.safety),
    hostRank: deriveHostRank(rankInput, standingOf(facts.hostSignals, hostFields.host), record.hostRank),
    quality: deriveQuality(record.text, record.quality),
    authority: deriveAuthority({ priorKind: prior.kind, role: facts.role.role, roleConfidence: facts.role.confidence, ownerKind: facts.ownerKind }, record.authority),
  };
  if (record.topics !== undefined) signals.topics = record.topics;
  return signals;
}
