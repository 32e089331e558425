/**
 * What a page's URL says about its publisher: host, tld, registrable domain (public suffix list)
 * and the owner: the record's own, else the owners table's, else the registrable domain.
 */
import { isIP } from 'node:net';
import { getDomain } from 'tldts';
import type { OwnersTable } from './owners.js';

export interface HostFields {
  host: string;
  /** Last label of the hostname; empty for an IP address, which has none. */
  tld: string;
  /** The domain a registrant controls (`bbc.co.uk` for `news.bbc.co.uk`); the hostname when there is none. */
  registrableDomain: string;
}

/** Hosts repeat heavily in a crawl; the public-suffix lookup is the costly part, so keep recent answers. */
const HOST_CACHE_LIMIT = 50_000;
const hostCache = new Map<string, HostFields>();

function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function computeHostFields(hostname: string): HostFields {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(stripBrackets(host)) !== 0) return { host, tld: '', registrableDomain: host };
  const lastDot = host.lastIndexOf('.');
  const tld = lastDot < 0 ? host : host.slice(lastDot + 1);
  const registrableDomain = getDomain(host, { extractHostname: false, allowPrivateDomains: false }) ?? host;
  return { host, tld, registrableDomain };
}

/** Host, tld and registrable domain of a (WHATWG-parsed) hostname. */
export function deriveHostFields(hostname: string): HostFields {
  const cached = hostCache.get(hostname);
  if (cached !== undefined) return cached;
  const fields = computeHostFields(hostname);
  // Dropping the whole cache is crude but bounded and O(1) per miss; a crawl's hosts cluster anyway.
  if (hostCache.size >= HOST_CACHE_LIMIT) hostCache.clear();
  hostCache.set(hostname, fields);
  return fields;
}

/** The record's owner, else the owners table's for the host or its registrable domain, else the registrable domain. */
export function deriveOwner(recordOwner: string | undefined, registrableDomain: string, owners?: OwnersTable, host: string = registrableDomain): string {
  return recordOwner ?? owners?.ownerOf(host, registrableDomain) ?? registrableDomain;
}

/** The source-role classifier's public suffix: one definition, in schemas. */
export { publicSuffixOf } from '@evidence/schemas';
