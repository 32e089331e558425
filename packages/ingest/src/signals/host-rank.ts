/**
 * host_rank: a host's trust prior (0..1), when the record does not give one, from
 *
 * 1. maintained priors on the host name: a governmental or military public suffix (`gov`,
 *    `gov.uk`, `gouv.fr`, `gob.mx`, `mil`, `int`) OFFICIAL_PRIOR; an academic one (`edu`,
 *    `ac.uk`, `edu.au`) ACADEMIC_PRIOR; a subdomain of an open hosting or blog platform
 *    (`*.blogspot.com`, `*.tumblr.com`: anyone may publish there; schemas' `OPEN_PLATFORMS`, the one
 *    table owner counting and source_role read too) PLATFORM_PRIOR; a top-level
 *    domain that Spamhaus's and Interisle's yearly abuse reports rank among the most abused
 *    ABUSED_TLD_PRIOR; a bare IP address IP_PRIOR; anything else NO_PRIOR;
 * 2. the crawl's own host link graph (ingest pass 1, `link-graph.ts`): the host's PageRank
 *    percentile among the hosts the graph holds, trusted in proportion to how many distinct hosts
 *    link to it (full weight at LINKING_HOSTS_FOR_FULL_WEIGHT), moves the prior by up to
 *    GRAPH_SWING either way.
 *
 * What it cannot know: how reliable a publisher is (that takes editors' judgement; the
 * factuality ratings used to measure this are not shipped); a page set without links leaves
 * only the name priors, which do not separate one commercial news host from another. Measured
 * by `npm run bench:signals` (README).
 */
import { isIP } from 'node:net';
import { isOpenPlatform } from '@evidence/schemas';
import { fromRecord, type Derived } from './derived.js';

export const OFFICIAL_PRIOR = 0.9;
export const ACADEMIC_PRIOR = 0.85;
export const NO_PRIOR = 0.45;
export const PLATFORM_PRIOR = 0.3;
export const ABUSED_TLD_PRIOR = 0.25;
export const IP_PRIOR = 0.15;
export const GRAPH_SWING = 0.25;
export const LINKING_HOSTS_FOR_FULL_WEIGHT = 5;

/** First labels of a public suffix that make it governmental (`gov.uk`, `gouv.fr`, `go.jp`). */
const OFFICIAL_SUFFIX_LABELS = new Set(['gov', 'gouv', 'gob', 'govt', 'gv', 'go', 'mil', 'int', 'gc']);
const ACADEMIC_SUFFIX_LABELS = new Set(['edu', 'ac']);
/**
 * Top-level domains with the largest shares of abuse in Spamhaus's "most abused TLDs" and the
 * Interisle Phishing Landscape reports (2023 to 2025). Update from their current editions.
 */
const ABUSED_TLDS = new Set(['xyz', 'top', 'click', 'loan', 'work', 'gq', 'tk', 'ml', 'cf', 'ga', 'buzz', 'rest', 'cyou', 'icu', 'cfd', 'sbs', 'bond', 'surf', 'lol', 'pw']);

export interface HostRankInput {
  host: string;
  registrableDomain: string;
  /** The public suffix under the registrable domain (`gov.uk`, `com`). */
  publicSuffix: string;
  tld: string;
}

export interface HostGraphStanding {
  /** Distinct other hosts linking to this one. */
  inDegree: number;
  /** 0..1: the share of the graph's hosts whose PageRank is below this host's. */
  percentile: number;
}

export type HostPriorKind = 'official' | 'academic' | 'ip' | 'platform' | 'abused_tld' | 'none';

export function hostPrior(input: HostRankInput): { kind: HostPriorKind; prior: number } {
  const host = input.host.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return { kind: 'ip', prior: IP_PRIOR };
  const suffixLabels = input.publicSuffix.split('.');
  const first = suffixLabels[0];
  if (suffixLabels.length === 1 ? ['gov', 'mil', 'int'].includes(first) : OFFICIAL_SUFFIX_LABELS.has(first)) return { kind: 'official', prior: OFFICIAL_PRIOR };
  if (suffixLabels.length === 1 ? first === 'edu' : ACADEMIC_SUFFIX_LABELS.has(first)) return { kind: 'academic', prior: ACADEMIC_PRIOR };
  if (isOpenPlatform(input.registrableDomain) && input.host !== input.registrableDomain && input.host !== `www.${input.registrableDomain}`) return { kind: 'platform', prior: PLATFORM_PRIOR };
  if (ABUSED_TLDS.has(input.tld)) return { kind: 'abused_tld', prior: ABUSED_TLD_PRIOR };
  return { kind: 'none', prior: NO_PRIOR };
}

/** PageRank percentile of every host of a graph, from its centralities (ties share the lower rank). */
export function rankPercentiles(centralities: ReadonlyMap<string, { centrality: number; inDegree: number }>): Map<string, HostGraphStanding> {
  const hosts = [...centralities.entries()].sort((left, right) => left[1].centrality - right[1].centrality);
  const standings = new Map<string, HostGraphStanding>();
  const last = Math.max(1, hosts.length - 1);
  let tieStart = 0;
  for (let index = 0; index < hosts.length; index++) {
    if (index > 0 && hosts[index][1].centrality !== hosts[index - 1][1].centrality) tieStart = index;
    standings.set(hosts[index][0], { inDegree: hosts[index][1].inDegree, percentile: tieStart / last });
  }
  return standings;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function deriveHostRank(input: HostRankInput, standing: HostGraphStanding | undefined, declared?: number): Derived<number> {
  if (declared !== undefined) return fromRecord(declared);
  const { kind, prior } = hostPrior(input);
  if (standing === undefined || standing.inDegree === 0) {
    return { value: prior, source: kind === 'none' ? 'default' : 'derived', confidence: kind === 'none' ? 0.2 : 0.7, reason: `prior ${kind}, no links to the host` };
  }
  const weight = Math.min(1, standing.inDegree / LINKING_HOSTS_FOR_FULL_WEIGHT);
  const value = Math.min(1, Math.max(0, prior + weight * GRAPH_SWING * (2 * standing.percentile - 1)));
  return {
    value: round3(value),
    source: 'derived',
    confidence: round3(Math.min(1, 0.3 + 0.5 * weight + (kind === 'none' ? 0 : 0.2))),
    reason: `prior ${kind}, linked from ${standing.inDegree} hosts, PageRank percentile ${round3(standing.percentile)}`,
  };
}
