/**
 * What a page's URL says about its publisher: host, tld, registrable domain (public suffix list),
 * site domain, and the owner: the record's own, else the owners table's, else the site domain.
 *
 * The registrable domain is the ICANN one (`bbc.co.uk` for `news.bbc.co.uk`, `github.io` for
 * `alice.github.io`): what the `registrable_domain` field, the tld and the source-role rules read.
 * The site domain is the domain one owner controls: the same, except under a registry of separate
 * owners, where it is one label more (`alice.github.io`, `x.blogspot.com`, `y.wordpress.com`).
 * Those registries are the public suffix list's private section (tldts) and the open platforms
 * the list does not carry (schemas' `OPEN_PLATFORMS`, the one table host_rank and source_role read too). Owners, and so independence, are counted by it:
 * two unrelated blogs on one platform are two owners, while `news.bbc.co.uk` and `www.bbc.co.uk`
 * stay one.
 */
import { isIP } from 'node:net';
import { isOpenPlatform } from '@evidence/schemas';
import { getDomain } from 'tldts';
import type { OwnersTable } from './owners.js';

export interface HostFields {
  host: string;
  /** Last label of the hostname; empty for an IP address, which has none. */
  tld: string;
  /** The domain a registrant controls (`bbc.co.uk` for `news.bbc.co.uk`); the hostname when there is none. */
  registrableDomain: string;
  /** The domain one owner controls: the registrable domain, or one label more under a registry of separate owners (`alice.github.io`). */
  siteDomain: string;
}

/** Hosts repeat heavily in a crawl; the public-suffix lookup is the costly part, so keep recent answers. */
const HOST_CACHE_LIMIT = 50_000;
const hostCache = new Map<string, HostFields>();

function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** `host`'s label right under `parent` joined to it (`b.x.example` for `a.b.x.example` under `x.example`); `parent` for itself or `www.`. */
function labelUnder(host: string, parent: string): string {
  if (host === parent || !host.endsWith(`.${parent}`)) return parent;
  const below = host.slice(0, -parent.length - 1);
  const label = below.slice(below.lastIndexOf('.') + 1);
  return label === 'www' ? parent : `${label}.${parent}`;
}

function computeHostFields(hostname: string): HostFields {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(stripBrackets(host)) !== 0) return { host, tld: '', registrableDomain: host, siteDomain: host };
  const lastDot = host.lastIndexOf('.');
  const tld = lastDot < 0 ? host : host.slice(lastDot + 1);
  const registrableDomain = getDomain(host, { extractHostname: false, allowPrivateDomains: false }) ?? host;
  let siteDomain = getDomain(host, { extractHostname: false, allowPrivateDomains: true }) ?? registrableDomain;
  if (siteDomain !== registrableDomain) siteDomain = labelUnder(host, siteDomain.slice(siteDomain.indexOf('.') + 1));
  else if (isOpenPlatform(registrableDomain)) siteDomain = labelUnder(host, registrableDomain);
  return { host, tld, registrableDomain, siteDomain };
}

/** Host, tld, registrable domain and site domain of a (WHATWG-parsed) hostname. */
export function deriveHostFields(hostname: string): HostFields {
  const cached = hostCache.get(hostname);
  if (cached !== undefined) return cached;
  const fields = computeHostFields(hostname);
  // Dropping the whole cache is crude but bounded and O(1) per miss; a crawl's hosts cluster anyway.
  if (hostCache.size >= HOST_CACHE_LIMIT) hostCache.clear();
  hostCache.set(hostname, fields);
  return fields;
}

/**
 * The record's owner, else the owners table's for the host, its site domain or its registrable
 * domain, else the site domain.
 */
export function deriveOwner(recordOwner: string | undefined, fields: Pick<HostFields, 'host' | 'registrableDomain' | 'siteDomain'>, owners?: OwnersTable): string {
  return recordOwner ?? owners?.ownerOf(fields.host, fields.siteDomain, fields.registrableDomain) ?? fields.siteDomain;
}

/** The source-role classifier's public suffix: one definition, in schemas. */
export { publicSuffixOf } from '@evidence/schemas';
