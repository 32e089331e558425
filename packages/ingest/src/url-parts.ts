/**
 * Cheap pieces of URLs that were validated already (records) or need not be (link targets):
 * on the hot path a full WHATWG parse per link would cost more than the rest of pass 1.
 */

/** The source-role classifier reads the path too: one definition, in schemas. */
import { urlPath } from '@evidence/schemas';

export { urlPath };

/**
 * What follows the host (path and query, no fragment; `/` when there is no path): where
 * page-level cues sit. `urlPath` finds the path; the query is what follows it up to a `#`. The
 * path starts at the first `/` after the scheme, which is where its first occurrence there is.
 */
export function urlPathAndQuery(url: string): string {
  const path = urlPath(url);
  const scheme = url.indexOf('://');
  const start = url.indexOf(path, scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return path;
  const fragment = url.indexOf('#', start);
  return url.slice(start, fragment < 0 ? undefined : fragment);
}

/**
 * The lowercased hostname of an absolute http(s) URL, or undefined for anything else (relative
 * links, other schemes). Userinfo and port are dropped; no percent- or IDN-decoding is done.
 */
export function linkHost(url: string): string | undefined {
  let start: number;
  if (url.startsWith('https://')) start = 8;
  else if (url.startsWith('http://')) start = 7;
  else if (/^https?:\/\//i.test(url)) start = url.indexOf('//') + 2;
  else return undefined;
  let end = url.length;
  for (let index = start; index < url.length; index++) {
    const code = url.charCodeAt(index);
    if (code === 47 || code === 63 || code === 35 || code === 92) {
      end = index;
      break;
    }
  }
  let authority = url.slice(start, end);
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = authority.slice(at + 1);
  let host: string;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    host = close < 0 ? authority : authority.slice(0, close + 1);
  } else {
    const colon = authority.indexOf(':');
    host = colon < 0 ? authority : authority.slice(0, colon);
  }
  host = host.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host === '' ? undefined : host;
}
