/**
 * The MCP transport's Origin rule (Streamable HTTP, "Security warning"): a server reachable on
 * localhost validates `Origin` so that a web page a browser loaded from elsewhere cannot call it
 * through DNS rebinding. The request's `Host` proves nothing there: a rebound name (evil.example
 * resolving to 127.0.0.1) arrives with `Host` and `Origin` both naming it. So the server's own
 * hosts are fixed: the loopback names (`localhost`, `127.0.0.1`, `[::1]`, any port) and the
 * address it listens on (HOST, unless a wildcard). A request without `Origin` (every non-browser
 * client) is served; one whose Origin is an own host or one ALLOWED_ORIGINS lists is served; any
 * other (another host, `null`, not a URL) is refused with 403.
 */

const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Addresses that listen everywhere name no host of their own. */
const WILDCARD_ADDRESSES = new Set(['', '0.0.0.0', '::', '[::]']);

/**
 * ALLOWED_ORIGINS: a comma list of origins (`https://app.example:8443`, matched as a whole) and
 * hosts (`app.example`: any scheme and port; `app.example:8443`: that port).
 */
export function parseAllowedOrigins(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  for (const entry of entries) {
    if (entry.includes('://') && !URL.canParse(entry)) throw new Error(`invalid ALLOWED_ORIGINS: "${entry}" is not an origin (scheme://host[:port])`);
  }
  return entries.map((entry) => (entry.includes('://') ? new URL(entry).origin : entry));
}

/** The hostnames an Origin may name as this server's own: loopback, and the listening address when it is one. */
export function ownHostnames(listenHost: string): string[] {
  const host = listenHost.trim().toLowerCase();
  if (WILDCARD_ADDRESSES.has(host)) return LOOPBACK_HOSTNAMES;
  const hostname = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host; // an IPv6 address as URL.hostname writes it
  return LOOPBACK_HOSTNAMES.includes(hostname) ? LOOPBACK_HOSTNAMES : [...LOOPBACK_HOSTNAMES, hostname];
}

/** The refusal's text after the quoted Origin: the same for every request, written once. */
const REFUSAL_REASON = " is neither this server's own host nor one ALLOWED_ORIGINS lists";

function refusal(origin: string): string {
  return `forbidden: Origin ${JSON.stringify(origin.slice(0, 100))}${REFUSAL_REASON}`;
}

/** Why a request's Origin is refused, or null when it may be served (the text is written only for a refusal). */
export function originRefusal(origin: string | undefined, own: readonly string[], allowed: readonly string[]): string | null {
  if (origin === undefined) return null;
  const url = URL.parse(origin);
  if (url === null || url.origin === 'null') return refusal(origin);
  if (own.includes(url.hostname)) return null;
  for (const entry of allowed) {
    if (entry === url.origin || entry === url.host || entry === url.hostname) return null;
  }
  return refusal(origin);
}
